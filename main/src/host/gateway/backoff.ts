export interface BackoffOptions {
  /** Base delay of the first retry (ms). */
  readonly initialMs: number;
  /** Cap of the base delay (ms). */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 60_000 };

/**
 * Exponential backoff with "equal jitter": the delay is in [base/2, base], base doubling
 * from `initialMs` up to `maxMs`. Half of it is fixed so delays still grow; the random half
 * keeps many hosts that lost the same platform from reconnecting in lockstep.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number,
  ) {}

  /** Retries since the last reset. */
  get attempts(): number {
    return this.attempt;
  }

  /** The delay before the next attempt (ms); each call moves one step up. */
  next(): number {
    const base = Math.min(this.options.maxMs, this.options.initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt += 1;
    const jitter = clampUnit(this.random());
    return Math.round(base / 2 + (base / 2) * jitter);
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** An injected random source may return anything; keep it in [0, 1). */
export function clampUnit(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return value >= 1 ? 0.999_999 : value;
}
