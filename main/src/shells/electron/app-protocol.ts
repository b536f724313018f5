import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './url-policy.js';
import { CONTENT_TYPES } from '../../base/content-types.js';
import type { UiImages } from '../../host/ui-bridge/ui-images.js';

/**
 * The `app://companion/...` protocol handler's decisions: which file of the
 * built renderer a request names, its content type, and the headers (CSP included). The
 * Electron adapter only registers the scheme and turns `serveAppRequest`'s answer into a
 * `Response`. Anything that could leave the renderer folder is refused, not cleaned up.
 */

/** The CSP for every page we serve; the renderer's meta tag says the same. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // Every picture comes through the host (cdn/…: the platform's CDN, games' servers), never straight from elsewhere.
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');


export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': APP_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/** A decoded segment we refuse: empty, dot segments, separators, NUL, drive letters. */
function badSegment(segment: string): boolean {
  return (
    segment.length === 0 ||
    segment === '.' ||
    segment === '..' ||
    segment.includes('/') ||
    segment.includes('\\') ||
    segment.includes('\0') ||
    segment.includes(':')
  );
}

/**
 * The file inside `rendererDir` that `requestUrl` names, or null. `/` is `index.html`. The
 * raw request is checked before the URL parser can normalise `..`, `%2e%2e` or `\` away, so an
 * attempt is refused rather than silently rewritten to another file.
 */
export function resolveAppPath(rendererDir: string, requestUrl: string): string | null {
  if (typeof requestUrl !== 'string' || requestUrl.length > 4096) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(requestUrl)) return null;
  const prefix = `${APP_SCHEME}://${APP_HOST}/`;
  if (!requestUrl.startsWith(prefix) && requestUrl !== `${APP_SCHEME}://${APP_HOST}`) return null;
  const rawPath = requestUrl.slice(prefix.length - 1).split(/[?#]/, 1)[0] ?? '';
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST || url.port !== '' || url.username !== '' || url.password !== '') {
    return null;
  }
  // The parser must not have changed the path (it would, for `..` and `%2e` segments).
  if (rawPath !== '' && url.pathname !== rawPath) return null;
  const path = rawPath === '' || rawPath === '/' ? '/index.html' : rawPath;

  const segments: string[] = [];
  for (const encoded of path.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (badSegment(segment)) return null;
    segments.push(segment);
  }
  const root = resolve(rendererDir);
  const file = join(root, ...segments);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  return file;
}

export interface AppResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | string;
}

/** The pictures under `app://companion/cdn/...` (the host's UiImages), once the host runs. */
export type AppImages = () => Pick<UiImages, 'image'> | null;

/** A `cdn/` picture: from the host (404 before it runs); as a document it can do nothing (CSP sandbox). */
async function serveImage(path: string, images: AppImages): Promise<AppResponse> {
  const source = images();
  const image = source === null ? null : await source.image(path);
  if (image === null) return { status: 404, headers: appResponseHeaders('text/plain; charset=utf-8'), body: 'Not found' };
  return {
    status: image.status,
    headers: { ...appResponseHeaders(image.contentType), 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'Cache-Control': image.status === 200 ? `private, max-age=${image.maxAgeSeconds ?? 3600}` : 'no-store' },
    body: new Uint8Array(image.body),
  };
}

/** The answer to one `app://` request: the file (or a `cdn/` picture), or 404 for anything refused or missing. */
export async function serveAppRequest(
  rendererDir: string,
  requestUrl: string,
  read: (path: string) => Promise<Uint8Array> = readFile,
  images: AppImages = () => null,
): Promise<AppResponse> {
  const cdnPrefix = `${APP_SCHEME}://${APP_HOST}/cdn/`;
  if (typeof requestUrl === 'string' && requestUrl.startsWith(cdnPrefix)) return serveImage(requestUrl.slice(cdnPrefix.length - 'cdn/'.length).split(/[?#]/, 1)[0] ?? '', images);
  const file = resolveAppPath(rendererDir, requestUrl);
  const notFound: AppResponse = { status: 404, headers: appResponseHeaders('text/plain; charset=utf-8'), body: 'Not found' };
  if (file === null) return notFound;
  try {
    return { status: 200, headers: appResponseHeaders(contentTypeFor(file)), body: await read(file) };
  } catch {
    // A path without an extension is a client-side route: the app's index page answers it.
    if (extname(file) !== '') return notFound;
    const index = join(resolve(rendererDir), 'index.html');
    try {
      return { status: 200, headers: appResponseHeaders(contentTypeFor(index)), body: await read(index) };
    } catch {
      return notFound;
    }
  }
}
