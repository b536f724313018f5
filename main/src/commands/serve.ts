import { lstatSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import { NoFreeSlotError, SocketPathTooLongError } from '../../../rpc/src/index.js';
import type { Logger } from 'pino';
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

  const runtimeDir = values['runtime-dir'] as string | undefined;
  if (runtimeDir === '') throw new UsageError('--runtime-dir must not be empty');

  // Signal handlers first: a signal during start-up shuts the host down as soon as it is up.
  const shutdown = new ShutdownOnSignal();
  let host: Host;
  try {
    host = await startHost({
      env: io.env,
      runtimeDir,
      allowSecond: values['allow-second'] === true,
      username,
      version: io.version,
      logger,
    });
  } catch (error) {
    shutdown.dispose();
    if (error instanceof AlreadyRunningError) {
      io.stderr(
        `companion serve: Companion is already running for this directory (pid ${error.pid}, ${error.file}). ` +
          `Use --allow-second to start another one on the next free index; ` +
          `if no Companion is running, delete that file.\n`,
      );
      return 1;
    }
    if (error instanceof NoFreeSlotError || error instanceof SocketPathTooLongError) {
      io.stderr(`companion serve: ${error.message}\n`);
      return 1;
    }
    if (isErrnoError(error)) {
      io.stderr(`companion serve: cannot start: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

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
  return shutdown.closeOnSignal(host, logger);
}

function isErrnoError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function safeUsername(): string {
  try {
    return os.userInfo().username || 'player';
  } catch {
    return 'player';
  }
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Longer than the RPC server's close grace (5 s) for commands still running. */
const SHUTDOWN_TIMEOUT_MS = 8000;

/**
 * Catches SIGINT, SIGTERM and SIGHUP from the moment it is created, so a signal that arrives
 * while the host starts is not lost (the default action would leave the socket behind).
 */
class ShutdownOnSignal {
  private received: NodeJS.Signals | undefined;
  private wake: (() => void) | undefined;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.received ??= signal;
    this.wake?.();
  };

  constructor() {
    for (const signal of SHUTDOWN_SIGNALS) process.on(signal, this.onSignal);
  }

  dispose(): void {
    for (const signal of SHUTDOWN_SIGNALS) process.off(signal, this.onSignal);
  }

  /** Resolves with the exit code once a signal has shut the host down. */
  async closeOnSignal(host: Host, logger: Logger): Promise<number> {
    // Last resort if the process exits some other way: remove our socket file synchronously.
    const socketIno = lstatSync(host.ipcPath).ino;
    process.on('exit', () => {
      try {
        if (lstatSync(host.ipcPath).ino === socketIno) unlinkSync(host.ipcPath);
      } catch {
        // gone already
      }
    });
    if (this.received === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
    // A second Ctrl+C from now on ends the process at once, as usual.
    this.dispose();
    logger.info({ signal: this.received }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await host.close();
      return 0;
    } catch (error) {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
      return 1;
    } finally {
      clearTimeout(timer);
    }
  }
}
