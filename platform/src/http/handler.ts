import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import type { AppRecord } from '../state/model.js';
import { StateError, type Store } from '../state/store.js';
import { OAuthError } from '../oauth/errors.js';
import { AccessRefusal } from '../access/access-refusal.js';
import { bucketOwner } from '../access/caller.js';
import type { AccessPolicy } from '../access/policy.js';
import { accessProblems } from '../access/route-access.js';
import { ApiError, ErrorCode, invalidField, invalidJson, methodNotAllowed, notFoundRoute, refusalToApi } from './errors.js';
import { HttpRateLimiter } from './rate-limit.js';
import { BodyTooLarge, refusalBeforeRouting, refusalOfContentType } from './request-checks.js';
import { RequestAuthenticator } from './authenticator.js';
import { matchRoute, type BearerAuth, type Route, type RouteResult } from './router.js';

/**
 * Where the API is served. `/v10` and `/v9` at the root too **(ours)**: a native SDK's API base
 * may be the site (`https://127.0.0.1:PORT`, paths `/api/v10/...`) or its API (paths `/v10/...`);
 * the public record does not say which, so either works.
 */
const API_PREFIXES = ['/api/v10', '/api/v9', '/api', '/v10', '/v9'] as const;
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
  const authenticator = new RequestAuthenticator(options);
  // A route that does not say what its params name cannot be served: the policy could not see it.
  // Under /_emulator too: only the admin's own routes (the admin token) go without a rule.
  const problems = accessProblems([...options.apiRoutes, ...options.rootRoutes, ...options.adminRoutes]);
  if (problems.length > 0) throw new Error(`routes without access rules: ${problems.join('; ')}`);
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
    const { user, oauth, bot, caller } = authenticator.authenticate(route, request);
    // The global limit of a bot token comes before anything the request asks for.
    const overBotLimit = bot === undefined ? undefined : botLimitRefusal(limiter, bot, options, route.pattern);
    if (overBotLimit !== undefined) return { result: overBotLimit, route: route.pattern };
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
    let result: RouteResult;
    try {
      result = await route.handle({ method, path, params: match.params, query: url.searchParams, request, body, rawBody, contentType, user, oauth, bot, ip, caller, resolved });
    } catch (error) {
      // A refusal of a limited route carries its rate-limit headers as any other answer does.
      result = errorResult(error, options.logger);
    }
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

/** Every request with a bot token counts in its application's global limit: the 429 when over it. */
function botLimitRefusal(limiter: HttpRateLimiter, bot: AppRecord, options: Pick<HandlerOptions, 'limits' | 'logger'>, route: string): RouteResult | undefined {
  const outcome = limiter.take('bot-requests', `app:${bot.id}`, options.limits.http.botRequests, 'global');
  if (outcome.allowed) return undefined;
  options.logger.debug({ route, applicationId: bot.id, bucket: 'bot-requests' }, 'http rate limited');
  return { status: 429, body: outcome.body, headers: outcome.headers };
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
