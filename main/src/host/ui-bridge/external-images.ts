import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { httpGetBytes, HttpBytesError, type BytesResult } from '../../base/http-get-bytes.js';
import { ADDRESS_REFUSED, allowedAddressLookup, isPublicAddress, literalAddress } from '../../base/public-address.js';
import { freshFor, ImageCache } from './image-cache.js';
import { bytesAre, imageType } from './image-types.js';
import type { UiImage } from './ui-images.js';

/**
 * Games' own pictures (an activity's `large_image` / `small_image` given as an http(s) URL, or
 * the media proxy's `mp:external/…` form), fetched by the host for the UI, as the client players
 * know fetches them through its media proxy: the game's server sees the host's request, never
 * the player's browser with its cookies and headers. The UI asks for
 * `cdn/external/{base64url of the activity's value}`; the host fetches only a value that an
 * activity it knows now carries, only from public addresses, only raster images, within size
 * and time limits, and keeps what it fetched for a while (docs/architecture.md, "Pictures").
 */

export interface ExternalImageLimits {
  readonly maxBytes: number;
  /** For the whole fetch, redirects included. */
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** The cache's size, in bytes of pictures. */
  readonly cacheBytes: number;
  /** How long a picture is kept when its server says nothing about it. */
  readonly defaultFreshMs: number;
  /** The longest a picture is kept, whatever its server says. */
  readonly maxFreshMs: number;
  /** Fetches at a time (each holds up to maxBytes); the others wait their turn. */
  readonly maxConcurrent: number;
}

export const EXTERNAL_IMAGE_LIMITS: ExternalImageLimits = {
  maxBytes: 8 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  cacheBytes: 32 * 1024 * 1024,
  defaultFreshMs: 10 * 60 * 1000,
  maxFreshMs: 60 * 60 * 1000,
  maxConcurrent: 6,
};

export interface ExternalImagesOptions {
  /** Whether an activity the host knows now (a game's, a friend's, an invite's) carries this image value. */
  readonly supplied: (value: string) => boolean;
  readonly now?: () => number;
}

/** For tests only, never a product option: what a test server on this machine needs. */
export interface ExternalImagesTesting {
  /** Addresses allowed besides public ones (a local test server's 127.0.0.1). */
  readonly allowAddress?: (address: string) => boolean;
  /** Certificates trusted instead of the system's (a test server's self-signed one). */
  readonly ca?: string;
  readonly limits?: Partial<ExternalImageLimits>;
}

/** What goes to the game's server: no cookies, no referrer, nothing of the player's browser. */
const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  Accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9',
  'User-Agent': 'Companion-ImageProxy/1.0',
};
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_VALUE_LENGTH = 2048;
const EXTERNAL = /^mp:external\/[^/]+\/(https?)\/(.+)$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,4096}$/;

function text(status: number, words: string): UiImage {
  return { status, contentType: 'text/plain; charset=utf-8', body: Buffer.from(`${words}\n`) };
}

const NOT_FOUND = text(404, 'No such image.');
const NOT_PUBLIC = text(403, "The image's address is not public: Companion fetches no pictures from this machine or a private network.");

/** The value the UI names in `cdn/external/{encoded}`, or null when it is not one. */
export function decodeExternalPath(encoded: string): string | null {
  if (!BASE64URL.test(encoded)) return null;
  const value = Buffer.from(encoded, 'base64url').toString('utf8');
  return value.length > 0 && value.length <= MAX_VALUE_LENGTH && Buffer.from(value, 'utf8').toString('base64url') === encoded ? value : null;
}

/**
 * The address an image value names: an http(s) URL as given, `mp:external/{sig}/{scheme}/{rest}`
 * as `{scheme}://{rest}` (what the media proxy fetches); null for anything else, or a URL with
 * credentials in it.
 */
export function externalImageUrl(value: string): URL | null {
  const external = EXTERNAL.exec(value);
  const raw = external === null ? value : `${external[1]}://${external[2]}`;
  if (!/^https?:\/\//i.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.username === '' && url.password === '' && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

export class ExternalImages {
  private readonly limits: ExternalImageLimits;
  private readonly cache: ImageCache;
  private readonly inFlight = new Map<string, Promise<UiImage>>();
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly allowed: (address: string) => boolean;
  private readonly lookup: LookupFunction;
  private readonly now: () => number;

  constructor(
    private readonly options: ExternalImagesOptions,
    private readonly testing: ExternalImagesTesting = {},
  ) {
    this.limits = { ...EXTERNAL_IMAGE_LIMITS, ...testing.limits };
    this.cache = new ImageCache(this.limits.cacheBytes);
    const extra = testing.allowAddress;
    this.allowed = extra === undefined ? isPublicAddress : (address) => isPublicAddress(address) || extra(address);
    this.lookup = allowedAddressLookup(this.allowed);
    this.now = options.now ?? Date.now;
  }

  /** The bytes of pictures kept. */
  get cachedBytes(): number {
    return this.cache.bytes;
  }

  /** The picture `cdn/external/{encoded}` names, or why not (a status and a sentence). */
  async image(encoded: string): Promise<UiImage> {
    const value = decodeExternalPath(encoded);
    if (value === null || !this.options.supplied(value)) return NOT_FOUND;
    const url = externalImageUrl(value);
    if (url === null) return NOT_FOUND;
    const key = url.href;
    const cached = this.cache.get(key, this.now());
    if (cached !== undefined) return { status: 200, contentType: cached.contentType, body: cached.body, maxAgeSeconds: Math.floor((cached.expiresAt - this.now()) / 1000) };
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const fetching = this.inTurn(() => this.fetch(url)).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, fetching);
    return fetching;
  }

  /** Runs `task` once fewer than maxConcurrent fetches run (memory stays bounded by their sizes). */
  private async inTurn<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.maxConcurrent) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.queue.shift()?.();
    }
  }

  private async fetch(url: URL): Promise<UiImage> {
    const deadline = this.now() + this.limits.timeoutMs;
    let current = url;
    for (let redirects = 0; ; redirects += 1) {
      const address = literalAddress(current);
      if (address !== null && !this.allowed(address)) return NOT_PUBLIC;
      let result: BytesResult;
      try {
        result = await httpGetBytes(current, {
          headers: REQUEST_HEADERS,
          timeoutMs: Math.max(1, deadline - this.now()),
          maxBytes: this.limits.maxBytes,
          lookup: this.lookup,
          wantBody: (status, headers) => status === 200 && imageType(headers['content-type']) !== null,
          ...(this.testing.ca === undefined ? {} : { ca: this.testing.ca }),
        });
      } catch (error) {
        return this.failure(error);
      }
      if (!REDIRECTS.has(result.status)) return this.answer(url.href, result);
      const next = this.redirectTarget(current, result.headers);
      if (next === null) return text(502, "The image's server redirected to an address that is not http(s).");
      if (redirects >= this.limits.maxRedirects) return text(502, `The image's server redirected more than ${this.limits.maxRedirects} times.`);
      current = next;
    }
  }

  private redirectTarget(from: URL, headers: IncomingHttpHeaders): URL | null {
    const location = headers.location;
    if (location === undefined) return null;
    try {
      const next = new URL(location, from);
      return (next.protocol === 'https:' || next.protocol === 'http:') && next.username === '' && next.password === '' ? next : null;
    } catch {
      return null;
    }
  }

  private failure(error: unknown): UiImage {
    const code = error instanceof HttpBytesError ? error.code : 'EREQUEST';
    if (code === ADDRESS_REFUSED) return NOT_PUBLIC;
    if (code === 'TIMEOUT') return text(504, `The image's server took longer than ${this.limits.timeoutMs / 1000} s.`);
    if (code === 'TOO_LARGE') return text(502, `The image is larger than ${this.limits.maxBytes / (1024 * 1024)} MiB.`);
    return text(502, "The image's server could not be reached.");
  }

  private answer(key: string, result: BytesResult): UiImage {
    if (result.status !== 200) return text(result.status === 404 ? 404 : 502, `The image's server answered ${result.status}.`);
    const type = imageType(result.headers['content-type']);
    if (type === null) return text(502, `Not a picture Companion shows (${String(result.headers['content-type'] ?? 'no type')}): only PNG, JPEG, GIF, WebP and AVIF.`);
    if (!bytesAre(type, result.body)) return text(502, `The image's bytes are not ${type}.`);
    const freshMs = freshFor(result.headers, this.limits.defaultFreshMs, this.limits.maxFreshMs);
    if (freshMs > 0) this.cache.set(key, { contentType: type, body: result.body, expiresAt: this.now() + freshMs });
    return { status: 200, contentType: type, body: result.body, maxAgeSeconds: Math.floor(freshMs / 1000) };
  }
}
