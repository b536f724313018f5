/**
 * An append-only stream sent in batches: items added within one interval go out together, in
 * order, at most one batch per `intervalMs`. Beyond `maxPending` waiting items the oldest go
 * (a consumer sees the gap in their sequence numbers). `flush()` sends what waits at once.
 */
export class BatchStream<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly maxPending: number,
    private readonly send: (batch: readonly T[]) => void,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length > this.maxPending) this.pending.splice(0, this.pending.length - this.maxPending);
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.lastSentAt + this.intervalMs - Date.now()));
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.lastSentAt = Date.now();
    this.send(batch);
  }

  /** Forgets what waits and stops the timer. */
  clear(): void {
    this.pending = [];
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
