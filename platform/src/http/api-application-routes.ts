import type { RpcApplication } from '../wire/index.js';
import { ok } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import { unknownApplication } from './errors.js';
import type { Route } from './router.js';

/** What RPC clients learn of an application. */
function rpcApp(deps: HttpDeps, id: string): RpcApplication {
  const app = deps.resolveApp(id);
  if (app === undefined) throw unknownApplication();
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

/** Public facts of applications: their RPC view and their assets. */
export function applicationRoutes(deps: HttpDeps): Route[] {
  return [
    { method: 'GET', pattern: '/oauth2/applications/:id/rpc', auth: 'none', handle: (ctx) => ok(rpcApp(deps, ctx.params.id as string)) },
    {
      method: 'GET',
      pattern: '/oauth2/applications/:id/assets',
      auth: 'none',
      handle: (ctx) => {
        const app = deps.resolveApp(ctx.params.id as string);
        if (app === undefined) throw unknownApplication();
        return ok(app.assets);
      },
    },
  ];
}
