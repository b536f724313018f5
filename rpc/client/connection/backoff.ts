export interface BackoffOptions {
  /** First delay (default 500 ms, as the C library). */
  readonly initialMs?: number;
  /** Largest delay (default 60 s, as the C library). */
  readonly maxMs?: number;
  /** Jitter as a fraction of the delay, both ways (default 0.25: 375-625 ms for the first). */
  readonly jitter?: number;
  /** Injectable for tests; Math.random by default. */
  readonly random?: () => number;
}

export const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 60_000, jitter: 0.25 } as const;

/**
 * The delay before reconnect attempt `attempt` (0 for the first): `initialMs * 2^attempt`,
 * capped at `maxMs`, then spread by ±`jitter` so that many games do not all come back in
 * the same millisecond after Companion restarts; never above `maxMs`.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? DEFAULT_BACKOFF.initialMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  const jitter = options.jitter ?? DEFAULT_BACKOFF.jitter;
  const random = options.random ?? Math.random;
  const base = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  const spread = base * jitter * (random() * 2 - 1);
  return Math.max(0, Math.min(max, Math.round(base + spread)));
}
