/**
 * The inspector's rings by how many entries each holds, so the biggest is found without a scan
 * of them all (FrameLog's total bounds take from the biggest). One list per count, linked
 * through the rings themselves: moving a ring as its count changes allocates nothing.
 * Measured 2026-11-28 (docs/performance.md, "The inspector's rings on the hot path"): with 100
 * connections and the total full, a scan of every ring per frame was about half of recording
 * one, and a Set per count (with its iterators and rehashes) about a third.
 */
export interface SizeLinks<R> {
  sizePrev: R | undefined;
  sizeNext: R | undefined;
}

export class RingsBySize<R extends SizeLinks<R>> {
  /** The first and last ring of each count's list (oldest to reach it first). */
  private readonly firsts: (R | undefined)[] = [];
  private readonly lasts: (R | undefined)[] = [];
  private max = 0;

  /** A ring's count went from `before` to `after` (0: not listed). */
  move(ring: R, before: number, after: number): void {
    if (before === after) return;
    if (before > 0) this.unlink(ring, before);
    if (after <= 0) return;
    const last = this.lasts[after];
    ring.sizePrev = last;
    ring.sizeNext = undefined;
    if (last === undefined) this.firsts[after] = ring;
    else last.sizeNext = ring;
    this.lasts[after] = ring;
    if (after > this.max) this.max = after;
  }

  private unlink(ring: R, count: number): void {
    const { sizePrev: prev, sizeNext: next } = ring;
    if (prev === undefined) this.firsts[count] = next;
    else prev.sizeNext = next;
    if (next === undefined) this.lasts[count] = prev;
    else next.sizePrev = prev;
    ring.sizePrev = undefined;
    ring.sizeNext = undefined;
  }

  /** A ring with the most entries (the first to reach that count among equals). */
  biggest(): R | undefined {
    while (this.max > 0) {
      const first = this.firsts[this.max];
      if (first !== undefined) return first;
      this.max -= 1;
    }
    return undefined;
  }
}
