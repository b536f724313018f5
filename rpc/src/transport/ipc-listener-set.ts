import type net from 'node:net';
import path from 'node:path';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { ipcSocketPath } from './ipc-paths.js';
import { adoptIpcListener, assertSocketPathsFit, listenIpc, type IpcListener } from './ipc-listener.js';
import type { ListenDirectory, ListenDirectoryKind } from './listen-directories.js';
import { checkSocketDirectory } from './socket-dir-check.js';
import { errnoOf } from './socket-probe.js';

export interface PlacedListener {
  readonly directory: ListenDirectory;
  readonly listener: IpcListener;
}

export interface SkippedDirectory {
  readonly directory: ListenDirectory;
  readonly reason: string;
}

/** A listening socket handed over by systemd, for the directory of `kind`. */
export interface AdoptedByKind {
  readonly fd: number;
  readonly kind: ListenDirectoryKind;
  readonly index: number;
}

export interface IpcListenerSetOptions {
  /** From ipcListenDirectories: the first one must work, the others are best effort. */
  readonly directories: readonly ListenDirectory[];
  /** Every listener feeds the same handler (one RpcServer). */
  readonly onConnection: (socket: net.Socket) => void;
  readonly platform?: NodeJS.Platform;
  readonly adopted?: readonly AdoptedByKind[];
  /** Test seam: the user the directories must belong to (default: this process's). */
  readonly uid?: number;
}

export interface IpcListenerSet {
  /** The listener in the first directory (the resolved prefix). */
  readonly primary: IpcListener;
  /** Every listener, the primary first. */
  readonly listeners: readonly PlacedListener[];
  /** Directories Companion does not listen in, and why. */
  readonly skipped: readonly SkippedDirectory[];
  /**
   * Closes every listener and removes their sockets. Directories stay: a sandbox that bound
   * the Flatpak directory at its start keeps that directory, so one created anew after a
   * restart would be invisible to it.
   */
  close(): Promise<void>;
  /** Last resort on process exit: removes the socket files synchronously. */
  removeFilesSync(): void;
}

/**
 * Listens in every directory, each with the rules of listenIpc (never unlink a socket that
 * answers, reclaim refused ones, the first free index), each a real listening socket. Before
 * binding, each directory is created when it may be (0700) and checked: owned by the user
 * and not open to other users' writes (checkSocketDirectory). The first directory's failure
 * is thrown; the others are reported in `skipped`.
 */
export async function listenIpcDirectories(options: IpcListenerSetOptions): Promise<IpcListenerSet> {
  const platform = options.platform ?? process.platform;
  const [first, ...rest] = platform === 'win32' ? options.directories.slice(0, 1) : options.directories;
  if (first === undefined) throw new RangeError('listenIpcDirectories needs at least one directory');
  const seen = new Map<string, ListenDirectory>();
  const place = async (directory: ListenDirectory): Promise<PlacedListener> => {
    const adopted = options.adopted?.find((socket) => socket.kind === directory.kind);
    if (adopted !== undefined) {
      const listener = await adoptIpcListener({ fd: adopted.fd, index: adopted.index, path: ipcSocketPath(adopted.index, directory.dir, platform) }, options.onConnection);
      return { directory, listener };
    }
    if (platform !== 'win32') {
      assertSocketPathsFit(directory.dir, platform);
      await prepareDirectory(directory, first.dir, options.uid);
      const real = await realpath(directory.dir);
      const same = seen.get(real);
      if (same !== undefined) throw new SkipDirectory(`the same directory as ${same.dir}`);
      seen.set(real, directory);
    }
    const listener = await listenIpc({ dir: directory.dir, onConnection: options.onConnection, platform });
    return { directory, listener };
  };

  const primary = await place(first);
  const listeners: PlacedListener[] = [primary];
  const skipped: SkippedDirectory[] = [];
  for (const directory of rest) {
    try {
      listeners.push(await place(directory));
    } catch (error) {
      skipped.push({ directory, reason: reasonOf(error) });
    }
  }
  let closing: Promise<void> | undefined;
  return {
    primary: primary.listener,
    listeners,
    skipped,
    close() {
      closing ??= Promise.all(listeners.map((placed) => placed.listener.close())).then(() => undefined);
      return closing;
    },
    removeFilesSync() {
      for (const placed of listeners) placed.listener.removeFileSync();
    },
  };
}

class SkipDirectory extends Error {}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates the directory (0700) when it may be created and is missing, then checks it, and
 * for a sub-directory of the prefix each directory in between.
 */
async function prepareDirectory(directory: ListenDirectory, prefixDir: string, uid: number | undefined): Promise<void> {
  const below = path.relative(prefixDir, directory.dir);
  const inside = below !== '' && !below.startsWith('..') && !path.isAbsolute(below);
  const chain = inside ? below.split(path.sep).map((_, i, parts) => path.join(prefixDir, ...parts.slice(0, i + 1))) : [directory.dir];
  for (const dir of chain) {
    if (await exists(dir)) {
      await checkSocketDirectory(dir, uid ?? process.getuid?.());
      continue;
    }
    if (!directory.create) throw new SkipDirectory(`${dir} does not exist`);
    await mkdir(dir, { recursive: !inside, mode: 0o700 });
    await checkSocketDirectory(dir, uid ?? process.getuid?.());
  }
}

async function exists(dir: string): Promise<boolean> {
  try {
    await stat(dir);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw error;
  }
}
