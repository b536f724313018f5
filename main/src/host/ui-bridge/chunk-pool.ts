/**
 * Byte chunks the inspector's rings give back, for the next ring that needs one of the same
 * size (row-store.ts). Allocating a fresh Buffer for every 64 KiB of frames counted as external
 * memory to V8, which answered with a mark-compact about every second at 100 busy clients
 * (measured 2026-11-28, docs/performance.md "The inspector's rings on the hot path"). At most
 * `maxBytes` are kept here, zeroed (a forgotten connection's rows do not linger), on top of
 * what the rings count.
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
    if (chunk === undefined) return Buffer.alloc(size);
    this.pooled -= size;
    return chunk;
  }

  give(chunk: Buffer): void {
    if (this.pooled + chunk.length > this.maxBytes) return;
    chunk.fill(0);
    let list = this.free.get(chunk.length);
    if (list === undefined) {
      list = [];
      this.free.set(chunk.length, list);
    }
    list.push(chunk);
    this.pooled += chunk.length;
  }
}
