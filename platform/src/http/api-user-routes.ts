import * as v from 'valibot';
import { toPlatformUser } from '../state/store.js';
import { GatewayEvent, RelationshipType } from '../wire/index.js';
import { me, ok, parseBody } from './api-kit.js';
import { plainObject } from './body-schemas.js';
import { relationshipAnswer, relationshipRateLimit } from './api-game-relationship-routes.js';
import type { HttpDeps } from './deps.js';
import { ApiError, unknownUser } from './errors.js';
import { GAME_SCOPES } from './game-scopes.js';
import type { RequestContext, Route, RouteResult } from './router.js';

/** `PUT /users/@me/relationships/{id}`: no type (a friend request, or accepting theirs) or type 2 (block). */
const RelationshipBody = plainObject({ type: v.optional(v.picklist([1, 2])) });

const OpenDmBody = plainObject({ recipient_id: v.string() });

/** `POST /users/@me/channels`: the DM channel with a user, created (and announced to both) if new. */
function openDm(deps: HttpDeps, ctx: RequestContext): RouteResult {
  const { store } = deps;
  const { recipient_id: recipientId } = parseBody(OpenDmBody, ctx.body);
  const user = me(ctx);
  if (store.user(recipientId) === undefined || recipientId === user.id) throw unknownUser();
  deps.policy.user(ctx.caller, recipientId);
  deps.policy.mayMessage(user.id, recipientId);
  const { channel, created } = store.openDm(user.id, recipientId);
  const view = store.toPlatformChannel(channel);
  if (created) {
    for (const id of [user.id, recipientId]) deps.dispatcher.dispatchToUser(id, GatewayEvent.ChannelCreate, view);
  }
  return ok(view);
}

/** The signed-in user, their friends and DM channels, and other users (their guilds and connections: api-account-routes.ts). */
const DisplayNameBody = plainObject({ global_name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(32)) });

/**
 * A provisional account's display name, set by its game (the Social SDK's
 * UpdateProvisionalAccountDisplayName) **(ours: the route)**: `{global_name}` (1-32 characters
 * once trimmed); a full account's token → 400 530010. The account's own sessions get USER_UPDATE.
 */
function renameProvisional(deps: HttpDeps, ctx: RequestContext): RouteResult {
  const user = me(ctx);
  const body = parseBody(DisplayNameBody, ctx.body);
  if (user.provisional !== true) throw new ApiError(400, 530010, 'The user account is not provisional: its name is its own to change');
  user.global_name = body.global_name;
  deps.store.touched();
  const view = toPlatformUser(user);
  deps.dispatcher.dispatchToUser(user.id, GatewayEvent.UserUpdate, view);
  return ok(view);
}

export function userRoutes(deps: HttpDeps): Route[] {
  const { store } = deps;
  return [
    { method: 'GET', pattern: '/users/@me', access: {}, auth: 'user', bearerScopes: ['identify'], handle: (ctx) => ok(toPlatformUser(me(ctx))) },
    { method: 'PATCH', pattern: '/users/@me', access: {}, auth: 'user', bearerScopes: ['application_identities.write'], handle: (ctx) => renameProvisional(deps, ctx) },
    {
      method: 'GET',
      pattern: '/users/@me/relationships',
      access: {},
      auth: 'user',
      bearerScopes: GAME_SCOPES.relationships,
      // A game's token also sees each user's game relationship in its application (game_relationship_type).
      handle: (ctx) => ok(deps.relationships.list(me(ctx).id, ctx.oauth?.applicationId)),
    },
    {
      method: 'PUT',
      pattern: '/users/@me/relationships/:id',
      access: { id: 'user' },
      rateLimit: relationshipRateLimit(deps),
      auth: 'user',
      bearerScopes: GAME_SCOPES.relationshipsWrite,
      handle: (ctx) =>
        relationshipAnswer('id', () => {
          const { type } = parseBody(RelationshipBody, ctx.body);
          if (type === RelationshipType.Blocked) {
            deps.relationships.block(me(ctx).id, ctx.params.id as string);
            return;
          }
          // A friend request reaches the user (a banned account takes none); a block only names them.
          deps.policy.user(ctx.caller, ctx.params.id as string, 'reach');
          deps.relationships.request(me(ctx).id, ctx.params.id as string);
        }),
    },
    {
      method: 'DELETE',
      pattern: '/users/@me/relationships/:id',
      access: { id: 'user' },
      rateLimit: relationshipRateLimit(deps),
      auth: 'user',
      bearerScopes: GAME_SCOPES.relationshipsWrite,
      handle: (ctx) => relationshipAnswer('id', () => deps.relationships.remove(me(ctx).id, ctx.params.id as string)),
    },
    {
      method: 'GET',
      pattern: '/users/@me/channels',
      access: {},
      auth: 'user',
      bearerScopes: GAME_SCOPES.dmRead,
      // The public DM channel object's `last_message_id` (null when empty): a game's inbox (GetUserMessageSummaries) sorts by it.
      handle: (ctx) => ok(store.dmChannels(me(ctx).id).map((channel) => ({ ...store.toPlatformChannel(channel), last_message_id: store.messages(channel.id, 1)[0]?.id ?? null }))),
    },
    { method: 'POST', pattern: '/users/@me/channels', access: {}, auth: 'user', bearerScopes: GAME_SCOPES.dmWrite, handle: (ctx) => openDm(deps, ctx) },
    {
      method: 'GET',
      pattern: '/users/:id',
      access: { id: 'user' },
      auth: 'user',
      handle: (ctx) => {
        const user = store.user(ctx.params.id as string);
        if (user === undefined) throw unknownUser();
        return ok(toPlatformUser(user));
      },
    },
  ];
}
