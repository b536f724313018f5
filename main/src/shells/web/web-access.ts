import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { declaresTooLong, isLoopbackHost } from '../../../../common/src/loopback-request.js';

/** The web UI reads no request body: a declared one over this is refused at once. */
export const MAX_BODY_BYTES = 64 * 1024;
/** The names the page is served under (it listens on 127.0.0.1 only). */
const PAGE_HOST_NAMES: readonly string[] = ['127.0.0.1', 'localhost'];

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of a presented secret with the digest of the real one. */
function matches(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Why a request is refused before anything else: the status and the page's words. */
export interface Refusal {
  readonly status: number;
  readonly title: string;
  readonly text: string;
}

const NOT_FOR_US = 'This request is not for the Companion UI on this address.';

export function splitUrl(raw: string): { readonly path: string; readonly query: URLSearchParams } {
  const q = raw.indexOf('?');
  return q === -1 ? { path: raw, query: new URLSearchParams() } : { path: raw.slice(0, q), query: new URLSearchParams(raw.slice(q + 1)) };
}

/** How long a one-time token (`companion ui`) opens a session, and how many may wait. */
export const ONE_TIME_TOKEN_MS = 5 * 60_000;
const MAX_ONE_TIME_TOKENS = 16;

/**
 * Who may use the web UI on one port: the token (once, in the URL) becomes an HttpOnly,
 * SameSite=Strict session cookie named after the port, carrying its own random value.
 * Requests for another `Host` (DNS rebinding) or from another `Origin` are refused, and so is
 * a declared body over MAX_BODY_BYTES, before it is read.
 */
export class WebAccess {
  readonly token: string;
  readonly cookieName: string;
  readonly securityHeaders: Readonly<Record<string, string>>;
  private readonly tokenDigest: Buffer;
  private readonly session = randomBytes(32).toString('base64url');
  private readonly sessionDigest = digest(this.session);
  private readonly port: number;
  /** Unused one-time tokens (by digest) and until when each works. */
  private readonly oneTime = new Map<string, number>();

  constructor(port: number, token: string) {
    this.token = token;
    this.tokenDigest = digest(token);
    this.cookieName = `companion_ui_${port}`;
    this.port = port;
    this.securityHeaders = {
      'Content-Security-Policy':
        `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; ` +
        `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
  }

  /** Default 32 random bytes; a given one must be long and URL-safe. */
  static token(given: string | undefined): string {
    const token = given ?? randomBytes(32).toString('base64url');
    if (token.length < 16 || !/^[A-Za-z0-9_.~-]+$/.test(token)) throw new Error('the web UI token needs at least 16 URL-safe characters');
    return token;
  }

  /** Why a request (or upgrade) must be refused before anything else, or undefined. */
  foreign(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host?.trim().toLowerCase();
    if (host === undefined || !isLoopbackHost(host, this.port, PAGE_HOST_NAMES)) return { status: 421, title: 'Misdirected Request', text: NOT_FOR_US };
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { status: 403, title: 'Forbidden', text: NOT_FOR_US };
    if (declaresTooLong(req.headers['content-length'], MAX_BODY_BYTES)) return { status: 413, title: 'Payload Too Large', text: `The Companion UI reads no request body over ${MAX_BODY_BYTES} bytes.` };
    return undefined;
  }

  hasSession(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, this.cookieName);
    return value !== undefined && matches(value, this.sessionDigest);
  }

  tokenMatches(given: string): boolean {
    return matches(given, this.tokenDigest);
  }

  /**
   * A token that opens one session (`companion ui`): it works once, within ONE_TIME_TOKEN_MS.
   * At most MAX_ONE_TIME_TOKENS wait at a time (the oldest goes first).
   */
  issueOneTime(now = Date.now()): string {
    const token = randomBytes(32).toString('base64url');
    this.oneTime.set(digest(token).toString('base64'), now + ONE_TIME_TOKEN_MS);
    while (this.oneTime.size > MAX_ONE_TIME_TOKENS) this.oneTime.delete(this.oneTime.keys().next().value as string);
    return token;
  }

  /** Whether `given` is a one-time token still unused and in time; it is used up either way. */
  redeemOneTime(given: string, now = Date.now()): boolean {
    const key = digest(given).toString('base64');
    const until = this.oneTime.get(key);
    this.oneTime.delete(key);
    return until !== undefined && now < until;
  }

  /** The Set-Cookie value that opens the session. */
  sessionCookie(): string {
    return `${this.cookieName}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
