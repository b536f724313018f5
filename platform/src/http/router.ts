import type { IncomingMessage } from 'node:http';
import type { WindowLimit } from '../limits.js';
import type { UserRecord } from '../state/model.js';

export interface RequestContext {
  readonly method: string;
  /** The path below the API prefix, e.g. `/users/@me`. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly request: IncomingMessage;
  /** Parsed JSON body (`{}` when empty). */
  readonly body: unknown;
  /** Set on routes with user auth. */
  readonly user: UserRecord | undefined;
  readonly ip: string;
}

export interface RouteResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Auth = 'none' | 'user' | 'admin';

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Segments; `:name` captures one. */
  readonly pattern: string;
  readonly auth: Auth;
  readonly rateLimit?: { readonly bucket: string; readonly limit: () => WindowLimit; readonly by: 'user' | 'ip' };
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
