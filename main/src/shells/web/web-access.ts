import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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

export function splitUrl(raw: string): { readonly path: string; readonly query: URLSearchParams } {
  const q = raw.indexOf('?');
  return q === -1 ? { path: raw, query: new URLSearchParams() } : { path: raw.slice(0, q), query: new URLSearchParams(raw.slice(q + 1)) };
}

/**
 * Who may use the web UI on one port: the token (once, in the URL) becomes an HttpOnly,
 * SameSite=Strict session cookie named after the port, carrying its own random value.
 * Requests for another `Host` (DNS rebinding) or from another `Origin` are refused.
 */
export class WebAccess {
  readonly token: string;
  readonly cookieName: string;
  readonly securityHeaders: Readonly<Record<string, string>>;
  private readonly tokenDigest: Buffer;
  private readonly session = randomBytes(32).toString('base64url');
  private readonly sessionDigest = digest(this.session);
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(port: number, token: string) {
    this.token = token;
    this.tokenDigest = digest(token);
    this.cookieName = `companion_ui_${port}`;
    this.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.securityHeaders = {
      'Content-Security-Policy':
        `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; ` +
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
  foreign(req: IncomingMessage): { status: number; title: string } | undefined {
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !this.allowedHosts.has(host)) return { status: 421, title: 'Misdirected Request' };
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { status: 403, title: 'Forbidden' };
    return undefined;
  }

  hasSession(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, this.cookieName);
    return value !== undefined && matches(value, this.sessionDigest);
  }

  tokenMatches(given: string): boolean {
    return matches(given, this.tokenDigest);
  }

  /** The Set-Cookie value that opens the session. */
  sessionCookie(): string {
    return `${this.cookieName}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
