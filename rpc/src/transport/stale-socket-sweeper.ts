import { lstatSync, watch, type FSWatcher } from 'node:fs';
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
 * - a directory watcher (inotify on Linux) tells of every discord-ipc-N that appears or goes,
 *   and it is checked at once;
 * - a slow poll (every 5 s) checks again the foreign sockets known to exist (another
 *   Companion, arRPC, the desktop client), for a server that dies without its file changing
 *   (no event tells of it), and lists again every directory that cannot be watched.
 *
 * The poll is armed only while there is something to poll (issue 27 §4: an always-on app's
 * idle cost is its wake-ups): a host alone in watched directories sets no timer at all, and
 * wakes only when a directory changes. The first foreign socket seen arms it; the last one
 * gone (removed as stale, or unlinked by its server, which the watcher reports) disarms it.
 *
 * A socket is removed only when a connection to it is refused (ECONNREFUSED: no listener)
 * twice, a settle time apart, with the same inode throughout: a server between its bind() and
 * its listen(), or one that has just replaced the file, is not taken for dead. A socket that
 * accepts (a live server), that this user may not connect to, or that is not a socket is never
 * touched, nor are the host's own sockets. A check is one lstat and one connect() per entry.
 */

const SOCKET_NAME = /^discord-ipc-\d+$/;

export interface StaleSocketSweeperOptions {
  /** The directories the host listens in. */
  readonly dirs: readonly string[];
  /** The host's own socket paths: never checked. */
  readonly own: readonly string[];
  /** Between two checks of the foreign sockets and the unwatched directories (default 5,000 ms). */
  readonly pollMs?: number;
  /** Between the two refused connections that make a socket stale (default 300 ms). */
  readonly settleMs?: number;
  /** Told of each socket removed. */
  readonly onRemoved?: (socketPath: string) => void;
}

/** What a check found at a path: removed as stale, a socket still there, or no socket (gone, or not a socket). */
type Outcome = 'removed' | 'socket' | 'none';

export class StaleSocketSweeper {
  private readonly own: ReadonlySet<string>;
  private readonly dirs: readonly string[];
  private readonly pollMs: number;
  private readonly settleMs: number;
  private readonly watchers = new Map<string, FSWatcher>();
  /** Foreign discord-ipc-N sockets known to exist (resolved paths): what the poll checks. */
  private readonly foreign = new Set<string>();
  private readonly checking = new Map<string, Promise<Outcome>>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private closed = false;

  private constructor(private readonly options: StaleSocketSweeperOptions) {
    this.own = new Set(options.own.map((p) => path.resolve(p)));
    this.dirs = [...new Set(options.dirs.map((dir) => path.resolve(dir)))];
    this.pollMs = options.pollMs ?? 5000;
    this.settleMs = options.settleMs ?? 300;
    for (const dir of this.dirs) this.watchDir(dir);
    this.rearm();
  }

  /** Starts watching; the first check of every directory runs at once. */
  static start(options: StaleSocketSweeperOptions): StaleSocketSweeper {
    const sweeper = new StaleSocketSweeper(options);
    void sweeper.sweep();
    return sweeper;
  }

  /** Whether a poll is armed: only while foreign sockets exist or a directory is not watched. */
  get pollArmed(): boolean {
    return this.timer !== undefined;
  }

  /** Checks every discord-ipc-N of every directory; resolves with the paths removed. */
  async sweep(): Promise<string[]> {
    const found = (await Promise.all(this.dirs.map((dir) => entriesOf(dir)))).flat();
    return this.checkAll(found);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Arms the poll when there is something to poll, disarms it when there is not. */
  private rearm(): void {
    if (this.polling) return;
    const needed = !this.closed && (this.foreign.size > 0 || this.watchers.size < this.dirs.length);
    if (needed && this.timer === undefined) {
      this.timer = setTimeout(() => void this.poll(), this.pollMs);
      this.timer.unref();
    } else if (!needed && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** The known foreign sockets, and every entry of the directories no watcher covers. */
  private async poll(): Promise<void> {
    this.timer = undefined;
    this.polling = true;
    try {
      const unwatched = this.dirs.filter((dir) => !this.watchers.has(dir));
      const listed = (await Promise.all(unwatched.map((dir) => entriesOf(dir)))).flat();
      await this.checkAll([...this.foreign, ...listed]);
    } finally {
      this.polling = false;
      this.rearm();
    }
  }

  private async checkAll(paths: readonly string[]): Promise<string[]> {
    const unique = [...new Set(paths)];
    const outcomes = await Promise.all(unique.map((socketPath) => this.check(socketPath)));
    return unique.filter((_, i) => outcomes[i] === 'removed');
  }

  private watchDir(dir: string): void {
    let inode: number;
    let watcher: FSWatcher;
    try {
      inode = lstatSync(dir).ino;
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (typeof name !== 'string') return;
        if (SOCKET_NAME.test(name)) void this.check(path.join(dir, name));
        // The directory itself removed or replaced (inotify reports it under its own name): no
        // more events come from it, so the poll lists it instead.
        else if (name === path.basename(dir)) void this.unwatchIfReplaced(dir, inode);
      });
    } catch {
      // No watch (no such directory, inotify limits, a file system without events): the poll covers it.
      return;
    }
    // A watch the system gives up later: the poll stands in.
    watcher.on('error', () => this.unwatch(dir));
    this.watchers.set(dir, watcher);
  }

  private async unwatchIfReplaced(dir: string, inode: number): Promise<void> {
    const now = await lstat(dir).then(
      (stats) => stats.ino,
      () => undefined,
    );
    if (now !== inode) this.unwatch(dir);
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
    this.rearm();
  }

  /** One check per path at a time; what was found is remembered for the poll. */
  private check(socketPath: string): Promise<Outcome> {
    const resolved = path.resolve(socketPath);
    if (this.closed || this.own.has(resolved)) return Promise.resolve('none');
    const running = this.checking.get(resolved);
    if (running !== undefined) return running;
    const started = this.removeIfStale(resolved).then((outcome) => {
      this.checking.delete(resolved);
      this.remember(resolved, outcome);
      return outcome;
    });
    this.checking.set(resolved, started);
    return started;
  }

  private remember(socketPath: string, outcome: Outcome): void {
    if (outcome === 'socket' && !this.closed) this.foreign.add(socketPath);
    else this.foreign.delete(socketPath);
    this.rearm();
  }

  private async removeIfStale(socketPath: string): Promise<Outcome> {
    const first = await socketInode(socketPath);
    if (first === undefined) return 'none';
    if ((await tryConnect(socketPath)) !== 'ECONNREFUSED') return 'socket';
    await new Promise((resolve) => setTimeout(resolve, this.settleMs).unref());
    if (this.closed || (await socketInode(socketPath)) !== first || (await tryConnect(socketPath)) !== 'ECONNREFUSED') return present(socketPath);
    if ((await socketInode(socketPath)) !== first) return present(socketPath);
    try {
      await unlink(socketPath);
    } catch {
      return present(socketPath);
    }
    this.options.onRemoved?.(socketPath);
    return 'removed';
  }
}

/** Whether a socket is at `p` now (after a check that removed nothing). */
async function present(p: string): Promise<Outcome> {
  return (await socketInode(p)) === undefined ? 'none' : 'socket';
}

/** The discord-ipc-N paths in `dir` (none when it cannot be listed). */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => SOCKET_NAME.test(name)).map((name) => path.join(dir, name));
  } catch {
    return [];
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
