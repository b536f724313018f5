import { accountRoutes } from './api-account-routes.js';
import { applicationRoutes } from './api-application-routes.js';
import { detectableRoutes } from './api-detectable-routes.js';
import { dmEditRoutes } from './api-dm-edit-routes.js';
import { gameRelationshipRoutes } from './api-game-relationship-routes.js';
import { lobbyRoutes } from './api-lobby-routes.js';
import { lobbyLinkRoutes } from './api-lobby-link-routes.js';
import { guildRoutes } from './api-guild-routes.js';
import { messageRoutes } from './api-message-routes.js';
import { sessionRoutes } from './api-session-routes.js';
import { userRoutes } from './api-user-routes.js';
import type { HttpDeps } from './deps.js';
import type { Route } from './router.js';

export { inviteErrorToApi, parseBody } from './api-kit.js';
export { toPlatformMessage } from '../invites/dm-messages.js';

/**
 * The routes under /api, /api/v9 and /api/v10, one table per concern. The first route whose
 * pattern and method match answers, so `/users/@me...` come before `/users/:id`.
 */
export function apiRoutes(deps: HttpDeps): Route[] {
  return [...sessionRoutes(deps), ...accountRoutes(deps), ...userRoutes(deps), ...gameRelationshipRoutes(deps), ...guildRoutes(deps), ...messageRoutes(deps), ...dmEditRoutes(deps), ...applicationRoutes(deps), ...detectableRoutes(deps), ...lobbyRoutes(deps), ...lobbyLinkRoutes({ limits: deps.limits, store: deps.store, lobbies: deps.lobbies, invites: deps.lobbyInvites, now: deps.now })];
}
