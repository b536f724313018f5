import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import { canonicalAddress } from './tcp-peer-user.js';

/**
 * Which process holds the other end of a local socket. Node's sockets do not say (no
 * SO_PEERCRED, LOCAL_PEERPID or GetNamedPipeClientProcessId), and on Linux the link between
 * the two ends of a Unix socket is only in the kernel's socket-diagnostics netlink interface,
 * which Node cannot open either. `ss` (iproute2) reads it: one run lists every socket of the
 * machine with its peer and its owning processes, so one run answers any number of lookups.
 * It costs a process start and a walk of /proc (measured 2026-11-28 with `node` and 2,000
 * open sockets on a 2-core machine: 36-50 ms; 10 ms with a dozen), so the RPC server only
 * asks while it is crowded (see PeerCap).
 */
export interface PeerProcessFinder {
  /** The peer's process id of each socket that was found; sockets not found are left out. */
  find(sockets: readonly PeerSocket[]): Promise<ReadonlyMap<PeerSocket, number>>;
  /** False once it is known that this system cannot tell (no `ss`, not Linux). */
  readonly supported: boolean;
}

/** What a lookup needs of one connection's socket. */
export type PeerSocket =
  /** An accepted Unix socket: its file descriptor in this process. */
  | { readonly kind: 'unix'; readonly fd: number }
  /** A loopback TCP connection: the peer's end. */
  | { readonly kind: 'tcp'; readonly address: string; readonly port: number };

/** One established socket of a socket table: its ends and the first process holding it. */
export interface SocketRow {
  readonly kind: 'unix' | 'tcp';
  /** Unix: the peer's inode. TCP: the local end, `address:port` (address canonical). */
  readonly key: string;
  readonly pid: number;
}

/**
 * The rows of `ss -xtpnH` output that name a process. A Unix row ends `<local inode> <peer
 * address> <peer inode> users:((...,pid=N,...))`, and is keyed by its peer's inode (the row of
 * the process at the other end of our socket names our inode as its peer). A TCP row is
 * `tcp <state> <recv-q> <send-q> <local> <peer> users:(...)`, keyed by its local end. A local
 * path with spaces is harmless: only the fields after it are read, from the end.
 */
export function parseSocketTable(text: string): SocketRow[] {
  const rows: SocketRow[] = [];
  for (const line of text.split('\n')) {
    const users = USERS.exec(line);
    if (users === null) continue;
    const pid = Number(PID.exec(users[1] ?? '')?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid)) continue;
    const fields = line.slice(0, users.index).trim().split(/\s+/);
    const netid = fields[0];
    if (netid === 'u_str' || netid === 'u_seq') {
      const peerInode = fields[fields.length - 1] ?? '';
      if (/^\d+$/.test(peerInode) && peerInode !== '0') rows.push({ kind: 'unix', key: peerInode, pid });
    } else if (netid === 'tcp' && fields.length >= 6) {
      const local = endpointKey(fields[4] ?? '');
      if (local !== undefined) rows.push({ kind: 'tcp', key: local, pid });
    }
  }
  return rows;
}

const USERS = /users:\(\((.*)\)\)\s*$/;
const PID = /pid=(\d+)/;

/** `address:port` with a canonical address, from ss's `127.0.0.1:5000` or `[::1]:5000`. */
export function endpointKey(text: string): string | undefined {
  const match = /^\[?([^\]]*?)\]?:(\d+)$/.exec(text);
  if (match === null) return undefined;
  return `${canonicalAddress(match[1] ?? '')}:${match[2] ?? ''}`;
}

export interface SsPeerProcessFinderOptions {
  readonly platform?: NodeJS.Platform;
  /**
   * The commands tried in turn until one exists (default `ss` from PATH, then its usual places:
   * a desktop session's PATH may lack the sbin directories); tests point it elsewhere.
   */
  readonly commands?: readonly string[];
  /** Where this process's descriptors are listed (default /proc/self/fd). */
  readonly fdDirectory?: string;
}

/**
 * PeerProcessFinder over `ss -xtpnH` (Linux). Lookups asked while a run is under way wait for
 * the next run (the sockets may be newer than it), so a burst of lookups costs two runs. A
 * system without `ss` (or not Linux) is unsupported for good after the first try, and so is
 * one whose `ss` names no process at all (our own accepted sockets are always in the table
 * when a lookup runs, so an empty one means it cannot read processes, e.g. /proc mounted with
 * hidepid): a flood then costs no further runs.
 */
export class SsPeerProcessFinder implements PeerProcessFinder {
  private waiting: { readonly sockets: readonly PeerSocket[]; readonly resolve: (found: ReadonlyMap<PeerSocket, number>) => void }[] = [];
  private running = false;
  private usable: boolean;
  private commands: readonly string[];
  private readonly fdDirectory: string;

  constructor(options: SsPeerProcessFinderOptions = {}) {
    this.usable = (options.platform ?? process.platform) === 'linux';
    this.commands = options.commands ?? ['ss', '/usr/sbin/ss', '/sbin/ss', '/usr/bin/ss'];
    this.fdDirectory = options.fdDirectory ?? '/proc/self/fd';
  }

  get supported(): boolean {
    return this.usable;
  }

  find(sockets: readonly PeerSocket[]): Promise<ReadonlyMap<PeerSocket, number>> {
    if (!this.usable || sockets.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve) => {
      this.waiting.push({ sockets, resolve });
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      const found = await this.lookUp(batch.flatMap((entry) => entry.sockets));
      for (const entry of batch) entry.resolve(found);
    }
    this.running = false;
  }

  private async lookUp(sockets: readonly PeerSocket[]): Promise<Map<PeerSocket, number>> {
    // The inodes first: a socket closed meanwhile is simply not found.
    const inodes = new Map<PeerSocket, string>();
    for (const socket of sockets) {
      if (socket.kind !== 'unix') continue;
      const inode = await this.inodeOf(socket.fd);
      if (inode !== undefined) inodes.set(socket, inode);
    }
    const table = await this.table();
    const found = new Map<PeerSocket, number>();
    if (table === undefined) return found;
    if (table.length === 0) this.usable = false;
    const unix = new Map<string, number>();
    const tcp = new Map<string, number>();
    for (const row of table) (row.kind === 'unix' ? unix : tcp).set(row.key, row.pid);
    for (const socket of sockets) {
      const pid = socket.kind === 'unix' ? unix.get(inodes.get(socket) ?? '') : tcp.get(`${canonicalAddress(socket.address)}:${socket.port}`);
      if (pid !== undefined) found.set(socket, pid);
    }
    return found;
  }

  private async inodeOf(fd: number): Promise<string | undefined> {
    try {
      return /^socket:\[(\d+)\]$/.exec(await readlink(`${this.fdDirectory}/${fd}`))?.[1];
    } catch {
      return undefined;
    }
  }

  /** The table from the first command that exists; undefined when none does or it failed. */
  private async table(): Promise<SocketRow[] | undefined> {
    while (this.commands.length > 0) {
      const outcome = await run(this.commands[0] as string);
      if (outcome !== 'missing') return outcome === 'failed' ? undefined : parseSocketTable(outcome);
      this.commands = this.commands.slice(1);
    }
    this.usable = false;
    return undefined;
  }
}

/** `command -xtpnH`'s output; 'missing' when there is no such command. */
function run(command: string): Promise<string | 'missing' | 'failed'> {
  return new Promise((resolve) => {
    execFile(command, ['-xtpnH'], { timeout: 5000, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
      if (error === null) resolve(stdout);
      else resolve((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'failed');
    });
  });
}
