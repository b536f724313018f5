/**
 * A connection's rows after its opening, kept off the JS heap: each row's fields in typed arrays
 * (a circular list of slots), its kept JSON copied into byte chunks (Buffers). Recording a row
 * allocates nothing that lives on the heap, so nothing per frame is promoted to the old
 * generation; a chunk is freed when its last row goes (rows leave oldest first).
 *
 * What it holds is what it counts (`bytes`): every chunk's full size (the newest one's unused
 * tail and the oldest one's rows already dropped included) and every slot's fields, so a
 * chunk pinned by one old row is paid for in the ring's byte bounds. Chunks grow with the ring
 * (a quarter of its data, 2 KiB to 64 KiB, at most an eighth of the ring's bound): the slack is
 * at most two chunks.
 *
 * Measured 2026-11-28 (docs/performance.md, "The inspector's rings on the hot path").
 */
import type { ChunkPool } from './chunk-pool.js';

/** A row's kind: a frame in, a frame out, a host event (JSON), a presence relay outcome (relay-row.ts). */
export const RowKind = { In: 0, Out: 1, Event: 2, Relay: 3 } as const;
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

/** What one slot's fields cost (seq and at as doubles, opcode, lint, chunk, offset, length, kind). */
export const SLOT_BYTES = 8 + 8 + 4 + 4 + 4 + 4 + 4 + 1;
const MIN_SLOTS = 16;
const MIN_CHUNK = 2 * 1024;
const MAX_CHUNK = 64 * 1024;

function pow2AtLeast(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

/** A row as read back: its fields and its kept bytes (JSON, or a relay row's encoding). */
export interface StoredRow {
  readonly seq: number;
  readonly at: number;
  readonly kind: RowKind;
  readonly opcode: number;
  /** Index in the ring's lint applications, -1 when the row is not linted. */
  readonly lint: number;
  /** A view of the chunk that holds them: valid while the row is kept. */
  readonly data: Buffer;
}

export class RowStore {
  /** No slots until the first row (most connections never get past their opening). */
  private slots = 0;
  private seqs = new Float64Array(0);
  private ats = new Float64Array(0);
  private opcodes = new Int32Array(0);
  private lints = new Int32Array(0);
  private chunkOf = new Uint32Array(0);
  private offsets = new Uint32Array(0);
  private lengths = new Uint32Array(0);
  private kinds = new Uint8Array(0);
  /** The oldest row's slot, and how many rows. */
  private first = 0;
  private count = 0;
  /** Chunks in order; chunks[i] is chunk number firstChunk + i. */
  private chunks: Buffer[] = [];
  private firstChunk = 0;
  private writeAt = 0;
  private chunkBytes = 0;
  private dataBytes = 0;
  private readonly maxChunk: number;

  constructor(
    maxBytes: number,
    private readonly pool: ChunkPool,
  ) {
    this.maxChunk = Math.max(256, Math.min(MAX_CHUNK, pow2AtLeast(Math.floor(maxBytes / 8) + 1) / 2));
  }

  get rows(): number {
    return this.count;
  }

  /** What it holds: its chunks in full and its slots. */
  get bytes(): number {
    return this.chunkBytes + this.slots * SLOT_BYTES;
  }

  /** The oldest row's seq (0 when empty). */
  get oldestSeq(): number {
    return this.count === 0 ? 0 : (this.seqs[this.first] as number);
  }

  /** The newest row's seq (0 when empty). */
  get newestSeq(): number {
    return this.count === 0 ? 0 : (this.seqs[(this.first + this.count - 1) % this.slots] as number);
  }

  push(seq: number, at: number, kind: RowKind, opcode: number, lint: number, json: Uint8Array | string): void {
    if (this.count === this.slots) this.resizeSlots(Math.max(MIN_SLOTS, this.slots * 2));
    const length = typeof json === 'string' ? Buffer.byteLength(json) : json.byteLength;
    const chunk = this.room(length);
    const buffer = this.chunks[chunk - this.firstChunk] as Buffer;
    if (typeof json === 'string') buffer.write(json, this.writeAt, 'utf8');
    else buffer.set(json, this.writeAt);
    const slot = (this.first + this.count) % this.slots;
    this.seqs[slot] = seq;
    this.ats[slot] = at;
    this.kinds[slot] = kind;
    this.opcodes[slot] = opcode;
    this.lints[slot] = lint;
    this.chunkOf[slot] = chunk;
    this.offsets[slot] = this.writeAt;
    this.lengths[slot] = length;
    this.writeAt += length;
    this.dataBytes += length;
    this.count += 1;
  }

  /** The chunk number the next `length` bytes go in (a new chunk when the newest is full). */
  private room(length: number): number {
    const newest = this.chunks.at(-1);
    if (newest !== undefined && this.writeAt + length <= newest.length) return this.firstChunk + this.chunks.length - 1;
    const size = Math.max(length, Math.min(this.maxChunk, Math.max(MIN_CHUNK, pow2AtLeast(this.dataBytes / 4))));
    this.chunks.push(this.pool.take(size));
    this.chunkBytes += size;
    this.writeAt = 0;
    return this.firstChunk + this.chunks.length - 1;
  }

  /** Drops the oldest row (its chunk goes with it when it was the chunk's last); answers its seq. */
  dropOldest(): number {
    const slot = this.first;
    const seq = this.seqs[slot] as number;
    this.dataBytes -= this.lengths[slot] as number;
    this.first = (slot + 1) % this.slots;
    this.count -= 1;
    const until = this.count === 0 ? this.firstChunk + this.chunks.length : (this.chunkOf[this.first] as number);
    while (this.firstChunk < until) this.releaseOldestChunk();
    if (this.count * 4 < this.slots && this.slots > MIN_SLOTS) this.resizeSlots(this.slots / 2);
    return seq;
  }

  private releaseOldestChunk(): void {
    const chunk = this.chunks.shift();
    if (chunk !== undefined) {
      this.chunkBytes -= chunk.length;
      this.pool.give(chunk);
    }
    this.firstChunk += 1;
    if (this.chunks.length === 0) this.writeAt = 0;
  }

  private resizeSlots(slots: number): void {
    this.seqs = this.reordered(this.seqs, new Float64Array(slots));
    this.ats = this.reordered(this.ats, new Float64Array(slots));
    this.opcodes = this.reordered(this.opcodes, new Int32Array(slots));
    this.lints = this.reordered(this.lints, new Int32Array(slots));
    this.chunkOf = this.reordered(this.chunkOf, new Uint32Array(slots));
    this.offsets = this.reordered(this.offsets, new Uint32Array(slots));
    this.lengths = this.reordered(this.lengths, new Uint32Array(slots));
    this.kinds = this.reordered(this.kinds, new Uint8Array(slots));
    this.first = 0;
    this.slots = slots;
  }

  /** `to` with `from`'s rows, oldest first. */
  private reordered<A extends Float64Array | Int32Array | Uint32Array | Uint8Array>(from: A, to: A): A {
    for (let i = 0; i < this.count; i++) to[i] = from[(this.first + i) % this.slots] as number;
    return to;
  }

  /** The rows whose seq is above `seq`, oldest first, read back. */
  *since(seq: number): Generator<StoredRow> {
    for (let i = this.indexAbove(seq); i < this.count; i++) yield this.read((this.first + i) % this.slots);
  }

  /** The row numbered `seq`, while it is kept. */
  get(seq: number): StoredRow | undefined {
    const i = this.indexAbove(seq - 1);
    if (i >= this.count || this.seqs[(this.first + i) % this.slots] !== seq) return undefined;
    return this.read((this.first + i) % this.slots);
  }

  /** The position (0 = oldest) of the first row whose seq is above `seq` (seqs rise). */
  private indexAbove(seq: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.seqs[(this.first + mid) % this.slots] as number) > seq) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  private read(slot: number): StoredRow {
    const offset = this.offsets[slot] as number;
    const chunk = this.chunks[(this.chunkOf[slot] as number) - this.firstChunk] as Buffer;
    return {
      seq: this.seqs[slot] as number,
      at: this.ats[slot] as number,
      kind: this.kinds[slot] as RowKind,
      opcode: this.opcodes[slot] as number,
      lint: this.lints[slot] as number,
      data: chunk.subarray(offset, offset + (this.lengths[slot] as number)),
    };
  }

  /** The bytes it holds (a test reads them: no secret may be among them). */
  heldBytes(): readonly Buffer[] {
    return this.chunks;
  }
}
