import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import type { AppRecord, UserRecord } from '../state/model.js';
import { StateError, type Store } from '../state/store.js';
import { OAuthError } from '../oauth/errors.js';
import { AccessRefusal } from '../access/access-refusal.js';
import { bucketOwner, type Caller } from '../access/caller.js';
import type { AccessPolicy } from '../access/policy.js';
import { accessProblems } from '../access/route-access.js';
import { ApiError, ErrorCode, invalidField, invalidJson, methodNotAllowed, missingOAuthScope, notFoundRoute, refusalToApi, unauthorized } from './errors.js';
import { HttpRateLimiter } from './rate-limit.js';
import { BodyTooLarge, refusalBeforeRouting, refusalOfContentType } from './request-checks.js';
import { matchRoute, type BearerAuth, type Route, type RouteResult } from './router.js';

const API_PREFIXES = ['/api/v10', '/api/v9', '/api'] as const;
const ADMIN_PREFIX = '/_emulator';

export interface HandlerOptions {
  readonly apiRoutes: readonly Route[];
  readonly adminRoutes: readonly Route[];
  /** Routes outside `/api` and `/_emulator` (the browser authorize page, OIDC discovery). */
  readonly rootRoutes: readonly Route[];
  /** What an OAuth2 access token stands for; undefined when it is unknown, expired or revoked. */
  readonly bearer: (token: string) => BearerAuth | undefined;
  readonly store: Store;
  /** Who may see and change what: every route's declared params go through it. */
  readonly policy: AccessPolicy;
  readonly adminToken: string;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

/**
 * The HTTP API and admin routes: the loopback checks (request-checks.ts), auth, JSON bodies,
 * rate limits and error bodies.
 */
export function createRequestHandler(options: HandlerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const limiter = new HttpRateLimiter(options.now);
  const adminToken = Buffer.from(options.adminToken);
  // A route that does not say what its params name cannot be served: the policy could not see it.
  // Under /_emulator too: only the admin's own routes (the admin token) go without a rule.
  const problems = accessProblems([...options.apiRoutes, ...options.rootRoutes, ...options.adminRoutes]);
  if (problems.length > 0) throw new Error(`routes without access rules: ${problems.join('; ')}`);
  // A ban ends every token of the account, user tokens included, on every route.
  const usable = (route: Route, user: UserRecord): UserRecord => {
    if (options.store.ban(user.id) !== undefined) throw route.bannedAnswer?.() ?? unauthorized();
    return user;
  };

  const authenticate = (route: Route, request: IncomingMessage): Credentials => {
    const header = request.headers.authorization;
    if (route.auth === 'none') return ANONYMOUS;
    if (header === undefined) throw unauthorized();
    if (route.auth === 'bot' || route.auth === 'bearer-or-bot') {
      if (header.startsWith('Bot ')) {
        const app = appByBotToken(options.store, header.slice(4).trim());
        if (app === undefined) throw unauthorized();
        return { bot: app, caller: { kind: 'game-server', app } };
      }
      if (route.auth === 'bot') throw unauthorized();
    }
    if (route.auth === 'admin') {
      const given = Buffer.from(header.startsWith('Admin ') ? header.slice(6) : '');
      if (given.length !== adminToken.length || !timingSafeEqual(given, adminToken)) throw unauthorized();
      return ANONYMOUS;
    }
    if (header.startsWith('Bearer ')) {
      if (route.auth !== 'bearer' && route.bearerScopes === undefined) throw unauthorized();
      const oauth = options.bearer(header.slice(7).trim());
      if (oauth === undefined) throw unauthorized();
      const user = usable(route, oauth.user);
      if (route.bearerScopes !== undefined && !route.bearerScopes.some((scope) => oauth.scopes.includes(scope))) throw missingOAuthScope();
      return { user, oauth, caller: { kind: 'game-player', user, applicationId: oauth.applicationId } };
    }
    if (route.auth === 'bearer' || route.auth === 'bearer-or-bot') throw unauthorized();
    const found = options.store.userByToken(header);
    if (found === undefined) throw unauthorized();
    const user = usable(route, found);
    return { user, caller: { kind: 'player', user } };
  };

  const run = async (request: IncomingMessage): Promise<{ result: RouteResult; route?: string; userId?: string }> => {
    const refused = refusalBeforeRouting(request, options.limits.maxHttpBodyBytes);
    if (refused !== undefined) throw refused;
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    let routes: readonly Route[] | undefined;
    let path = url.pathname;
    if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
      routes = options.adminRoutes;
    } else {
      const prefix = API_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
      if (prefix !== undefined) {
        routes = options.apiRoutes;
        path = path.slice(prefix.length) || '/';
      } else {
        routes = options.rootRoutes;
      }
    }
    const match = matchRoute(routes, method, path);
    if (match.kind === 'none') throw notFoundRoute();
    if (match.kind === 'method') throw methodNotAllowed();
    const route = match.route;
    const wrongType = refusalOfContentType(route, request);
    if (wrongType !== undefined) throw wrongType;
    const { user, oauth, bot, caller } = authenticate(route, request);
    const resolved = options.policy.resolve(caller, route.access ?? {}, match.params);
    const ip = request.socket.remoteAddress ?? 'unknown';

    // The body is read before the limiter: a bucket may be the application the body names.
    const rawBody = await readBody(request, options.limits.maxHttpBodyBytes);
    const body = route.body === 'raw' ? undefined : parseJson(rawBody);
    let rateHeaders: Record<string, string> = {};
    if (route.rateLimit !== undefined) {
      const named = route.rateLimit.application?.({ params: match.params, body });
      const outcome = limiter.take(route.rateLimit.bucket, bucketOwner(caller, route.rateLimit.by, ip, named), route.rateLimit.limit());
      if (!outcome.allowed) {
        options.logger.debug({ route: route.pattern, userId: user?.id, bucket: route.rateLimit.bucket }, 'http rate limited');
        return { result: { status: 429, body: outcome.body, headers: outcome.headers }, route: route.pattern };
      }
      rateHeaders = outcome.headers;
    }

    const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    const result = await route.handle({ method, path, params: match.params, query: url.searchParams, request, body, rawBody, contentType, user, oauth, bot, ip, caller, resolved });
    return {
      result: { ...result, headers: { ...rateHeaders, ...result.headers } },
      route: route.pattern,
      ...(user !== undefined ? { userId: user.id } : {}),
    };
  };

  return (request, response) => {
    run(request)
      .catch((error: unknown) => ({ result: errorResult(error, options.logger) }))
      .then(({ result, ...where }) => {
        send(response, result);
        // Only the method, route pattern, status and user id: never headers or bodies.
        options.logger.debug({ method: request.method, ...where, status: result.status }, 'http request');
      })
      .catch((error: unknown) => options.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'http response failed'));
  };
}

/** What a request's credentials stand for. */
interface Credentials {
  readonly user?: UserRecord;
  readonly oauth?: BearerAuth;
  readonly bot?: AppRecord;
  readonly caller: Caller;
}

const ANONYMOUS: Credentials = { caller: { kind: 'anonymous' } };

/** The app whose bot token this is (compared in constant time), or undefined. */
function appByBotToken(store: Store, token: string): AppRecord | undefined {
  const given = Buffer.from(token);
  let found: AppRecord | undefined;
  for (const app of store.apps()) {
    const expected = Buffer.from(app.bot_token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = app;
  }
  return found;
}

function errorResult(error: unknown, logger: PlatformLogger): RouteResult {
  // The rest of the body is not read: the connection closes after the answer.
  if (error instanceof BodyTooLarge) return { status: error.status, body: error.body, headers: { Connection: 'close' } };
  if (error instanceof ApiError) return { status: error.status, body: error.body };
  if (error instanceof AccessRefusal) {
    const api = refusalToApi(error);
    return { status: api.status, body: api.body };
  }
  if (error instanceof OAuthError) {
    return { status: error.status, body: error.body, headers: { 'Cache-Control': 'no-store', ...(error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="oauth2"' } : {}) } };
  }
  if (error instanceof StateError) {
    if (error.kind === 'not_found') return { status: 404, body: { code: ErrorCode.General, message: error.message } };
    return { status: 400, body: invalidField(error.field ?? 'body', error.kind === 'conflict' ? 'ALREADY_EXISTS' : 'BASE_TYPE_BAD', error.message).body };
  }
  logger.error({ error: error instanceof Error ? error.message : String(error) }, 'http handler failed');
  return { status: 500, body: { code: ErrorCode.General, message: '500: Internal Server Error' } };
}

function send(response: ServerResponse, result: RouteResult): void {
  if (response.headersSent) return;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);
  if (result.text !== undefined) {
    response.writeHead(result.status, { 'Content-Type': result.contentType ?? 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(result.text) }).end(result.text);
    return;
  }
  if (result.status === 204 || result.body === undefined) {
    response.writeHead(result.status).end();
    return;
  }
  const text = JSON.stringify(result.body);
  response.writeHead(result.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLarge(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): unknown {
  const text = raw.trim();
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJson();
  }
}
