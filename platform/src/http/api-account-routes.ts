import { GuildListQuery, userGuilds } from '../users/user-guilds.js';
import { visibleConnections } from '../users/connections.js';
import { me, ok, parseBody } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import type { Route } from './router.js';

/**
 * What the signed-in user's account lists about itself: its connected accounts (with the dated
 * rules of the game-publisher connections, judged by the emulator's clock) and its guilds.
 */
export function accountRoutes(deps: HttpDeps): Route[] {
  const { store } = deps;
  return [
    {
      method: 'GET',
      pattern: '/users/@me/connections',
      access: {},
      auth: 'user',
      bearerScopes: ['connections'],
      handle: (ctx) => ok(visibleConnections(store.connectionsOf(me(ctx).id), deps.now())),
    },
    {
      method: 'GET',
      pattern: '/users/@me/guilds',
      access: {},
      auth: 'user',
      bearerScopes: ['guilds'],
      handle: (ctx) => {
        const query = parseBody(GuildListQuery, Object.fromEntries(ctx.query));
        const userId = me(ctx).id;
        return ok(userGuilds({ userId, guilds: store.guildsOf(userId), query, online: (id) => deps.presence.view(id) !== undefined }));
      },
    },
  ];
}
