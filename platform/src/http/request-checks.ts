import type { IncomingMessage } from 'node:http';
import { declaresTooLong, isForeignOrigin, isLoopbackHost, isNonJsonBody, loopbackOrigins } from '../../../common/src/loopback-request.js';
import { schemeOf } from '../support/tls-socket.js';
import { ApiError, ErrorCode } from './errors.js';
import type { Route } from './router.js';

/** A body over the limit: 413, and the connection closes (the rest of the body is not read). */
export class BodyTooLarge extends ApiError {
  constructor(maxBytes: number) {
    super(413, ErrorCode.General, `413: Request Entity Too Large (the limit is ${maxBytes} bytes)`);
  }
}

/**
 * **(ours)** Refusals made before routing, on every request (and WebSocket upgrade): a `Host`
 * that is not this server's loopback address (DNS rebinding) and an `Origin` that is not its
 * own are 403, a declared `Content-Length` over `maxBytes` is 413 before a byte of the body is
 * read. undefined when the request may go on.
 */
export function refusalBeforeRouting(request: IncomingMessage, maxBytes: number): ApiError | undefined {
  const port = request.socket.localPort ?? 0;
  if (!isLoopbackHost(request.headers.host, port)) {
    return new ApiError(403, ErrorCode.General, '403: Forbidden: the Host header does not name this loopback server');
  }
  if (isForeignOrigin(request.headers.origin, loopbackOrigins(port, schemeOf(request)))) {
    return new ApiError(403, ErrorCode.General, '403: Forbidden: requests from another origin are refused');
  }
  if (declaresTooLong(request.headers['content-length'], maxBytes)) return new BodyTooLarge(maxBytes);
  return undefined;
}

/** **(ours)** 415 for a route that reads JSON sent a body (or a Content-Type) that is not `application/json`. */
export function refusalOfContentType(route: Route, request: IncomingMessage): ApiError | undefined {
  if (route.body === 'raw' || !isNonJsonBody(request.headers)) return undefined;
  return new ApiError(415, ErrorCode.General, '415: Unsupported Media Type: the body must be application/json');
}
