import net from 'node:net';
import { lstat, unlink } from 'node:fs/promises';

export type SlotState =
  /** Nothing there: free to bind. */
  | { readonly kind: 'free' }
  /** A socket file nobody listens on (ECONNREFUSED): removed, so free to bind. */
  | { readonly kind: 'stale-removed' }
  /** Something accepted the connection: another server owns it, never touched. */
  | { readonly kind: 'live' }
  /** Not ours to judge: a non-socket file, or a socket we may not connect to (EACCES). */
  | { readonly kind: 'blocked'; readonly reason: string };

const PROBE_TIMEOUT_MS = 1000;

/**
 * Looks at one candidate path. A socket that accepts a connection belongs to a live server
 * (Discord, arRPC, another Companion) and is left alone. A socket file that refuses
 * connections is stale: it is unlinked, because pypresence takes the first `discord-ipc-*`
 * entry it lists and crashes on a dead one, and the Rust crate picks the first path that
 * merely exists.
 *
 * On Windows the path is a named pipe (`\\?\pipe\discord-ipc-N`), not a file: nothing can
 * be inspected there (Node's lstat of a pipe fails, EISDIR under Wine) and nothing is left
 * behind by a server that died, so the pipe is judged by connecting alone (pipeSlotState).
 */
export async function probeSlot(socketPath: string, platform: NodeJS.Platform = process.platform): Promise<SlotState> {
  if (platform === 'win32') return pipeSlotState(await tryConnect(socketPath));
  let stats;
  try {
    stats = await lstat(socketPath);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { kind: 'free' };
    return { kind: 'blocked', reason: `cannot inspect: ${errnoOf(error) ?? String(error)}` };
  }
  if (!stats.isSocket()) return { kind: 'blocked', reason: 'exists and is not a socket' };

  const outcome = await tryConnect(socketPath);
  if (outcome === 'connected') return { kind: 'live' };
  if (outcome === 'ECONNREFUSED' || outcome === 'ENOENT') {
    try {
      await unlink(socketPath);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') return { kind: 'blocked', reason: `stale but cannot remove: ${errnoOf(error)}` };
    }
    return { kind: 'stale-removed' };
  }
  return { kind: 'blocked', reason: `connect failed: ${outcome}` };
}

/**
 * What a connection attempt says about a Windows named pipe: a server is there when it
 * accepted (or did not answer within the probe's second: every instance busy, which Node
 * waits out); no pipe of that name (ENOENT) is free; anything else (EACCES: another user's
 * pipe) is not ours to take. Nothing is ever removed: a pipe has no file.
 */
export function pipeSlotState(outcome: string): SlotState {
  if (outcome === 'connected' || outcome === 'EBUSY') return { kind: 'live' };
  if (outcome === 'ENOENT') return { kind: 'free' };
  return { kind: 'blocked', reason: `connect failed: ${outcome}` };
}

/**
 * Connects to a Unix socket (or a Windows named pipe) and hangs up at once, sending nothing: `connected` (also when it
 * does not answer within a second: a listener with a full accept queue is alive), else the
 * connection error's code (`ECONNREFUSED`, `EACCES`, ...) or `error`.
 */
export function tryConnect(socketPath: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const finish = (result: string): void => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(result);
    };
    // A listener whose accept queue is full is still alive: a timeout counts as live.
    const timer = setTimeout(() => finish('connected'), PROBE_TIMEOUT_MS);
    socket.once('connect', () => finish('connected'));
    socket.once('error', (error) => finish(errnoOf(error) ?? 'error'));
  });
}

export function errnoOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
