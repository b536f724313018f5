import { FRAME_RING_SIZE } from '../../../../preload/src/contract.js';
import type { FrameTrace } from '../../../../rpc/src/index.js';
import type { FrameView } from '../../../../preload/src/contract.js';
import { ConnectionRing, type RingBounds } from './connection-ring.js';
import { EventEntry, FrameEntry, eventRecordView, eventView, field, frameView, keptJson, keptWire, type FrameLinter, type LogEntry } from './frame-entries.js';
import { RowKind, type StoredRow } from './row-store.js';
import { RingsBySize } from './rings-by-size.js';
import { ChunkPool } from './chunk-pool.js';
import { decodeRelayRow, RelayRowWriter } from './relay-row.js';
import type { RelayOutcome } from '../presence/relay-outcomes.js';

export { MAX_FRAME_PAYLOAD_CHARS, redactPayload, type FrameLinter, type LogEntry } from './frame-entries.js';
/** How many rows the host keeps over every connection, and a snapshot carries at most (the contract's limit). */
export { FRAME_RING_SIZE };

/** How much the host keeps of every connection's conversation (docs/qa-toolkit.md, "What the inspector keeps"). */
export interface FrameLogLimits extends RingBounds {
  /** Entries kept at most over every ring. */
  readonly maxTotalEntries: number;
  /** Bytes kept at most over every ring. */
  readonly maxTotalBytes: number;
  /** Closed connections whose rings are kept (the newest closed). */
  readonly closedKept: number;
  /** How long a closed connection's ring is kept (ms). */
  readonly closedForMs: number;
}

export const FRAME_LOG_LIMITS: FrameLogLimits = {
  head: 16,
  maxEntries: 2_000,
  maxBytes: 1024 * 1024,
  maxTotalEntries: FRAME_RING_SIZE,
  maxTotalBytes: 16 * 1024 * 1024,
  closedKept: 32,
  closedForMs: 15 * 60_000,
};

/** `new FrameLog(n)`: n entries per connection (a head of a quarter of it, at most 16). */
function limitsOf(limits: Partial<FrameLogLimits> | number): FrameLogLimits {
  if (typeof limits !== 'number') return { ...FRAME_LOG_LIMITS, ...limits };
  return { ...FRAME_LOG_LIMITS, maxEntries: limits, head: Math.min(FRAME_LOG_LIMITS.head, Math.floor(limits / 4)) };
}

/**
 * The inspector's rows: every connection's conversation from its first byte, numbered, in one
 * bounded ring per connection (ConnectionRing: its opening kept, then the newest entries), the
 * host's own rows (gateway dispatches) in a ring of their own. Memory is bounded per ring and
 * over all of them (FrameLogLimits), counted as what the rings hold (their byte chunks in full):
 * beyond the total, the ring with the most entries loses its oldest first (RingsBySize finds it
 * without a scan). A closed connection's ring stays for a while, the newest few of them.
 * Recording a frame after a connection's opening allocates nothing that outlives it (row-store.ts;
 * measured 2026-11-28, docs/performance.md "The inspector's rings on the hot path": 1.1-1.4 us of
 * CPU a frame before, with every frame's entry promoted to the old generation, 0.3-0.5 us after).
 */
export class FrameLog {
  readonly limits: FrameLogLimits;
  /** By connection, in the order their first entry came. */
  private readonly rings = new Map<string, ConnectionRing>();
  private readonly sizes = new RingsBySize<ConnectionRing>();
  /** Chunks given back by rings, for the next (at most 1 MiB, on top of the total bounds). */
  private readonly pool = new ChunkPool();
  private readonly relayRows = new RelayRowWriter();
  private totalEntries = 0;
  private totalBytes = 0;
  private seq = 0;

  constructor(
    limits: Partial<FrameLogLimits> | number = {},
    private readonly lint?: FrameLinter,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = limitsOf(limits);
  }

  /** The seq of the newest frame (0 before the first). */
  get lastSeq(): number {
    return this.seq;
  }

  /** What the rings hold now (entries and bytes over all, and how many connections). */
  get kept(): { readonly entries: number; readonly bytes: number; readonly connections: number } {
    return { entries: this.totalEntries, bytes: this.totalBytes, connections: this.rings.size };
  }

  /**
   * Keeps a frame. Its opening's frames are kept as objects (FrameEntry); the rest go off the
   * heap (ConnectionRing, row-store.ts) and the answer is a handle that views the row while it is kept.
   */
  record(trace: FrameTrace): LogEntry {
    this.seq += 1;
    const lintApp =
      this.lint !== undefined && trace.direction === 'in' && field(trace.payload, 'cmd') === 'SET_ACTIVITY' ? this.lint.applicationOf(trace.connectionId) : undefined;
    const { connectionId, direction, opcode, at } = trace;
    const ring = this.ringOf(connectionId);
    if (ring.inOpening) {
      const lint = lintApp === undefined || this.lint === undefined ? undefined : { linter: this.lint, applicationId: lintApp };
      return this.keepOpening(ring, new FrameEntry(this.seq, { connectionId, direction, opcode, at }, keptJson(trace.payload, trace.json), lint));
    }
    return this.keepRow(ring, at, direction === 'in' ? RowKind.In : RowKind.Out, opcode, lintApp, keptWire(trace.payload, trace.json));
  }

  /** A host event (`kind` and its fields, as a recording's record) at `at` (epoch ms). */
  recordEvent(record: Readonly<Record<string, unknown>>, at: number): LogEntry {
    this.seq += 1;
    const event = new EventEntry(this.seq, at, record);
    const ring = this.ringOf(event.connectionId);
    const entry = ring.inOpening ? this.keepOpening(ring, event) : this.keepRow(ring, at, RowKind.Event, 0, undefined, event.keptJson);
    if (record['kind'] === 'close') this.closed(entry.connectionId);
    return entry;
  }

  /**
   * A presence relay outcome (the host event `{kind: 'relay', connection, outcome}`): after the
   * connection's opening kept in a few bytes (relay-row.ts), it is on the hot path.
   */
  recordRelay(outcome: RelayOutcome, at: number): LogEntry {
    const ring = this.rings.get(outcome.connection_id);
    const encoded = ring === undefined || ring.inOpening ? undefined : this.relayRows.encode(outcome);
    if (ring === undefined || encoded === undefined) return this.recordEvent({ kind: 'relay', connection: outcome.connection_id, outcome }, at);
    this.seq += 1;
    return this.keepRow(ring, at, RowKind.Relay, 0, undefined, encoded);
  }

  private ringOf(connectionId: string): ConnectionRing {
    let ring = this.rings.get(connectionId);
    if (ring === undefined) {
      ring = new ConnectionRing(connectionId, this.limits, (row) => this.viewOf(ring as ConnectionRing, row), this.pool);
      this.rings.set(connectionId, ring);
    }
    return ring;
  }

  private keepOpening<E extends LogEntry>(ring: ConnectionRing, entry: E): E {
    const { entries, bytes } = ring;
    ring.addOpening(entry);
    return this.counted(ring, entries, bytes, entry);
  }

  private keepRow(ring: ConnectionRing, at: number, kind: RowKind, opcode: number, lintApp: string | undefined, json: Uint8Array | string): LogEntry {
    const { entries, bytes } = ring;
    ring.addRow(this.seq, at, kind, opcode, lintApp, json);
    return this.counted(ring, entries, bytes, new KeptRow(this.seq, ring));
  }

  private counted<E extends LogEntry>(ring: ConnectionRing, entries: number, bytes: number, entry: E): E {
    this.changed(ring, entries, bytes);
    this.withinTotal();
    return entry;
  }

  /** A row kept off the heap, as the inspector shows it. */
  private viewOf(ring: ConnectionRing, row: StoredRow): FrameView {
    if (row.kind === RowKind.Relay) return eventRecordView(row.seq, row.at, { kind: 'relay', connection: ring.connectionId, outcome: decodeRelayRow(row.data, ring.connectionId) });
    const json = row.data.toString('utf8');
    if (row.kind === RowKind.Event) return eventView(row.seq, row.at, json);
    const trace = { connectionId: ring.connectionId, direction: row.kind === RowKind.In ? ('in' as const) : ('out' as const), opcode: row.opcode, at: row.at };
    const lint = row.lint < 0 || this.lint === undefined ? undefined : { linter: this.lint, applicationId: ring.lintApp(row.lint) };
    return frameView(row.seq, trace, json, lint);
  }

  /** Beyond the total bounds, the ring with the most entries loses its oldest (after its head). */
  private withinTotal(): void {
    while (this.totalEntries > this.limits.maxTotalEntries || this.totalBytes > this.limits.maxTotalBytes) {
      const biggest = this.sizes.biggest();
      if (biggest === undefined) return;
      const { entries, bytes } = biggest;
      if (!biggest.dropOldest()) {
        if (!this.forgetOldestClosed()) return;
        continue;
      }
      this.changed(biggest, entries, bytes);
    }
  }

  /** A ring held `entries` and `bytes`, and now holds what it says. */
  private changed(ring: ConnectionRing, entries: number, bytes: number): void {
    this.totalEntries += ring.entries - entries;
    this.totalBytes += ring.bytes - bytes;
    this.sizes.move(ring, entries, ring.entries);
  }

  /** A connection closed: its ring is kept for closedForMs, and only the newest closedKept closed rings are. */
  private closed(connectionId: string): void {
    const ring = this.rings.get(connectionId);
    if (ring !== undefined) ring.closedAt = this.now();
    this.forgetExpired();
    let closed = 0;
    for (const each of this.rings.values()) if (each.closedAt !== undefined) closed += 1;
    while (closed > this.limits.closedKept && this.forgetOldestClosed()) closed -= 1;
  }

  /** Forgets a connection's ring at once (a probe: connected and left without a byte, its `open` row noise). */
  forgetConnection(connectionId: string): void {
    const ring = this.rings.get(connectionId);
    if (ring !== undefined) this.forget(ring);
  }

  private forgetExpired(): void {
    const before = this.now() - this.limits.closedForMs;
    for (const ring of [...this.rings.values()]) if (ring.closedAt !== undefined && ring.closedAt < before) this.forget(ring);
  }

  private forgetOldestClosed(): boolean {
    let oldest: ConnectionRing | undefined;
    for (const ring of this.rings.values()) if (ring.closedAt !== undefined && (oldest?.closedAt === undefined || ring.closedAt < oldest.closedAt)) oldest = ring;
    if (oldest === undefined) return false;
    this.forget(oldest);
    return true;
  }

  private forget(ring: ConnectionRing): void {
    this.rings.delete(ring.connectionId);
    this.sizes.move(ring, ring.entries, 0);
    this.totalEntries -= ring.entries;
    this.totalBytes -= ring.bytes;
  }

  /** What every ring holds off the heap (tests look for secrets in it, and count it). */
  heldBytes(): readonly Buffer[] {
    return [...this.rings.values()].flatMap((ring) => ring.heldBytes());
  }

  /** Every row kept, oldest first. */
  list(): FrameView[] {
    return this.since(0);
  }

  /**
   * The rows kept whose seq is above `seq`, in seq order. A connection's first row after
   * rows dropped from its ring (that a reader up to `seq` never got) carries `dropped_before`.
   */
  since(seq: number): FrameView[] {
    this.forgetExpired();
    const out: FrameView[] = [];
    for (const ring of this.rings.values()) for (const view of ring.viewsSince(seq)) out.push(view);
    return out.sort((a, b) => a.seq - b.seq);
  }
}

/** A handle on a row kept off the heap: its view while the row is kept (a UI asks soon after). */
class KeptRow implements LogEntry {
  constructor(
    readonly seq: number,
    private readonly ring: ConnectionRing,
  ) {}

  get connectionId(): string {
    return this.ring.connectionId;
  }

  get bytes(): number {
    return 0;
  }

  viewIfKept(): FrameView | undefined {
    return this.ring.viewOf(this.seq);
  }

  view(): FrameView {
    const view = this.viewIfKept();
    if (view === undefined) throw new Error(`frame ${this.seq} is no longer kept`);
    return view;
  }
}
