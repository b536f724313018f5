import type { FrameView } from '../../../../preload/src/contract.js';

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

/**
 * One connection's conversation as the host keeps it: its first `head` entries, then the
 * newest ones (a ring: the oldest after the head go first, counted in `dropped`). The
 * inspector shows "N older frames dropped" where they were, between the head and the rest.
 */
export class ConnectionRing {
  private readonly opening: RingEntry[] = [];
  /** The entries after the head, oldest first, from `start` on (shifted in bulk, not one by one). */
  private rest: (RingEntry | undefined)[] = [];
  private start = 0;
  private keptBytes = 0;
  /** Entries dropped from this ring since it began, and the newest one's seq. */
  private droppedCount = 0;
  private lastDroppedSeq = 0;
  /** When the connection closed (epoch ms), or undefined while it is open. */
  closedAt: number | undefined;

  constructor(
    readonly connectionId: string,
    private readonly bounds: RingBounds,
  ) {}

  get entries(): number {
    return this.opening.length + this.rest.length - this.start;
  }

  get bytes(): number {
    return this.keptBytes;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** Adds an entry and drops what no longer fits; answers the entries and bytes dropped. */
  add(entry: RingEntry): { readonly entries: number; readonly bytes: number } {
    this.keptBytes += entry.bytes;
    if (this.opening.length < this.bounds.head) {
      this.opening.push(entry);
      return { entries: 0, bytes: 0 };
    }
    this.rest.push(entry);
    let entries = 0;
    let bytes = 0;
    while (this.rest.length - this.start > 1 && (this.entries > this.bounds.maxEntries || this.keptBytes > this.bounds.maxBytes)) {
      bytes += this.dropOldest();
      entries += 1;
    }
    return { entries, bytes };
  }

  /** Drops the oldest entry after the head (none when only one is left); answers its bytes. */
  dropOldest(): number {
    if (this.rest.length - this.start === 0) return 0;
    const entry = this.rest[this.start] as RingEntry;
    this.rest[this.start] = undefined;
    this.start += 1;
    if (this.start > 1024 && this.start * 2 > this.rest.length) {
      this.rest = this.rest.slice(this.start);
      this.start = 0;
    }
    this.keptBytes -= entry.bytes;
    this.droppedCount += 1;
    this.lastDroppedSeq = entry.seq;
    return entry.bytes;
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
    for (let i = this.start; i < this.rest.length; i++) {
      const entry = this.rest[i] as RingEntry;
      if (entry.seq <= seq) continue;
      out.push(i === this.start && unseenDrops ? { ...entry.view(), dropped_before: this.droppedCount } : entry.view());
    }
    return out;
  }
}
