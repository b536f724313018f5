import { compileFromNowOn } from '../../host/compose/startup-tiering.js';
import os from 'node:os';
import path from 'node:path';
import { NoFreeSlotError, SocketPathTooLongError, UnsafeSocketDirectoryError } from '../../../../rpc/src/index.js';
import { listenerReport } from '../../host/compose/listener-report.js';
import { activationFromEnv, withoutActivationVars } from '../../diagnostics/systemd/activation.js';
import type { Logger } from 'pino';
import { startHost, type Host } from '../../host/compose/host.js';
import type { Credentials } from '../../host/session/platform-session.js';
import { CONSENT_POLICIES, parseConsentPolicy } from '../../host/auth/consent-broker.js';
import { isInteractiveTerminal, startTtyPrompt } from './tty-prompt.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../base/logger.js';
import { AlreadyRunningError } from '../../base/runtime-file.js';
import { parseCommandArgs, readSecretFile, UsageError, type CommandIo } from './cli-args.js';
import { StopSignal } from './stop-signal.js';

export const SERVE_HELP = `Usage: companion serve [options]

Starts the Companion host in plain Node: the local RPC server on the first free
discord-ipc-0..9, in the directory games look in, signed in to the platform
(by default the embedded platform emulator, as its first demo user).

Options:
  --runtime-dir DIR   Put the sockets in DIR instead of the first set of
                      XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP (else /tmp)
  --data-dir DIR      Settings, the cached account and the embedded emulator's
                      state (default: $XDG_CONFIG_HOME/companion, else
                      ~/.config/companion)
  --platform URL      Use this platform (e.g. a standalone emulator started
                      with 'companion platform serve') instead of the embedded one
  --user NAME         Sign in as this platform user through the emulator's dev
                      login (demo users: alice, bob, carol, dave)
  --token-file FILE   Sign in with the token in FILE (or set COMPANION_TOKEN).
                      Tokens are never accepted on the command line
  --strict-apps       Unknown application ids fail the handshake with CLOSE
                      4000 "Invalid Client ID" (embedded emulator; by default
                      they are registered on first use)
  --allow-second      Run even if a Companion already serves this directory,
                      on the next free index
  --snap-socket       Also listen in <runtime dir>/snap.discord/ (Linux; off by
                      default: the directory belongs to a Snap Discord)
  --consent POLICY    prompt | approve | deny: how new authorization requests
                      (AUTHORIZE) are answered. Default prompt: on this terminal
                      when it is one, else through the control API
  --consent-always-ask
                      Ask even when a remembered grant covers the request
                      (requests with prompt "consent", as the real client does)
  --record FILE       Record every RPC frame (both directions, every connection)
                      and host-side events (consent decisions, gateway dispatches)
                      to FILE, created or truncated (mode 0600). Secrets (tokens,
                      codes, activity secrets) are redacted. Read it with
                      'companion record show FILE', replay it with 'companion replay'
  --record-secrets    Keep the secrets in the recording (with --record). The file
                      then holds working tokens: keep it private
  -v, --verbose       More log output (repeat for more: -v info, -vv debug,
                      -vvv trace). Default: errors and warnings only
  --log-level LEVEL   error | warn | info | debug | trace
  -h, --help          Show this help
  --version           Show the version

The control API's and the web UI's URLs and tokens are in
<runtime dir>/companion/host.json (mode 0600). On a terminal, the web UI's URL is
printed with its token: open it in a browser. Logs are JSON lines on stderr. Tokens and secrets are never logged, at any
level.
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
    'data-dir': { type: 'string' },
    platform: { type: 'string' },
    user: { type: 'string' },
    'token-file': { type: 'string' },
    'strict-apps': { type: 'boolean' },
    consent: { type: 'string' },
    'consent-always-ask': { type: 'boolean' },
    'allow-second': { type: 'boolean' },
    'snap-socket': { type: 'boolean' },
    record: { type: 'string' },
    'record-secrets': { type: 'boolean' },
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
  const runtimeDir = values['runtime-dir'] as string | undefined;
  if (runtimeDir === '') throw new UsageError('--runtime-dir must not be empty');
  const dataDir = (values['data-dir'] as string | undefined) ?? defaultDataDir(io.env);
  if (dataDir === '') throw new UsageError('--data-dir must not be empty');
  const platformUrl = parsePlatformUrl(values.platform as string | undefined);
  if (platformUrl !== undefined && values['strict-apps'] === true) {
    throw new UsageError("--strict-apps applies to the embedded emulator; start the other one with 'companion platform serve --strict-apps'");
  }
  const consentValue = values.consent as string | undefined;
  const consentPolicy = consentValue === undefined ? 'prompt' : parseConsentPolicy(consentValue);
  if (consentPolicy === undefined) throw new UsageError(`--consent must be one of ${CONSENT_POLICIES.join(', ')}, got '${consentValue}'`);
  const record = parseRecordOptions(values.record as string | undefined, values['record-secrets'] === true);
  const credentials = await readCredentials(values.user as string | undefined, values['token-file'] as string | undefined, io.env);

  // Signal handlers first: a signal during start-up shuts the host down as soon as it is up.
  const shutdown = new ShutdownOnSignal();
  // Started by systemd socket activation: serve the sockets its units hold.
  const activation = activationFromEnv(io.env, process.pid);
  let host: Host;
  try {
    host = await startHost({
      env: withoutActivationVars(io.env),
      snapSocket: values['snap-socket'] === true || activation.adopted.some((socket) => socket.kind === 'snap'),
      ...(activation.adopted.length === 0 ? {} : { adoptedSockets: activation.adopted }),
      runtimeDir,
      allowSecond: values['allow-second'] === true,
      version: io.version,
      logger,
      dataDir,
      platformUrl,
      credentials,
      strictApps: values['strict-apps'] === true,
      consentPolicy,
      consentAlwaysAsk: values['consent-always-ask'] === true,
      ...(record === undefined ? {} : { record }),
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
    if (error instanceof NoFreeSlotError || error instanceof SocketPathTooLongError || error instanceof UnsafeSocketDirectoryError) {
      io.stderr(`companion serve: ${error.message}\n`);
      return 1;
    }
    if (record !== undefined && isErrnoError(error) && error.path === record.file) {
      io.stderr(`companion serve: cannot write the recording ${record.file} (${error.code})\n`);
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
  for (const line of listenerReport(host.listeners.slice(1), host.skippedListeners)) io.stdout(`${line}\n`);
  if (activation.ignored.length > 0) io.stderr(`companion serve: ignoring inherited sockets not from Companion's units (fds ${activation.ignored.map((s) => s.fd).join(', ')})\n`);
  io.stdout(`Platform: ${host.platform.url}${host.platform.embedded === null ? '' : ' (embedded emulator)'}\n`);
  io.stdout(`Control API: ${host.control.url} (token in ${host.runtimeFile ?? 'memory only'})\n`);
  if (host.rpcWebSocketPort !== null) io.stdout(`RPC WebSocket: ws://127.0.0.1:${host.rpcWebSocketPort}\n`);
  if (host.webUi !== null) {
    // The token only where the user sees it: a terminal, not a log file or a pipe.
    io.stdout(
      process.stdout.isTTY === true
        ? `Web UI: ${host.webUi.url}\n`
        : `Web UI: ${host.webUi.baseUrl} (token in ${host.runtimeFile ?? 'memory only'})\n`,
    );
  }
  if (record !== undefined) {
    io.stdout(`Recording to ${record.file}${record.secrets ? ' (secrets kept)' : ' (secrets redacted)'}\n`);
    if (record.secrets) io.stderr('companion serve: warning: --record-secrets: the recording holds access tokens, authorization codes and activity secrets; keep it private and delete it when done\n');
  }
  logger.info({ path: host.ipcPath, index: host.ipcIndex, prefixFrom: host.prefix.source }, 'rpc server listening');
  if (host.grantsWarning !== null) io.stderr(`companion serve: ${host.grantsWarning}\n`);
  if (host.originsWarning !== null) io.stderr(`companion serve: ${host.originsWarning}\n`);
  if (consentPolicy === 'prompt' && isInteractiveTerminal(process.stdin, process.stdout)) {
    const prompt = startTtyPrompt({ broker: host.consent, input: process.stdin, output: process.stdout });
    void host.closed.then(() => prompt.close());
  }
  const outcome = host.signedIn;
  if (outcome.kind === 'failed') {
    io.stderr(`companion serve: cannot sign in: ${outcome.message}\n`);
    shutdown.dispose();
    await host.close();
    return 1;
  }
  if (outcome.kind === 'signed-in') io.stdout(`Signed in as ${outcome.username}\n`);
  else if (outcome.kind === 'retrying') io.stdout(`Platform unreachable (${outcome.message}); signing in when it is back\n`);
  else if (host.session.user === null) io.stdout('Not signed in: games are closed with "User logged out" until you sign in\n');
  else io.stdout(`Not signed in; games see the cached account ${host.session.user.username}\n`);
  // Started: what runs from now on is the work the host is for (startup-tiering.ts).
  compileFromNowOn();
  return shutdown.closeOnSignal(host, logger);
}

function isErrnoError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function defaultDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(config, 'companion');
}

function parseRecordOptions(file: string | undefined, secrets: boolean): { file: string; secrets: boolean } | undefined {
  if (file === undefined) {
    if (secrets) throw new UsageError('--record-secrets needs --record FILE');
    return undefined;
  }
  if (file === '') throw new UsageError('--record must name a file');
  return { file: path.resolve(file), secrets };
}

function parsePlatformUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--platform must be an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--platform must be an http(s) URL, got '${value}'`);
  return url.origin;
}

/** --user, --token-file or COMPANION_TOKEN; at most one. Tokens never come from argv. */
async function readCredentials(
  username: string | undefined,
  tokenFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Credentials | undefined> {
  const envToken = env.COMPANION_TOKEN || undefined;
  const given = [username !== undefined, tokenFile !== undefined, envToken !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('give only one of --user, --token-file and COMPANION_TOKEN');
  if (username !== undefined) {
    if (username.length === 0) throw new UsageError('--user must not be empty');
    return { username };
  }
  if (tokenFile !== undefined) return { token: await readSecretFile('--token-file', tokenFile) };
  return envToken === undefined ? undefined : { token: envToken.trim() };
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Longer than the RPC server's close grace (5 s) for commands still running. */
const SHUTDOWN_TIMEOUT_MS = 8000;

/**
 * Catches SIGINT, SIGTERM and SIGHUP from the moment it is created, so a signal that arrives
 * while the host starts is not lost (the default action would leave the socket behind).
 */
class ShutdownOnSignal {
  private readonly signals = new StopSignal(SHUTDOWN_SIGNALS);

  dispose(): void {
    this.signals.dispose();
  }

  /** Resolves with the exit code once a signal has shut the host down. */
  async closeOnSignal(host: Host, logger: Logger): Promise<number> {
    // Last resort if the process exits some other way: remove our socket files synchronously.
    process.on('exit', () => host.removeSocketFilesSync());
    await this.signals.wait();
    // A second Ctrl+C from now on ends the process at once, as usual.
    this.dispose();
    logger.info({ signal: this.signals.received }, 'shutting down');
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
