import { lstatSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import { NoFreeSlotError } from '../../../rpc/src/index.js';
import { startHost, type Host } from '../host.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../logger.js';
import { AlreadyRunningError } from '../runtime-file.js';
import { parseCommandArgs, UsageError, type CommandIo } from '../cli-args.js';

export const SERVE_HELP = `Usage: companion serve [options]

Starts the Companion host in plain Node: the local RPC server on the first free
discord-ipc-0..9, in the directory games look in.

Options:
  --runtime-dir DIR   Put the sockets in DIR instead of the first set of
                      XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP (else /tmp)
  --user NAME         The local account READY announces (default: your OS user)
  --allow-second      Run even if a Companion already serves this directory,
                      on the next free index
  -v, --verbose       More log output (repeat for more: -v info, -vv debug,
                      -vvv trace). Default: errors and warnings only
  --log-level LEVEL   error | warn | info | debug | trace
  -h, --help          Show this help
  --version           Show the version

Logs are JSON lines on stderr. Tokens and secrets are never logged, at any level.
Stop with Ctrl+C (SIGINT) or SIGTERM: clients get CLOSE 1000 and the socket is removed.
`;

function levelFrom(verbose: number, explicit: string | undefined): LogLevel {
  if (explicit !== undefined) {
    if (!(LOG_LEVELS as readonly string[]).includes(explicit)) {
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${explicit}'`);
    }
    return explicit as LogLevel;
  }
  return (['warn', 'info', 'debug', 'trace'] as const)[Math.min(verbose, 3)] ?? 'warn';
}

export async function serveCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('serve', argv, {
    'runtime-dir': { type: 'string' },
    user: { type: 'string' },
    'allow-second': { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v', multiple: true },
    'log-level': { type: 'string' },
  });
  if (parsed.help) {
    io.stdout(SERVE_HELP);
    return 0;
  }
  const values = parsed.values;
  const level = levelFrom((values.verbose as boolean[] | undefined)?.length ?? 0, values['log-level'] as string | undefined);
  const logger = createLogger({ level });
  const username = (values.user as string | undefined) ?? safeUsername();
  if (username.length === 0) throw new UsageError('--user must not be empty');

  let host: Host;
  try {
    host = await startHost({
      env: io.env,
      runtimeDir: values['runtime-dir'] as string | undefined,
      allowSecond: values['allow-second'] === true,
      username,
      version: io.version,
      logger,
    });
  } catch (error) {
    if (error instanceof AlreadyRunningError) {
      io.stderr(
        `companion serve: Companion is already running for this directory (pid ${error.pid}). ` +
          `Use --allow-second to start another one on the next free index.\n`,
      );
      return 1;
    }
    if (error instanceof NoFreeSlotError) {
      io.stderr(`companion serve: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

  // Handlers first: whoever reads the line below may signal us at once.
  const stopped = handleShutdownSignals(host, logger);

  for (const slot of host.slots) {
    if (slot.index >= host.ipcIndex) break;
    const note =
      slot.state.kind === 'live'
        ? 'held by another running server; left alone'
        : slot.state.kind === 'blocked'
          ? `not usable (${slot.state.reason})`
          : undefined;
    if (note !== undefined) io.stdout(`discord-ipc-${slot.index}: ${note}\n`);
  }
  const removed = host.slots.filter((slot) => slot.state.kind === 'stale-removed').map((slot) => slot.index);
  if (removed.length > 0) io.stdout(`Removed stale sockets: ${removed.map((i) => `discord-ipc-${i}`).join(', ')}\n`);
  io.stdout(`Companion ${io.version} listening on ${host.ipcPath}\n`);
  logger.info({ path: host.ipcPath, index: host.ipcIndex, prefixFrom: host.prefix.source }, 'rpc server listening');
  return stopped;
}

function safeUsername(): string {
  try {
    return os.userInfo().username || 'player';
  } catch {
    return 'player';
  }
}

/** Installs the signal handlers; resolves with the exit code once a signal has shut the host down. */
function handleShutdownSignals(host: Host, logger: ReturnType<typeof createLogger>): Promise<number> {
  // Last resort if the process exits some other way: remove our socket file synchronously.
  const socketIno = lstatSync(host.ipcPath).ino;
  const removeSocket = (): void => {
    try {
      if (lstatSync(host.ipcPath).ino === socketIno) unlinkSync(host.ipcPath);
    } catch {
      // gone already
    }
  };
  process.on('exit', removeSocket);

  return new Promise((resolve) => {
    const shutdown = (signal: NodeJS.Signals): void => {
      logger.info({ signal }, 'shutting down');
      process.off('SIGINT', shutdown);
      process.off('SIGTERM', shutdown);
      process.off('SIGHUP', shutdown);
      const timer = setTimeout(() => {
        logger.warn({}, 'shutdown took more than 5 s; exiting');
        resolve(1);
      }, 5000);
      timer.unref();
      host.close().then(
        () => {
          clearTimeout(timer);
          resolve(0);
        },
        (error: unknown) => {
          logger.error({ error: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    process.on('SIGHUP', shutdown);
  });
}
