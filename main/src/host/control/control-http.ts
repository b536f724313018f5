import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { declaresTooLong, isForeignOrigin, isLoopbackHost, isNonJsonBody, loopbackOrigins } from '../../../../common/src/loopback-request.js';
import { errorAnswer, HttpError } from './control-errors.js';
import { matchSegments, type Route } from './control-routes.js';
import { InvalidRequest } from './control-schemas.js';
import type { ControlLogger } from './control-server.js';
import type { EventStreams } from './event-streams.js';

interface Trace {
  pattern: string;
  /** Strings that must never be logged: the control token and this request's login token. */
  readonly secrets: string[];
}

/**
 * The control API's request handling: the loopback checks (a `Host` other than this server's
 * loopback address or an `Origin` other than its own is 403, a declared body over the limit
 * 413 before it is read, a body that is not `application/json` 415), bearer authentication (compared as digests: equal
 * lengths for timingSafeEqual, no early exit on a prefix), routing, the JSON body within its
 * limit, the answer or the error. Logs only the method, the route pattern and the status.
 */
export class ControlHttp {
  private readonly tokenDigest: Buffer;

  constructor(
    private readonly token: string,
    private readonly table: readonly Route[],
    private readonly streams: EventStreams,
    private readonly logger: ControlLogger,
    private readonly maxBodyBytes: number,
  ) {
    this.tokenDigest = createHash('sha256').update(token).digest();
  }

  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    const trace: Trace = { pattern: 'unmatched', secrets: [this.token] };
    this.handle(req, res, trace)
      .catch((error: unknown) => this.respondWithError(req, res, error, trace))
      .finally(() => {
        // Only the method, the route pattern and the status: never headers, paths or bodies.
        this.logger.debug({ method: req.method, route: trace.pattern, status: res.statusCode, ms: Date.now() - started }, 'control API request');
      })
      .catch(() => undefined);
  };

  private authorized(header: string | undefined): boolean {
    const match = header === undefined ? null : /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (match === null) return false;
    return timingSafeEqual(createHash('sha256').update(match[1] ?? '').digest(), this.tokenDigest);
  }

  private route(req: IncomingMessage): { route: Route; params: Record<string, string> } {
    const path = new URL(req.url ?? '/', 'http://control.invalid').pathname;
    let segments: string[];
    try {
      segments = path.split('/').slice(1).map((segment) => decodeURIComponent(segment));
    } catch {
      throw new HttpError(400, 'invalid_request', 'path: bad percent-encoding');
    }
    const matches = this.table
      .map((route) => ({ route, params: matchSegments(route, segments) }))
      .filter((match): match is { route: Route; params: Record<string, string> } => match.params !== undefined);
    if (matches.length === 0) throw new HttpError(404, 'not_found', 'no such route');
    const match = matches.find(({ route }) => route.method === req.method);
    if (match === undefined) {
      const allow = [...new Set(matches.map(({ route }) => route.method))].join(', ');
      throw new HttpError(405, 'method_not_allowed', `method not allowed here (allowed: ${allow})`, { Allow: allow });
    }
    return match;
  }

  /** The refusals made before authentication: DNS rebinding, another origin, a declared body over the limit. */
  private checkLoopback(req: IncomingMessage): void {
    const port = req.socket.localPort ?? 0;
    if (!isLoopbackHost(req.headers.host, port)) throw new HttpError(403, 'forbidden', 'the Host header does not name this loopback server');
    if (isForeignOrigin(req.headers.origin, loopbackOrigins(port))) throw new HttpError(403, 'forbidden', 'requests from another origin are refused');
    if (declaresTooLong(req.headers['content-length'], this.maxBodyBytes)) throw new HttpError(413, 'payload_too_large', `body over ${this.maxBodyBytes} bytes`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, trace: Trace): Promise<void> {
    this.checkLoopback(req);
    if (!this.authorized(req.headers.authorization)) {
      throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token', { 'WWW-Authenticate': 'Bearer' });
    }
    const match = this.route(req);
    trace.pattern = match.route.pattern;
    if (match.route.handle === 'events') {
      this.streams.start(res);
      return;
    }
    const readsBody = req.method === 'POST' || req.method === 'PATCH';
    if (readsBody && isNonJsonBody(req.headers)) throw new HttpError(415, 'unsupported_media_type', 'the body must be application/json');
    const body = readsBody ? await this.readBody(req) : {};
    const output = await match.route.handle({ params: match.params, body, secrets: trace.secrets });
    sendJson(res, 200, output);
  }

  /** Reads the body within the limit; `{}` when there is none. */
  private async readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.maxBodyBytes) throw new HttpError(413, 'payload_too_large', `body over ${this.maxBodyBytes} bytes`);
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new InvalidRequest('body', 'is not valid JSON');
    }
  }

  private respondWithError(req: IncomingMessage, res: ServerResponse, error: unknown, trace: Trace): void {
    const answer = errorAnswer(error, trace.secrets);
    if (answer.log !== null) {
      this.logger.error({ method: req.method, route: trace.pattern, status: answer.status, error: answer.log }, 'control API: backend failed');
    }
    let headers = answer.headers;
    if (!req.complete) {
      // The rest of the body is not wanted: read it off so the client gets the answer, then close.
      headers = { ...headers, Connection: 'close' };
      req.resume();
    }
    sendJson(res, answer.status, answer.body, headers);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(text);
}
