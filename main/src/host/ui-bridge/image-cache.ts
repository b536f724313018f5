/** A cached picture: its type, bytes and when it stops being fresh (ms since the epoch). */
export interface CachedImage {
  readonly contentType: string;
  readonly body: Buffer;
  readonly expiresAt: number;
}

/**
 * The pictures fetched for the UI, least recently used first out, bounded by the bytes of the
 * pictures it holds (not their count): adding one drops the oldest until the total fits.
 * An expired entry is dropped when it is asked for.
 */
export class ImageCache {
  private readonly entries = new Map<string, CachedImage>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** The bytes held. */
  get bytes(): number {
    return this.total;
  }

  get(key: string, now: number): CachedImage | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.delete(key);
    if (entry.expiresAt <= now) return undefined;
    // Most recently used: to the end of the map's order.
    this.store(key, entry);
    return entry;
  }

  set(key: string, entry: CachedImage): void {
    this.delete(key);
    if (entry.body.length > this.maxBytes) return;
    while (this.total + entry.body.length > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.delete(oldest.value);
    }
    this.store(key, entry);
  }

  private store(key: string, entry: CachedImage): void {
    this.entries.set(key, entry);
    this.total += entry.body.length;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.body.length;
  }
}

const MAX_AGE = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i;
const NO_STORE = /(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|$)/i;

/**
 * How long an upstream answer may be kept (ms), from its Cache-Control max-age (else Expires
 * against Date), at most `capMs`; `defaultMs` when it says nothing; 0 for no-store/no-cache.
 */
export function freshFor(headers: { readonly 'cache-control'?: string | undefined; readonly expires?: string | undefined; readonly date?: string | undefined }, defaultMs: number, capMs: number): number {
  const control = headers['cache-control'] ?? '';
  if (NO_STORE.test(control)) return 0;
  const maxAge = MAX_AGE.exec(control);
  if (maxAge !== null) return Math.min(Number(maxAge[1]) * 1000, capMs);
  if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    const date = headers.date === undefined ? Date.now() : Date.parse(headers.date);
    return Number.isNaN(expires) || Number.isNaN(date) ? 0 : Math.max(0, Math.min(expires - date, capMs));
  }
  return Math.min(defaultMs, capMs);
}
