import type { AppRecord } from '../state/model.js';
import type { RpcApplication } from '../wire/index.js';
import { ok } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import { unknownApplication } from './errors.js';
import { HttpRateLimiter } from './rate-limit.js';
import type { RequestContext, Route, RouteResult } from './router.js';

/** What RPC clients learn of an application. */
function rpcView(app: AppRecord): RpcApplication {
  return {
    id: app.id,
    name: app.name,
    icon: app.icon,
    description: app.description,
    cover_image: app.cover_image,
    verified: app.verified,
    rpc_origins: app.rpc_origins,
  };
}

function known(deps: HttpDeps, id: string): AppRecord {
  const app = deps.resolveApp(id);
  if (app === undefined) throw unknownApplication();
  return app;
}

/**
 * `POST /oauth2/applications/{id}/rpc` **(ours)**: the app's RPC view, registering an unknown id
 * on first use. Only registrations count in the per-user bucket; a known app is always answered.
 */
function registrationRoute(deps: HttpDeps): Route {
  const limiter = new HttpRateLimiter(deps.now);
  return {
    method: 'POST',
    pattern: '/oauth2/applications/:id/rpc',
    access: { id: 'application' },
    auth: 'user',
    handle: (ctx: RequestContext): RouteResult => {
      const id = ctx.params.id as string;
      let headers: Record<string, string> = {};
      if (deps.resolveApp(id) === undefined) {
        const take = limiter.take('application-register', `user:${ctx.user?.id ?? ctx.ip}`, deps.limits.http.appRegister);
        if (!take.allowed) {
          deps.logger.debug({ applicationId: id, userId: ctx.user?.id }, 'application registration rate limited');
          return { status: 429, body: take.body, headers: take.headers };
        }
        headers = take.headers;
      }
      const outcome = deps.apps.register(id);
      if (outcome.kind === 'unknown' || outcome.kind === 'full') throw unknownApplication();
      return { status: outcome.kind === 'registered' ? 201 : 200, body: rpcView(outcome.app), headers };
    },
  };
}

/** Public facts of applications (their RPC view and their assets), and registration on first use. */
export function applicationRoutes(deps: HttpDeps): Route[] {
  return [
    { method: 'GET', pattern: '/oauth2/applications/:id/rpc', access: { id: 'application' }, auth: 'none', handle: (ctx) => ok(rpcView(known(deps, ctx.params.id as string))) },
    registrationRoute(deps),
    { method: 'GET', pattern: '/oauth2/applications/:id/assets', access: { id: 'application' }, auth: 'none', handle: (ctx) => ok(known(deps, ctx.params.id as string).assets) },
  ];
}
