import type { ConnectionTransport } from '../transport/connection-transport.js';
import type { PeerProcessFinder, PeerSocket } from '../transport/peer-process.js';

/**
 * Open connections one program may hold (ours: the real client publishes no such limit). A
 * game needs one; a few tools (an overlay, a bot bridge) a handful each.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_PEER = 64;

/**
 * Width of the remote port ranges that stand for a WebSocket peer whose process cannot be
 * told: the ports a program's successive connections get are close together, but ports of
 * different programs that connect at the same time interleave, so this is a fallback only.
 */
export const WEBSOCKET_PORT_RANGE = 256;

/** Who a connection's peer is: a process, a WebSocket port range, or null (cannot be told). */
export type PeerKey = string | null;

interface Entry {
  readonly socket: PeerSocket | null;
  /** undefined: not looked up yet (the server was not crowded when it came). */
  key: PeerKey | undefined;
}

/**
 * The per-peer connection cap. A peer is the process at the other end where the system can
 * tell it (see PeerProcessFinder), else a WebSocket's remote port range, else nobody (a Unix
 * socket or pipe where the process cannot be told: only the total cap applies).
 *
 * Rules:
 * - A peer cannot hold more than `max` connections while fewer than `max` are open in all,
 *   so peers are only looked up once `max` are open (or being admitted): a machine with a few
 *   games never pays for a lookup.
 * - A lookup covers the new connection and every open one not yet looked up, in one run.
 * - A connection is admitted when its peer holds fewer than `max` open connections; a
 *   connection whose peer is null is always admitted (up to the total cap).
 */
export class PeerCap {
  private readonly entries = new Map<string, Entry>();
  private readonly counts = new Map<string, number>();

  constructor(
    readonly max: number,
    private readonly finder: PeerProcessFinder | null,
  ) {}

  /** What a lookup of `io`'s peer would use; null when nothing can tell it. */
  socketOf(io: ConnectionTransport): PeerSocket | null {
    if (io.kind === 'ipc') return io.fd === undefined ? null : { kind: 'unix', fd: io.fd };
    const { address, port } = io.remote;
    return address === null || port === null ? null : { kind: 'tcp', address, port };
  }

  /** Whether a connection arriving while `open` are open (or being admitted) must be looked up first. */
  needsLookup(open: number): boolean {
    return this.finder !== null && this.finder.supported && open >= this.max;
  }

  /** The key known without a lookup: the port range when the process cannot be told, else not yet. */
  immediateKey(io: ConnectionTransport): PeerKey | undefined {
    if (this.finder !== null && this.finder.supported) return undefined;
    return fallbackKey(io);
  }

  /** Looks up `io`'s peer together with every open connection's not yet looked up; returns `io`'s key. */
  async identify(io: ConnectionTransport, socket: PeerSocket | null): Promise<PeerKey> {
    const unknown = [...this.entries.values()].filter((entry) => entry.key === undefined);
    const sockets = unknown.flatMap((entry) => (entry.socket === null ? [] : [entry.socket]));
    if (socket !== null) sockets.push(socket);
    const found = this.finder === null ? new Map<PeerSocket, number>() : await this.finder.find(sockets);
    for (const entry of unknown) {
      // Still open, and not looked up by a lookup that finished meanwhile.
      if (entry.key !== undefined) continue;
      const pid = entry.socket === null ? undefined : found.get(entry.socket);
      this.setKey(entry, pid === undefined ? null : processKey(pid));
    }
    const pid = socket === null ? undefined : found.get(socket);
    return pid === undefined ? fallbackKey(io) : processKey(pid);
  }

  /** Whether a connection of this peer may be admitted now. */
  admits(key: PeerKey | undefined): boolean {
    if (key === null || key === undefined) return true;
    return (this.counts.get(key) ?? 0) < this.max;
  }

  add(connectionId: string, socket: PeerSocket | null, key: PeerKey | undefined): void {
    const entry: Entry = { socket, key: undefined };
    this.entries.set(connectionId, entry);
    if (key !== undefined) this.setKey(entry, key);
  }

  remove(connectionId: string): void {
    const entry = this.entries.get(connectionId);
    if (entry === undefined) return;
    this.entries.delete(connectionId);
    if (entry.key === null || entry.key === undefined) return;
    const left = (this.counts.get(entry.key) ?? 1) - 1;
    if (left > 0) this.counts.set(entry.key, left);
    else this.counts.delete(entry.key);
  }

  /** The peer of an open connection: its key, or undefined while it has not been looked up. */
  keyOf(connectionId: string): PeerKey | undefined {
    return this.entries.get(connectionId)?.key;
  }

  private setKey(entry: Entry, key: PeerKey): void {
    entry.key = key;
    if (key !== null) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

function processKey(pid: number): string {
  return `process ${pid}`;
}

/** A WebSocket's remote port range; null on IPC (a socket or pipe has no such thing). */
function fallbackKey(io: ConnectionTransport): PeerKey {
  if (io.kind !== 'websocket' || io.remote.address === null || io.remote.port === null) return null;
  return `ports ${io.remote.address} ${Math.floor(io.remote.port / WEBSOCKET_PORT_RANGE) * WEBSOCKET_PORT_RANGE}`;
}
