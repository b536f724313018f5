import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../../../common/src/node/close-server.js';
import type { ControlBackend, ControlEvent } from './control-backend.js';
import { originRoutes, type OriginControl } from './origin-routes.js';
import { presenceRoutes, type PresenceControl } from './presence-routes.js';
import {
  InvalidRequest,
  parseEmpty,
  parseId,
  parseLogin,
  parseRequestToJoin,
  parseSendInvite,
  parseSnowflake,
} from './control-schemas.js';

/** Same shape as the host's pino logger and the RPC server's logger. */
export interface ControlLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ControlServerOptions {
  readonly backend: ControlBackend;
  /** Bearer token clients must send; default 32 random bytes, base64url. */
  readonly token?: string;
  readonly logger?: ControlLogger;
  /** A loopback address (default 127.0.0.1); anything else is refused. */
  readonly host?: string;
  /** Comment line on idle event streams (default 15 s), so proxies and clients see a live stream. */
  readonly heartbeatMs?: number;
  /** Request body limit in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Routes a front end adds (QA mode mounts `/v1/inject/...` here); absent: none. */
  readonly extraRoutes?: readonly ControlRouteEntry[];
  /** Web origins of the RPC WebSocket (`/v1/origin-requests`, `/v1/origins`); absent: those routes do not exist. */
  readonly origins?: OriginControl;
  /** Presence arbitration, privacy and relay outcomes (`/v1/presence`); absent: those routes do not exist. */
  readonly presence?: PresenceControl;
}

export interface ControlServer {
  /** `http://127.0.0.1:PORT`, without the token. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** The local RPC's WebSocket ports: clients probe them, so nothing else of ours may sit there. */
export const RPC_PORT_RANGE = { first: 6463, last: 6472 } as const;
export const MAX_BODY_BYTES = 64 * 1024;
export const SSE_HEARTBEAT_MS = 15_000;
/** An event stream whose client reads slower than this much backlog is dropped. */
const MAX_SSE_BACKLOG_BYTES = 1024 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

export function isReservedPort(port: number): boolean {
  return port >= RPC_PORT_RANGE.first && port <= RPC_PORT_RANGE.last;
}

export interface Listening {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listens on an OS-chosen port outside the RPC range. A listener that got a reserved port is
 * kept open until a good one is found, so the OS cannot hand the same port back, then closed.
 */
export async function listenOutsideReserved<T extends Listening>(listen: () => Promise<T>, attempts = 16): Promise<T> {
  const rejected: T[] = [];
  try {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const listening = await listen();
      if (!isReservedPort(listening.port)) return listening;
      rejected.push(listening);
    }
    throw new Error(`no port outside ${RPC_PORT_RANGE.first}-${RPC_PORT_RANGE.last} after ${attempts} attempts`);
  } finally {
    await Promise.all(rejected.map((listening) => listening.close()));
  }
}

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** An error the HTTP layer answers itself, before or instead of the backend. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export interface RequestContext {
  readonly params: Readonly<Record<string, string>>;
  /** Parsed JSON body; `{}` when the request had none. */
  readonly body: unknown;
  /** Strings this request carries that must never be logged (a login token). */
  readonly secrets: string[];
}

export type Handler = (context: RequestContext) => Promise<unknown>;

/** A route as the table lists it: method, pattern, handler. */
export type ControlRouteEntry = [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', pattern: string, handle: Handler];

interface Route {
  readonly method: ControlRouteEntry[0];
  /** Path segments; `:name` captures one segment. */
  readonly segments: readonly string[];
  /** The route's pattern, which is what logs show instead of the requested path. */
  readonly pattern: string;
  readonly handle: Handler | 'events';
}

const OK = { ok: true } as const;

function routes(backend: ControlBackend, extra: readonly ControlRouteEntry[] = []): Route[] {
  const table: [Route['method'], string, Route['handle']][] = [
    ['GET', '/v1/status', async () => backend.status()],
    ['GET', '/v1/games', async () => ({ games: backend.games() })],
    ['GET', '/v1/friends', async () => ({ friends: backend.friends() })],
    ['POST', '/v1/friends/:user_id/join', async ({ params, body }) => backend.requestToJoin(parseRequestToJoin(params.user_id ?? '', body))],
    ['GET', '/v1/join-requests', async () => ({ join_requests: backend.joinRequests() })],
    ['POST', '/v1/join-requests/:id/accept', async ({ params, body }) => {
      parseEmpty(body);
      await backend.acceptJoinRequest(parseId(params.id ?? '', 'id'));
      return OK;
    }],
    ['POST', '/v1/join-requests/:id/decline', async ({ params, body }) => {
      parseEmpty(body);
      await backend.declineJoinRequest(parseId(params.id ?? '', 'id'));
      return OK;
    }],
    ['GET', '/v1/invites', async () => ({ invites: backend.invites() })],
    ['POST', '/v1/invites', async ({ body }) => backend.sendInvite(parseSendInvite(body))],
    ['POST', '/v1/invites/:id/accept', async ({ params, body }) => {
      parseEmpty(body);
      return backend.acceptInvite(parseId(params.id ?? '', 'id'));
    }],
    ['POST', '/v1/invites/:id/decline', async ({ params, body }) => {
      parseEmpty(body);
      await backend.declineInvite(parseId(params.id ?? '', 'id'));
      return { declined: true };
    }],
    ['GET', '/v1/account', async () => ({ account: backend.status().account })],
    ['POST', '/v1/account/login', async ({ body, secrets }) => {
      const input = parseLogin(body);
      if ('token' in input) secrets.push(input.token);
      return { account: await backend.login(input) };
    }],
    ['POST', '/v1/account/logout', async ({ body }) => {
      parseEmpty(body);
      await backend.logout();
      return OK;
    }],
    ['GET', '/v1/consent', async () => ({ consent_requests: backend.consentRequests() })],
    ['POST', '/v1/consent/:id/approve', async ({ params, body }) => {
      parseEmpty(body);
      await backend.approveConsent(parseId(params.id ?? '', 'id'));
      return OK;
    }],
    ['POST', '/v1/consent/:id/deny', async ({ params, body }) => {
      parseEmpty(body);
      await backend.denyConsent(parseId(params.id ?? '', 'id'));
      return OK;
    }],
    ['GET', '/v1/grants', async () => ({ grants: await backend.grants() })],
    ['DELETE', '/v1/grants/:application_id', async ({ params }) => {
      await backend.revokeGrant(parseSnowflake(params.application_id ?? '', 'application_id'));
      return OK;
    }],
    ['POST', '/v1/games/:application_id/authorize-request', async ({ params, body }) => {
      const applicationId = parseSnowflake(params.application_id ?? '', 'application_id');
      parseEmpty(body);
      return backend.sendAuthorizeRequest(applicationId);
    }],
    ['GET', '/v1/events', 'events'],
  ];
  return [...table, ...extra].map(([method, pattern, handle]) => ({ method, pattern, segments: pattern.split('/').slice(1), handle }));
}

function matchSegments(route: Route, segments: readonly string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of route.segments.entries()) {
    const actual = segments[index] as string;
    if (expected.startsWith(':')) params[expected.slice(1)] = actual;
    else if (expected !== actual) return undefined;
  }
  return params;
}

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

/** The status a backend error asks for, when it carries a usable one. */
function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

function errorCode(error: unknown, status: number): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  if (typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code)) return code;
  return STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
}

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message !== '' ? error.message : 'request failed';
}

/** Replaces every known secret in a string, for log fields built from error texts. */
function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * Starts the control API: JSON over HTTP on loopback, every request authenticated with
 * `Authorization: Bearer <token>`. It serves the UI and QA tools; the host's state is
 * reached only through `backend`.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const { backend } = options;
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) throw new Error('the control API listens on loopback only');
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (token.length < 16 || /\s/.test(token)) throw new Error('the control token needs at least 16 characters and no spaces');
  const logger = options.logger ?? silentLogger;
  const heartbeatMs = options.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit on a prefix.
  const tokenDigest = createHash('sha256').update(token).digest();
  const table = routes(backend, [
    ...(options.extraRoutes ?? []),
    ...(options.origins === undefined ? [] : originRoutes(options.origins)),
    ...(options.presence === undefined ? [] : presenceRoutes(options.presence)),
  ]);
  const streams = new Set<() => void>();

  function authorized(header: string | undefined): boolean {
    const match = header === undefined ? null : /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (match === null) return false;
    return timingSafeEqual(createHash('sha256').update(match[1] ?? '').digest(), tokenDigest);
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

  /** Reads the body within the limit; `{}` when there is none. */
  async function readBody(req: IncomingMessage): Promise<unknown> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) throw new HttpError(413, 'payload_too_large', `body over ${maxBodyBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBodyBytes) throw new HttpError(413, 'payload_too_large', `body over ${maxBodyBytes} bytes`);
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

  function openEvents(res: ServerResponse): void {
    let next = 0;
    let closed = false;
    const write = (text: string): void => {
      if (closed) return;
      res.write(text);
      // A client that stopped reading would make us buffer every later event.
      if (res.writableLength > MAX_SSE_BACKLOG_BYTES) {
        logger.warn({ route: '/v1/events' }, 'control API: event stream dropped, client too slow');
        res.destroy();
      }
    };
    const onEvent = (event: ControlEvent): void => {
      let data: string;
      try {
        data = JSON.stringify(event.data ?? null) ?? 'null';
      } catch {
        logger.warn({ route: '/v1/events', type: String(event.type) }, 'control API: event data is not JSON, skipped');
        return;
      }
      // The type becomes an `event:` line: no line breaks may reach the stream.
      const type = String(event.type).replace(/[\r\n]/g, ' ');
      next++;
      write(`id: ${next}\nevent: ${type}\ndata: ${data}\n\n`);
    };
    const unsubscribe = backend.subscribe(onEvent);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
      'X-Accel-Buffering': 'no',
    });
    // A first comment sends the headers now, so the client knows the stream is open.
    res.write(': connected\n\n');
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
    heartbeat.unref();
    const stop = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(stop);
      res.end();
    };
    streams.add(stop);
    // The response closes when the client goes away (or the server ends the stream).
    res.on('close', stop);
  }

  interface Trace {
    pattern: string;
    /** Strings that must never be logged: the control token and this request's login token. */
    readonly secrets: string[];
  }

  async function handle(req: IncomingMessage, res: ServerResponse, trace: Trace): Promise<void> {
    if (!authorized(req.headers.authorization)) {
      throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token', { 'WWW-Authenticate': 'Bearer' });
    }
    const path = new URL(req.url ?? '/', 'http://control.invalid').pathname;
    let segments: string[];
    try {
      segments = path.split('/').slice(1).map((segment) => decodeURIComponent(segment));
    } catch {
      throw new HttpError(400, 'invalid_request', 'path: bad percent-encoding');
    }
    const matches = table
      .map((route) => ({ route, params: matchSegments(route, segments) }))
      .filter((match): match is { route: Route; params: Record<string, string> } => match.params !== undefined);
    if (matches.length === 0) throw new HttpError(404, 'not_found', 'no such route');
    const match = matches.find(({ route }) => route.method === req.method);
    if (match === undefined) {
      const allow = [...new Set(matches.map(({ route }) => route.method))].join(', ');
      throw new HttpError(405, 'method_not_allowed', `method not allowed here (allowed: ${allow})`, { Allow: allow });
    }
    trace.pattern = match.route.pattern;
    if (match.route.handle === 'events') {
      openEvents(res);
      return;
    }
    const body = req.method === 'POST' || req.method === 'PATCH' ? await readBody(req) : {};
    const output = await match.route.handle({ params: match.params, body, secrets: trace.secrets });
    sendJson(res, 200, output);
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = Date.now();
    const trace: Trace = { pattern: 'unmatched', secrets: [token] };
    handle(req, res, trace)
      .catch((error: unknown) => respondWithError(req, res, error, trace))
      .finally(() => {
        // Only the method, the route pattern and the status: never headers, paths or bodies.
        logger.debug({ method: req.method, route: trace.pattern, status: res.statusCode, ms: Date.now() - started }, 'control API request');
      })
      .catch(() => undefined);
  }

  function respondWithError(
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
    trace: Trace,
  ): void {
    let status: number;
    let body: { error: string; message: string };
    let headers: Readonly<Record<string, string>> = {};
    if (error instanceof HttpError) {
      status = error.status;
      body = { error: error.code, message: error.message };
      headers = error.headers;
    } else if (error instanceof InvalidRequest) {
      status = 400;
      body = { error: 'invalid_request', message: error.message };
    } else {
      const requested = errorStatus(error);
      status = requested ?? 500;
      body = requested === undefined
        ? { error: 'internal_error', message: 'internal error' }
        : { error: errorCode(error, requested), message: errorMessage(error) };
      if (status >= 500) {
        const name = error instanceof Error ? error.name : typeof error;
        const message = redact(errorMessage(error), trace.secrets);
        const stack = error instanceof Error && error.stack !== undefined ? redact(error.stack, trace.secrets) : undefined;
        logger.error({ method: req.method, route: trace.pattern, status, error: { name, message, stack } }, 'control API: backend failed');
      }
    }
    if (!req.complete) {
      // The rest of the body is not wanted: read it off so the client gets the answer, then close.
      headers = { ...headers, Connection: 'close' };
      req.resume();
    }
    sendJson(res, status, body, headers);
  }

  const listening = await listenOutsideReserved(async () => {
    const server = createServer(onRequest);
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
  });

  const { server, port } = listening;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  logger.info({ port }, 'control API listening');
  return {
    url: `http://${urlHost}:${port}`,
    port,
    token,
    close: async () => {
      for (const stop of [...streams]) stop();
      await closeServer(server);
    },
  };
}
