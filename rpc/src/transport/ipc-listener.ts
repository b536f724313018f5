import net from 'node:net';
import { lstatSync, unlinkSync } from 'node:fs';
import { chmod, lstat, unlink } from 'node:fs/promises';
import { IPC_INDEX_COUNT, ipcSocketPath } from './ipc-paths.js';
import { errnoOf, probeSlot, type SlotState } from './socket-probe.js';

export interface IpcListenerOptions {
  /** Directory for Unix sockets (ignored on Windows). */
  readonly dir: string;
  readonly onConnection: (socket: net.Socket) => void;
  readonly platform?: NodeJS.Platform;
}

export interface SlotReport {
  readonly index: number;
  readonly path: string;
  readonly state: SlotState;
}

export interface IpcListener {
  readonly index: number;
  readonly path: string;
  /** What was found at each index before binding (adopted sockets: none). */
  readonly slots: readonly SlotReport[];
  close(): Promise<void>;
  /**
   * Last resort for a process that exits without close(): removes the socket file
   * synchronously if it is still the one this listener made.
   */
  removeFileSync(): void;
}

/** Longest Unix socket path (sun_path less its terminating NUL): 103 bytes on macOS and BSDs. */
export function maxSocketPathBytes(platform: NodeJS.Platform): number {
  return platform === 'linux' ? 107 : 103;
}

export class SocketPathTooLongError extends Error {
  constructor(
    readonly socketPath: string,
    readonly max: number,
  ) {
    super(`the socket path ${socketPath} is longer than the ${max} bytes a Unix socket path may have; choose a shorter --runtime-dir`);
    this.name = 'SocketPathTooLongError';
  }
}

/** Throws SocketPathTooLongError when discord-ipc-9 in `dir` would not fit in a socket address. */
export function assertSocketPathsFit(dir: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  const longest = ipcSocketPath(IPC_INDEX_COUNT - 1, dir, platform);
  if (Buffer.byteLength(longest) > maxSocketPathBytes(platform)) {
    throw new SocketPathTooLongError(longest, maxSocketPathBytes(platform));
  }
}

export class NoFreeSlotError extends Error {
  constructor(
    readonly dir: string,
    readonly slots: readonly SlotReport[],
  ) {
    const taken = slots.map((s) => `${s.index}:${s.state.kind}`).join(' ');
    super(`every discord-ipc-0..${IPC_INDEX_COUNT - 1} in ${dir} is taken (${taken})`);
    this.name = 'NoFreeSlotError';
  }
}

/**
 * Binds the lowest free `discord-ipc-N`. Every existing slot is probed first (in parallel):
 * live sockets are never touched, stale ones are removed. The socket is created owner-only
 * (umask during bind, then chmod 0600 for file systems that ignore the umask).
 */
export async function listenIpc(options: IpcListenerOptions): Promise<IpcListener> {
  const platform = options.platform ?? process.platform;
  const indices = Array.from({ length: IPC_INDEX_COUNT }, (_, i) => i);
  assertSocketPathsFit(options.dir, platform);

  // On Windows too: a pipe another server (a running Companion, Discord) serves is never bound
  // a second time, which Wine would allow (two servers on one pipe name).
  const slots: SlotReport[] = await Promise.all(
    indices.map(async (index) => {
      const socketPath = ipcSocketPath(index, options.dir, platform);
      return { index, path: socketPath, state: await probeSlot(socketPath, platform) };
    }),
  );

  for (const slot of slots) {
    if (slot.state.kind !== 'free' && slot.state.kind !== 'stale-removed') continue;
    const server = net.createServer({ pauseOnConnect: false }, options.onConnection);
    const bound = await bindOwnerOnly(server, slot.path, platform);
    if (!bound) continue;
    const ino = platform === 'win32' ? undefined : (await lstat(slot.path)).ino;
    return {
      index: slot.index,
      path: slot.path,
      slots,
      close: () => closeListener(server, slot.path, ino),
      removeFileSync: () => removeIfSameSync(slot.path, ino),
    };
  }
  throw new NoFreeSlotError(options.dir, slots);
}

async function bindOwnerOnly(server: net.Server, socketPath: string, platform: NodeJS.Platform): Promise<boolean> {
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Node binds a pipe synchronously inside listen(), so the umask covers exactly that call.
  const previousUmask = platform === 'win32' ? undefined : process.umask(0o177);
  try {
    server.listen(socketPath);
  } finally {
    if (previousUmask !== undefined) process.umask(previousUmask);
  }
  try {
    await listening;
  } catch (error) {
    if (errnoOf(error) === 'EADDRINUSE') return false;
    throw error;
  }
  if (platform !== 'win32') await chmod(socketPath, 0o600);
  return true;
}

async function closeListener(server: net.Server, socketPath: string, ino: number | undefined): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (ino === undefined) return;
  // libuv unlinks on close; remove it ourselves only if the file is still the one we made.
  try {
    const stats = await lstat(socketPath);
    if (stats.ino === ino) await unlink(socketPath);
  } catch {
    // already gone
  }
}

function removeIfSameSync(socketPath: string, ino: number | undefined): void {
  if (ino === undefined) return;
  try {
    if (lstatSync(socketPath).ino === ino) unlinkSync(socketPath);
  } catch {
    // gone already
  }
}

export interface AdoptedSocket {
  /** A listening Unix socket inherited from the service manager (socket activation). */
  readonly fd: number;
  readonly index: number;
  readonly path: string;
}

/**
 * Serves a listening socket the service manager bound (systemd socket activation). The file
 * is the service manager's: it is never probed, and never removed when the listener closes.
 */
export async function adoptIpcListener(socket: AdoptedSocket, onConnection: (socket: net.Socket) => void): Promise<IpcListener> {
  const server = net.createServer({ pauseOnConnect: false }, onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ fd: socket.fd }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    index: socket.index,
    path: socket.path,
    slots: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    removeFileSync: () => undefined,
  };
}
