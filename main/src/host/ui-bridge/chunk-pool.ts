import { ringChunk } from './page-memory.js';

/**
 * Byte chunks the inspector's rings give back, for the next ring that needs one of the same
 * size (row-store.ts). Allocating a fresh Buffer for every 64 KiB of frames counted as external
 * memory to V8, which answered with a mark-compact about every second at 100 busy clients
 * (measured 2026-11-28, docs/performance.md "The inspector's rings on the hot path"). At most
 * `maxBytes` are kept here, zeroed (a forgotten connection's rows do not linger), on top of
 * what the rings count.
 *
 * Rings grow their chunks as they grow (2 KiB first, 64 KiB once busy), so the sizes given back
 * change over a connection's life. A full pool makes room for the size given now by dropping
 * chunks of other sizes, oldest size first: keeping the first sizes it was given left it full
 * of the 2-32 KiB chunks of the rings' first minutes, every 64 KiB chunk given later was dropped
 * and every one asked for was new (Node 24, 100 clients: 93% of takes missed, 14-17
 * mark-compacts in 5 s; docs/performance.md "Chunks of the wrong size"). New chunks are pages of
 * their own, outside the C library's heap (page-memory.ts).
 */
export class ChunkPool {
  private readonly free = new Map<number, Buffer[]>();
  private pooled = 0;

  constructor(readonly maxBytes = 1024 * 1024) {}

  /** What it holds now. */
  get bytes(): number {
    return this.pooled;
  }

  take(size: number): Buffer {
    const chunk = this.free.get(size)?.pop();
    if (chunk === undefined) return ringChunk(size);
    this.pooled -= size;
    return chunk;
  }

  give(chunk: Buffer): void {
    if (chunk.length > this.maxBytes) return;
    while (this.pooled + chunk.length > this.maxBytes) {
      if (!this.dropOtherSize(chunk.length)) return;
    }
    chunk.fill(0);
    let list = this.free.get(chunk.length);
    if (list === undefined) {
      list = [];
      this.free.set(chunk.length, list);
    }
    list.push(chunk);
    this.pooled += chunk.length;
  }

  /** Drops one kept chunk of a size other than `size` (the size first kept first); false when there is none. */
  private dropOtherSize(size: number): boolean {
    for (const [each, list] of this.free) {
      if (each === size) continue;
      const dropped = list.pop();
      if (list.length === 0) this.free.delete(each);
      if (dropped === undefined) continue;
      this.pooled -= each;
      return true;
    }
    return false;
  }
}
