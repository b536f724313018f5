import type { ControlBackend } from './control-backend.js';
import { parseEmpty, parseId, parseLogin, parseRequestToJoin, parseSendInvite, parseSnowflake } from './control-schemas.js';

/** The control API's routes: a table of method, pattern and handler, matched segment by segment. */

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

export interface Route {
  readonly method: ControlRouteEntry[0];
  /** Path segments; `:name` captures one segment. */
  readonly segments: readonly string[];
  /** The route's pattern, which is what logs show instead of the requested path. */
  readonly pattern: string;
  readonly handle: Handler | 'events';
}

const OK = { ok: true } as const;

export function routes(backend: ControlBackend, extra: readonly ControlRouteEntry[] = []): Route[] {
  const table: [Route['method'], string, Route['handle']][] = [
    ['GET', '/v1/status', async () => backend.status()],
    // Connected games, then the games found running (game detection: `detected: true`).
    ['GET', '/v1/games', async () => ({ games: [...backend.games(), ...(backend.detectedGames?.() ?? [])] })],
    // Why each running program is detected or not (`companion doctor`).
    ['GET', '/v1/detection', async () => backend.detectionDiagnosis?.() ?? { state: 'no-scanner', reason: 'this host does not detect games' }],
    // Friend requests both ways and blocks beside the friends (what the desktop client's Friends screen lists).
    ['GET', '/v1/friends', async () => ({ friends: backend.friends(), relationships: backend.relationships() })],
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

export function matchSegments(route: Route, segments: readonly string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of route.segments.entries()) {
    const actual = segments[index] as string;
    if (expected.startsWith(':')) params[expected.slice(1)] = actual;
    else if (expected !== actual) return undefined;
  }
  return params;
}

