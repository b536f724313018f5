/**
 * An async task run on request, at most once per `intervalMs`, never twice at a time: the
 * requests of one burst (this tick, the microtasks after it, and any that come while it runs)
 * make one more run.
 */
export class ThrottledTask {
  private timer: NodeJS.Timeout | undefined;
  private requested = false;
  private running = false;
  private lastRunAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly task: () => Promise<void>,
  ) {}

  request(): void {
    this.requested = true;
    if (this.timer !== undefined || this.running) return;
    // A timer even when idle: the requests of this tick land in one run.
    this.timer = setTimeout(() => void this.run(), Math.max(0, this.lastRunAt + this.intervalMs - Date.now()));
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.requested = false;
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    if (!this.requested) return;
    this.requested = false;
    this.running = true;
    this.lastRunAt = Date.now();
    try {
      await this.task();
    } finally {
      this.running = false;
      if (this.requested) {
        this.requested = false;
        this.request();
      }
    }
  }
}
