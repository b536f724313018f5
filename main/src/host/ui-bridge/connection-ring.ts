import type { FrameView } from '../../../../preload/src/contract.js';
import type { ChunkPool } from './chunk-pool.js';
import type { SizeLinks } from './rings-by-size.js';
import { RowStore, type RowKind, type StoredRow } from './row-store.js';

/** What a ring holds: a numbered row whose view is made when first asked for, and what it costs to keep. */
export interface RingEntry {
  readonly seq: number;
  /** About what keeping it costs (its stored JSON's length). */
  readonly bytes: number;
  view(): FrameView;
}

/** A connection's ring's bounds: its opening (kept whatever follows), and the newest entries by count and bytes. */
export interface RingBounds {
  /** The first entries of a connection (open, HANDSHAKE, READY, the first commands), never dropped while the ring is kept. */
  readonly head: number;
  /** Entries kept at most, the head included. */
  readonly maxEntries: number;
  /** Bytes kept at most, the head included. */
  readonly maxBytes: number;
}

/** How a row kept off the heap is shown (FrameLog knows the row's connection and its lints). */
export type RowViewer = (row: StoredRow) => FrameView;

/**
 * One connection's conversation as the host keeps it: its first `head` entries (objects), then
 * the newest ones off the heap (RowStore: oldest dropped first, counted in `dropped`). The
 * inspector shows "N older frames dropped" where they were, between the head and the rest.
 */
export class ConnectionRing implements SizeLinks<ConnectionRing> {
  /** Its neighbours among the rings of its size (RingsBySize). */
  sizePrev: ConnectionRing | undefined;
  sizeNext: ConnectionRing | undefined;
  private readonly opening: RingEntry[] = [];
  private openingBytes = 0;
  private readonly rest: RowStore;
  /** Entries dropped from this ring since it began, and the newest one's seq. */
  private droppedCount = 0;
  private lastDroppedSeq = 0;
  /** The applications its linted rows name (a row keeps an index). */
  private readonly lintApps: string[] = [];
  /** When the connection closed (epoch ms), or undefined while it is open. */
  closedAt: number | undefined;

  constructor(
    readonly connectionId: string,
    private readonly bounds: RingBounds,
    private readonly viewer: RowViewer,
    pool: ChunkPool,
  ) {
    this.rest = new RowStore(bounds.maxBytes, pool);
  }

  get entries(): number {
    return this.opening.length + this.rest.rows;
  }

  /** What it holds: its opening's entries, and the rest's chunks and slots in full. */
  get bytes(): number {
    return this.openingBytes + this.rest.bytes;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** Whether the next entry is part of its opening (kept as an object). */
  get inOpening(): boolean {
    return this.opening.length < this.bounds.head;
  }

  /** Adds an entry of its opening. */
  addOpening(entry: RingEntry): void {
    this.opening.push(entry);
    this.openingBytes += entry.bytes;
  }

  /** Adds a row after the opening and drops what no longer fits (the oldest first). */
  addRow(seq: number, at: number, kind: RowKind, opcode: number, lintApp: string | undefined, json: Uint8Array | string): void {
    this.rest.push(seq, at, kind, opcode, lintApp === undefined ? -1 : this.lintIndex(lintApp), json);
    while (this.rest.rows > 1 && (this.entries > this.bounds.maxEntries || this.bytes > this.bounds.maxBytes)) this.dropOldest();
  }

  private lintIndex(applicationId: string): number {
    const index = this.lintApps.lastIndexOf(applicationId);
    if (index >= 0) return index;
    this.lintApps.push(applicationId);
    return this.lintApps.length - 1;
  }

  /** The application a linted row named. */
  lintApp(index: number): string {
    return this.lintApps[index] ?? '';
  }

  /** Drops the oldest entry after the head (none when none is left); answers whether it did. */
  dropOldest(): boolean {
    if (this.rest.rows === 0) return false;
    this.lastDroppedSeq = this.rest.dropOldest();
    this.droppedCount += 1;
    return true;
  }

  /** The view of its row numbered `seq`, while it is kept. */
  viewOf(seq: number): FrameView | undefined {
    for (const entry of this.opening) if (entry.seq === seq) return entry.view();
    const row = this.rest.get(seq);
    return row === undefined ? undefined : this.viewer(row);
  }

  /**
   * The views of its entries above `seq`, oldest first. When entries were dropped that a reader
   * who has seen up to `seq` never got, the first entry after the gap says how many
   * (`dropped_before`): the inspector shows the marker there.
   */
  viewsSince(seq: number): FrameView[] {
    const out: FrameView[] = [];
    for (const entry of this.opening) if (entry.seq > seq) out.push(entry.view());
    const unseenDrops = this.droppedCount > 0 && this.lastDroppedSeq > seq;
    const oldest = this.rest.oldestSeq;
    for (const row of this.rest.since(seq)) {
      const view = this.viewer(row);
      out.push(row.seq === oldest && unseenDrops ? { ...view, dropped_before: this.droppedCount } : view);
    }
    return out;
  }

  /** The bytes its rows after the opening hold (tests look for secrets in them). */
  heldBytes(): readonly Buffer[] {
    return this.rest.heldBytes();
  }
}
