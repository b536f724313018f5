import { createHash } from 'node:crypto';
import { FixedWindow, type WindowLimit } from '../support/limits.js';
import type { RateLimitBody } from '../wire/index.js';

export interface RateLimitOutcome {
  readonly allowed: boolean;
  readonly headers: Record<string, string>;
  /** Set when refused. */
  readonly body?: RateLimitBody;
}

/** Per-key fixed windows for the HTTP buckets, with the platform's rate-limit headers. */
export class HttpRateLimiter {
  private readonly windows = new Map<string, FixedWindow>();

  constructor(private readonly now: () => number) {}

  /** One event of `key` in `bucket`; `global`: the refusal is the caller's global limit (all its requests). */
  take(bucket: string, key: string, limit: WindowLimit, scope: 'user' | 'global' = 'user'): RateLimitOutcome {
    const id = `${bucket}:${key}`;
    let window = this.windows.get(id);
    if (window === undefined || window.limit !== limit) this.windows.set(id, (window = new FixedWindow(limit, this.now)));
    this.prune();
    const allowed = window.take();
    const resetAfter = window.retryAfterMs / 1000;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit.count),
      'X-RateLimit-Remaining': String(window.remaining),
      'X-RateLimit-Reset': (window.resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': resetAfter.toFixed(3),
      'X-RateLimit-Bucket': bucketHash(bucket),
    };
    if (allowed) return { allowed, headers };
    return {
      allowed,
      headers: { ...headers, 'Retry-After': String(Math.ceil(resetAfter)), 'X-RateLimit-Scope': scope, ...(scope === 'global' ? { 'X-RateLimit-Global': 'true' } : {}) },
      body: { message: 'You are being rate limited.', retry_after: resetAfter, global: scope === 'global' },
    };
  }

  /** Forgets windows that have reset, so the map does not grow with every key ever seen. */
  private prune(): void {
    if (this.windows.size < 1000) return;
    for (const [id, window] of this.windows) if (window.remaining === window.limit.count) this.windows.delete(id);
  }
}

/** An opaque bucket id, like the real service's. */
function bucketHash(bucket: string): string {
  return createHash('sha256').update(bucket).digest('hex').slice(0, 32);
}
