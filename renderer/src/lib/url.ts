/**
 * URL safety for values that come from untrusted games (activities) and from the platform
 * (icons). Links may only be http(s); images may be http(s) or an inline raster `data:image/…`.
 * Everything else (javascript:, data:text/html, file:, vbscript:, relative paths…) is refused,
 * and the caller shows the raw value as text instead.
 */

const MAX_URL_LENGTH = 2048;
const MAX_DATA_URL_LENGTH = 512 * 1024;
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+={0,2}$/;

function parseAbsolute(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The normalised href when `raw` is an absolute http(s) URL without credentials; null otherwise. */
export function safeLinkUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.length > MAX_URL_LENGTH) return null;
  // Control characters and whitespace inside a URL are how scheme filters get fooled.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(trimmed)) return null;
  const url = parseAbsolute(trimmed);
  if (url === null) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  return url.href;
}

/** A URL safe for `<img src>`: http(s) (as for links) or a base64 raster data URL; null otherwise. */
export function safeImageUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  if (trimmed.toLowerCase().startsWith('data:')) {
    return trimmed.length <= MAX_DATA_URL_LENGTH && DATA_IMAGE.test(trimmed) ? trimmed : null;
  }
  return safeLinkUrl(trimmed);
}
