/**
 * The checks every loopback HTTP and WebSocket service of ours makes before anything else:
 * the `Host` header names this machine's loopback address on the service's port (anything
 * else is DNS rebinding), an `Origin` header (browsers send one) is the service's own, a
 * body read as JSON says so, and a declared body over the limit is refused before it is read.
 * Pure functions over header values: the services answer the refusals in their own format.
 */

/** The names of this machine's loopback address. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** The `Host` values a request to a loopback service on `port` may carry (a service may name fewer). */
export function loopbackHosts(port: number, names: readonly string[] = LOOPBACK_NAMES): ReadonlySet<string> {
  return new Set(names.map((name) => `${name}:${port}`));
}

/** Whether `host` (the `Host` header) names the loopback service on `port`. Absent: no. */
export function isLoopbackHost(host: string | undefined, port: number, names: readonly string[] = LOOPBACK_NAMES): boolean {
  return host !== undefined && loopbackHosts(port, names).has(host.trim().toLowerCase());
}

/**
 * The origins of pages served by the loopback service on `port` (its own origin, by each name);
 * `https` for a service that listens with TLS.
 */
export function loopbackOrigins(port: number, scheme: 'http' | 'https' = 'http'): ReadonlySet<string> {
  return new Set([...loopbackHosts(port)].map((host) => `${scheme}://${host}`));
}

/**
 * Whether `origin` (the `Origin` header) is another site's: absent (a local program, or a
 * browser's top-level navigation) is not; `null` (a sandboxed or file page) and any origin
 * outside `allowed` are.
 */
export function isForeignOrigin(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return false;
  return !allowed.has(origin.trim().toLowerCase());
}

/** The media type of a `Content-Type` header: lower case, without parameters; undefined when absent. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  return contentType.split(';')[0]?.trim().toLowerCase();
}

/** Whether `contentType` is `application/json` (any parameters, e.g. `; charset=utf-8`). */
export function isJsonContentType(contentType: string | undefined): boolean {
  return mediaType(contentType) === 'application/json';
}

/** The header values a request's body is judged by. */
export interface BodyHeaders {
  readonly 'content-length'?: string | undefined;
  readonly 'transfer-encoding'?: string | undefined;
  readonly 'content-type'?: string | undefined;
}

/** Whether the request carries a body: a Content-Length over 0, or a Transfer-Encoding. */
export function hasBody(headers: BodyHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length'] ?? 0);
  return !Number.isFinite(length) || length > 0;
}

/**
 * Whether a request to a route that reads JSON must be refused for its content type: it
 * carries a body, or names a type, and that type is not `application/json`.
 */
export function isNonJsonBody(headers: BodyHeaders): boolean {
  if (!hasBody(headers) && headers['content-type'] === undefined) return false;
  return !isJsonContentType(headers['content-type']);
}

/** Whether the declared `Content-Length` is over `maxBytes` (absent or chunked: no, the reader counts). */
export function declaresTooLong(contentLength: string | undefined, maxBytes: number): boolean {
  if (contentLength === undefined) return false;
  const length = Number(contentLength);
  return !Number.isFinite(length) || length > maxBytes;
}
