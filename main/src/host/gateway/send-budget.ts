export interface SendBudgetOptions {
  /** Payloads allowed per window, critical ones included (the platform's limit: 120). */
  readonly count: number;
  /** Window length (ms); the platform's is 60 s. */
  readonly windowMs: number;
  /** Slots that only critical payloads (heartbeat, identify, resume) may use. */
  readonly reserve: number;
}

export const DEFAULT_SEND_BUDGET: SendBudgetOptions = { count: 120, windowMs: 60_000, reserve: 5 };

/**
 * Extra time a send stays counted after its window (5 % of it, at most 1 s). Our clock and
 * the server's arrival times differ by the network delay, so a send exactly `windowMs` old
 * might still be inside the server's window; going over the limit costs the connection (4008).
 */
export function windowSlackMs(windowMs: number): number {
  return Math.min(1000, Math.ceil(windowMs * 0.05));
}

/**
 * The send limit of one gateway connection, as a sliding log of send times: no interval of
 * `windowMs` ever holds more than `count` sends, whatever window the server counts with
 * (fixed from connect or sliding).
 */
export class SendBudget {
  private readonly sentAt: number[] = [];

  constructor(
    private readonly options: SendBudgetOptions,
    private readonly now: () => number,
  ) {}

  /** Sends still counted in the current window. */
  get used(): number {
    this.prune();
    return this.sentAt.length;
  }

  /** Takes a slot if one is free: critical sends may use the reserve, others may not. */
  tryTake(critical: boolean): boolean {
    this.prune();
    if (this.sentAt.length >= this.limit(critical)) return false;
    this.sentAt.push(this.now());
    return true;
  }

  /** Milliseconds until a slot frees up for this kind of send (0 when one is free now). */
  msUntilFree(critical: boolean): number {
    this.prune();
    const excess = this.sentAt.length - this.limit(critical);
    if (excess < 0) return 0;
    // The oldest `excess + 1` sends must age out before one slot is free.
    const oldest = this.sentAt[excess];
    if (oldest === undefined) return 0;
    return Math.max(1, oldest + this.options.windowMs + windowSlackMs(this.options.windowMs) - this.now());
  }

  /** A new connection starts with a fresh window on the server, so here too. */
  reset(): void {
    this.sentAt.length = 0;
  }

  private limit(critical: boolean): number {
    return critical ? this.options.count : Math.max(0, this.options.count - this.options.reserve);
  }

  private prune(): void {
    const cutoff = this.now() - this.options.windowMs - windowSlackMs(this.options.windowMs);
    let drop = 0;
    while (drop < this.sentAt.length && (this.sentAt[drop] ?? Infinity) <= cutoff) drop += 1;
    if (drop > 0) this.sentAt.splice(0, drop);
  }
}
