/**
 * Where a Companion window may go:
 * only our own `app://companion/...` pages load inside a window; everything else is either
 * refused or, for an https link to an allowlisted host, handed to the system browser.
 * Every decision parses with `URL`; string prefixes are never trusted.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'companion';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page every window loads. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Hosts links may open in the system browser when nothing else is configured. */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = ['github.com'];

function parse(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return null;
  // Control characters and backslashes are never part of a URL we produce or accept.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** True for a URL on our own origin: `app://companion/...`, no credentials, no port. */
export function isAppUrl(url: unknown): boolean {
  const parsed = parse(url);
  return (
    parsed !== null &&
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.hostname === APP_HOST &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/** `will-navigate` / `will-redirect`: only from our origin to our origin. */
export function allowNavigation(from: unknown, to: unknown): boolean {
  return isAppUrl(from) && isAppUrl(to);
}

/**
 * The URL to hand to `shell.openExternal`, or null: https only, default port, no
 * credentials, host exactly in the allowlist (lower-case compare; subdomains are not implied).
 */
export function safeExternalUrl(url: unknown, allowedHosts: readonly string[] = DEFAULT_EXTERNAL_HOSTS): string | null {
  const parsed = parse(url);
  if (parsed === null) return null;
  if (parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.port !== '') return null;
  const host = parsed.hostname.toLowerCase();
  if (!allowedHosts.some((allowed) => allowed.toLowerCase() === host)) return null;
  return parsed.href;
}

export interface WindowOpenDecision {
  readonly action: 'deny';
  /** What to open in the system browser instead (allowlisted https), or null. */
  readonly openExternal: string | null;
}

/** `setWindowOpenHandler`: a window never opens another window; safe links go to the browser. */
export function windowOpenDecision(url?: unknown, allowedHosts: readonly string[] = DEFAULT_EXTERNAL_HOSTS): WindowOpenDecision {
  return { action: 'deny', openExternal: url === undefined ? null : safeExternalUrl(url, allowedHosts) };
}
