/*
 * Bytes for the inspector's rings from V8's page allocator instead of the C library's heap.
 *
 * A Buffer's memory normally comes from malloc. glibc hands its main heap back to the system
 * only from the top, and the rings' chunks live on long after the load that filled them: they
 * were allocated while a burst's short-lived buffers (a 64 KiB read buffer per socket read, the
 * replies) came and went, so they sat among them and pinned the heap at its high-water mark.
 * With 100 games and then 10 games with 16 requests in flight (the bench's `arrpc` phase, Node
 * 24), the heap grew to 53 MiB and stayed there, holding the rings' 11 MiB.
 *
 * A resizable ArrayBuffer is reserved and committed by V8 itself (mmap on Linux), outside
 * malloc, and given back whole when it is collected; a chunk is never resized (its Buffer has a
 * fixed length). Below a page the heap stays cheaper (a page per 2 KiB chunk would be mostly
 * waste). Measured 2026-11-29 (2 cores, Linux 6.18, unpinned; the `arrpc` phase, 3 rounds with
 * an idle window each, Companion's heap read every 5 s by a module given with
 * BENCH_COMPANION_NODE_FLAGS; one malloc arena in both, malloc-arenas.ts): malloc's heap after
 * the load 53.3 MiB before, 17.1-18.5 after; RSS 60 s after the load 127-165 MiB before (arRPC
 * 107-111), 104-106 after (arRPC 111); peak RSS 185-202 before, 155 (median) after.
 */

/** The size from which a chunk is mapped pages of its own. */
export const PAGE_BYTES = 4096;

/** A zeroed Buffer of `size` bytes: mapped pages of its own from a page on, from the C library's heap below. */
export function ringChunk(size: number): Buffer {
  return size < PAGE_BYTES ? Buffer.alloc(size) : Buffer.from(new ArrayBuffer(size, { maxByteLength: size }));
}
