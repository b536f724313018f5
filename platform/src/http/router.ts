import type { IncomingMessage } from 'node:http';
import type { BucketScope } from '../access/caller.js';
import type { WindowLimit } from '../support/limits.js';
import type { AppRecord, UserRecord } from '../state/model.js';
import type { BearerAuth } from '../oauth/bearer-auth.js';
import type { Caller } from '../access/caller.js';
import type { Resolved } from '../access/policy.js';
import type { RouteAccess } from '../access/route-access.js';

export type { BearerAuth };

export interface RequestContext {
  readonly method: string;
  /** The path below the API prefix, e.g. `/users/@me`. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly request: IncomingMessage;
  /** Parsed JSON body (`{}` when empty); undefined on `body: 'raw'` routes. */
  readonly body: unknown;
  /** The body as sent (UTF-8). */
  readonly rawBody: string;
  /** The request's Content-Type, lower case, without parameters. */
  readonly contentType: string | undefined;
  /** Set on routes with user auth (also when the user came with an OAuth2 Bearer token). */
  readonly user: UserRecord | undefined;
  /** Set when the request carried an OAuth2 Bearer token. */
  readonly oauth: BearerAuth | undefined;
  /** Set on `bot` and `bearer-or-bot` routes when the request carried an application's bot token. */
  readonly bot?: AppRecord | undefined;
  readonly ip: string;
  /** Who is asking (access/caller.ts), resolved once from the credentials. */
  readonly caller: Caller;
  /** What the access policy resolved for the route's declared params (`access`). */
  readonly resolved: Resolved;
}

export interface RouteResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** A non-JSON answer (e.g. an HTML page): sent as is with `contentType`. */
  readonly text?: string;
  readonly contentType?: string;
}

/** `bearer`: an OAuth2 Bearer token only. `bot`: an application's bot token only. `bearer-or-bot`: either. */
export type Auth = 'none' | 'user' | 'admin' | 'bearer' | 'bot' | 'bearer-or-bot';

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Segments; `:name` captures one. */
  readonly pattern: string;
  readonly auth: Auth;
  readonly rateLimit?: { readonly bucket: string; readonly limit: () => WindowLimit; readonly by: BucketScope };
  /**
   * On `user` routes: a Bearer token is accepted too when it holds one of these scopes (else
   * 403 50026). Without it, Bearer tokens get 401.
   */
  readonly bearerScopes?: readonly string[];
  /**
   * What each `:param` names (access/route-access.ts): the access policy resolves it before
   * the handler runs. Required of every route but the admin's (the handler refuses a table
   * without it); `{}` for a route that names nothing.
   */
  readonly access?: RouteAccess;
  /**
   * How the route refuses a banned account's token (the handler refuses it on every route):
   * by default 401 as an invalid token; the OAuth2 authorize routes answer in OAuth2's form.
   */
  readonly bannedAnswer?: () => Error;
  /** `raw`: the body is not parsed as JSON (the route reads `rawBody`). */
  readonly body?: 'json' | 'raw';
  handle(ctx: RequestContext): RouteResult | Promise<RouteResult>;
}

export type Match = { kind: 'found'; route: Route; params: Record<string, string> } | { kind: 'method' } | { kind: 'none' };

/** Finds the route for a method and path; `method` when the path exists with other methods. */
export function matchRoute(routes: readonly Route[], method: string, path: string): Match {
  const segments = splitPath(path);
  let pathMatched = false;
  for (const route of routes) {
    const params = matchPattern(splitPath(route.pattern), segments);
    if (params === undefined) continue;
    if (route.method === method) return { kind: 'found', route, params };
    pathMatched = true;
  }
  return pathMatched ? { kind: 'method' } : { kind: 'none' };
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchPattern(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const want = pattern[i] as string;
    const got = segments[i] as string;
    if (want.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(got);
      } catch {
        return undefined;
      }
      params[want.slice(1)] = value;
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}
