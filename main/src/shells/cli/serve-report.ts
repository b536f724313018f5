import type { Logger } from 'pino';
import { NoFreeSlotError, SocketPathTooLongError, UnsafeSocketDirectoryError } from '../../../../rpc/src/index.js';
import type { Host } from '../../host/compose/host.js';
import { listenerReport } from '../../host/compose/listener-report.js';
import { AlreadyRunningError } from '../../base/runtime-file.js';
import type { CommandIo } from './cli-args.js';
import type { ServeSettings } from './serve-options.js';
import { tlsReport } from './tls-report.js';

/** What the player reads once the host is up: where it listens, its platform, its APIs, warnings. */
export function reportStarted(host: Host, settings: ServeSettings, io: CommandIo, logger: Pick<Logger, 'info'>): void {
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
  io.stdout(`Platform: ${host.platform.url}${host.platform.embedded === null ? '' : ' (embedded emulator)'}\n`);
  const tls = host.platform.embedded?.tls;
  if (tls !== undefined) io.stdout(tlsReport(tls));
  io.stdout(`Control API: ${host.control.url} (token in ${host.runtimeFile ?? 'memory only'})\n`);
  if (settings.qa) io.stdout('QA mode: event and fault injection on (/v1/inject, companion inject)\n');
  if (host.rpcWebSocketPort !== null) io.stdout(`RPC WebSocket: ws://127.0.0.1:${host.rpcWebSocketPort}\n`);
  if (host.webUi !== null) {
    // The token only where the user sees it: a terminal, not a log file or a pipe.
    io.stdout(
      process.stdout.isTTY === true
        ? `Web UI: ${host.webUi.url}\n`
        : `Web UI: ${host.webUi.baseUrl} (token in ${host.runtimeFile ?? 'memory only'})\n`,
    );
  }
  const record = settings.record;
  if (record !== undefined) {
    io.stdout(`Recording to ${record.file}${record.secrets ? ' (secrets kept)' : ' (secrets redacted)'}\n`);
    if (record.secrets) io.stderr('companion serve: warning: --record-secrets: the recording holds access tokens, authorization codes and activity secrets; keep it private and delete it when done\n');
  }
  logger.info({ path: host.ipcPath, index: host.ipcIndex, prefixFrom: host.prefix.source }, 'rpc server listening');
  if (host.grantsWarning !== null) io.stderr(`companion serve: ${host.grantsWarning}\n`);
  if (host.originsWarning !== null) io.stderr(`companion serve: ${host.originsWarning}\n`);
}

/** The first sign-in's outcome for the player; false when it failed (the command then stops). */
export function reportSignIn(host: Host, io: CommandIo): boolean {
  const outcome = host.signedIn;
  if (outcome.kind === 'failed') {
    io.stderr(`companion serve: cannot sign in: ${outcome.message}\n`);
    return false;
  }
  if (outcome.kind === 'signed-in') io.stdout(`Signed in as ${outcome.username}\n`);
  else if (outcome.kind === 'retrying') io.stdout(`Platform unreachable (${outcome.message}); signing in when it is back\n`);
  else if (host.session.user === null) io.stdout('Not signed in: games are closed with "User logged out" until you sign in\n');
  else io.stdout(`Not signed in; games see the cached account ${host.session.user.username}\n`);
  return true;
}

/** The message for a host that could not start, or undefined for an error nobody expects (thrown on). */
export function startFailure(error: unknown, settings: ServeSettings): string | undefined {
  if (error instanceof AlreadyRunningError) {
    return (
      `companion serve: Companion is already running for this directory (pid ${error.pid}, ${error.file}). ` +
      `Use --allow-second to start another one on the next free index; ` +
      `if no Companion is running, delete that file.\n`
    );
  }
  if (error instanceof NoFreeSlotError || error instanceof SocketPathTooLongError || error instanceof UnsafeSocketDirectoryError) {
    return `companion serve: ${error.message}\n`;
  }
  const record = settings.record;
  if (record !== undefined && isErrnoError(error) && error.path === record.file) {
    return `companion serve: cannot write the recording ${record.file} (${error.code})\n`;
  }
  if (isErrnoError(error)) return `companion serve: cannot start: ${error.message}\n`;
  return undefined;
}

function isErrnoError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
