import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { tryConnect } from './socket-probe.js';

/*
 * Stale discord-ipc-N sockets, reclaimed while the host runs.
 *
 * listenIpc removes the stale sockets it finds when it starts. One that goes stale later (a
 * client library's test server that crashed, another server killed with SIGKILL) stays behind
 * as a file nobody listens on, and pypresence, which takes the first discord-ipc-* entry in
 * directory order and connects to that one only, fails on it with ConnectionRefusedError while
 * Companion serves another index. So the host keeps its directories clean:
 *
 * - a directory watcher (inotify on Linux) notices a discord-ipc-N that appears, and it is
 *   checked a moment later;
 * - a slow poll (every 5 s) checks every discord-ipc-N again, for a server that died without
 *   its file changing (no event tells of it), and stands in where the directory cannot be
 *   watched.
 *
 * A socket is removed only when a connection to it is refused (ECONNREFUSED: no listener)
 * twice, a settle time apart, with the same inode throughout: a server between its bind() and
 * its listen(), or one that has just replaced the file, is not taken for dead. A socket that
 * accepts (a live server: the desktop client, arRPC, another Companion), that this user may not
 * connect to, or that is not a socket is never touched, nor are the host's own sockets. A
 * check is one lstat and one connect() per entry; an idle host with no other socket beside
 * its own does one readdir per directory each poll.
 */

const SOCKET_NAME = /^discord-ipc-\d+$/;

export interface StaleSocketSweeperOptions {
  /** The directories the host listens in. */
  readonly dirs: readonly string[];
  /** The host's own socket paths: never checked. */
  readonly own: readonly string[];
  /** Between two full checks of every directory (default 5,000 ms). */
  readonly pollMs?: number;
  /** Between the two refused connections that make a socket stale (default 300 ms). */
  readonly settleMs?: number;
  /** Told of each socket removed. */
  readonly onRemoved?: (socketPath: string) => void;
}

export class StaleSocketSweeper {
  private readonly own: ReadonlySet<string>;
  private readonly pollMs: number;
  private readonly settleMs: number;
  private readonly watchers: FSWatcher[] = [];
  private readonly checking = new Map<string, Promise<boolean>>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(private readonly options: StaleSocketSweeperOptions) {
    this.own = new Set(options.own.map((p) => path.resolve(p)));
    this.pollMs = options.pollMs ?? 5000;
    this.settleMs = options.settleMs ?? 300;
    for (const dir of new Set(options.dirs)) this.watchDir(dir);
    this.timer = setInterval(() => void this.sweep(), this.pollMs);
    this.timer.unref();
  }

  /** Starts watching; the first check runs at once. */
  static start(options: StaleSocketSweeperOptions): StaleSocketSweeper {
    const sweeper = new StaleSocketSweeper(options);
    void sweeper.sweep();
    return sweeper;
  }

  /** Checks every discord-ipc-N of every directory; resolves with the paths removed. */
  async sweep(): Promise<string[]> {
    const found = await Promise.all([...new Set(this.options.dirs)].map((dir) => this.entriesOf(dir)));
    const outcomes = await Promise.all(found.flat().map(async (socketPath) => ((await this.check(socketPath)) ? [socketPath] : [])));
    return outcomes.flat();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  private watchDir(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (typeof name === 'string' && SOCKET_NAME.test(name)) void this.check(path.join(dir, name));
      });
      // A directory that goes away (or a watch the system refuses later): the poll stays.
      watcher.on('error', () => watcher.close());
      this.watchers.push(watcher);
    } catch {
      // No watch (inotify limits, a file system without events): the poll covers it.
    }
  }

  private async entriesOf(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).filter((name) => SOCKET_NAME.test(name)).map((name) => path.join(dir, name));
    } catch {
      return [];
    }
  }

  /** One check per path at a time; true when it was removed. */
  private check(socketPath: string): Promise<boolean> {
    const resolved = path.resolve(socketPath);
    if (this.closed || this.own.has(resolved)) return Promise.resolve(false);
    const running = this.checking.get(resolved);
    if (running !== undefined) return running;
    const started = this.removeIfStale(resolved).finally(() => this.checking.delete(resolved));
    this.checking.set(resolved, started);
    return started;
  }

  private async removeIfStale(socketPath: string): Promise<boolean> {
    const first = await socketInode(socketPath);
    if (first === undefined || (await tryConnect(socketPath)) !== 'ECONNREFUSED') return false;
    await new Promise((resolve) => setTimeout(resolve, this.settleMs).unref());
    if (this.closed || (await socketInode(socketPath)) !== first || (await tryConnect(socketPath)) !== 'ECONNREFUSED') return false;
    if ((await socketInode(socketPath)) !== first) return false;
    try {
      await unlink(socketPath);
    } catch {
      return false;
    }
    this.options.onRemoved?.(socketPath);
    return true;
  }
}

/** The inode of a socket file at `p` (symlinks not followed); undefined for anything else. */
async function socketInode(p: string): Promise<number | undefined> {
  try {
    const stats = await lstat(p);
    return stats.isSocket() ? stats.ino : undefined;
  } catch {
    return undefined;
  }
}
