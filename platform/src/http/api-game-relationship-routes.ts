import * as v from 'valibot';
import { AccessRefusal } from '../access/access-refusal.js';
import { RelationshipError } from '../relationships/relationship-service.js';
import { me, noContent, parseBody, refusalsAs } from './api-kit.js';
import { plainObject } from './body-schemas.js';
import type { HttpDeps } from './deps.js';
import { ApiError, invalidField, missingAccess, unknownUser } from './errors.js';
import { GAME_SCOPES } from './game-scopes.js';
import type { RequestContext, Route, RouteResult } from './router.js';

/** Whether the policy lets the caller know the user. */
function known(deps: HttpDeps, ctx: RequestContext, userId: string): boolean {
  try {
    deps.policy.user(ctx.caller, userId);
    return true;
  } catch (error) {
    if (error instanceof AccessRefusal) return false;
    throw error;
  }
}

/** The real API's code for a friend request to a username nobody has. */
const UNKNOWN_USERNAME = 80004;
const SELF_REQUEST = 80003;
/** The public docs' code for an account of the wrong type (a provisional one), as their unmerge answers it. */
const INVALID_USER_TYPE = 50229;

/** `POST /users/@me/relationships` (the real API's) and `POST /users/@me/game-relationships` **(ours)**: a request by unique username. */
const ByNameBody = plainObject({
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  /** Sent by older clients; ignored (usernames are unique). */
  discriminator: v.optional(v.nullable(v.union([v.string(), v.number()]))),
});

/** `PUT /users/@me/game-relationships/{id}`: no fields (blocking is platform-wide: `PUT /users/@me/relationships/{id}` `{type: 2}`). */
const GameRequestBody = plainObject({});

/** A relationship change's answer: 204, or the API error of its refusal (`field`: what names the other user). */
export function relationshipAnswer(field: 'id' | 'username', work: () => void): RouteResult {
  return refusalsAs(RelationshipError, (error) => relationshipErrorToApi(error, field))(() => (work(), noContent));
}

function relationshipErrorToApi(error: RelationshipError, field: 'id' | 'username'): ApiError {
  if (error.reason === 'unknown_user') return unknownUser();
  if (error.reason === 'unknown_username') return new ApiError(400, UNKNOWN_USERNAME, error.message);
  if (error.reason === 'blocked') return missingAccess();
  if (error.reason === 'provisional') return new ApiError(400, INVALID_USER_TYPE, error.message);
  // By username, as the real API: a request to yourself is 80003.
  if (error.reason === 'self' && field === 'username') return new ApiError(400, SELF_REQUEST, 'Cannot send friend request to self');
  return invalidField(field, 'BASE_TYPE_BAD', error.message);
}

/** The application of the game token the request came with (these routes take only Bearer tokens). */
function gameOf(ctx: RequestContext): string {
  return ctx.oauth?.applicationId ?? '';
}

function target(ctx: RequestContext): string {
  return ctx.params.id as string;
}

/**
 * Friend requests by username (platform-wide, as the real API takes them), and game
 * relationships **(ours: the routes; the public record does not show the Social SDK's)**:
 * friendships and requests within the application of the game's token, which alone may use
 * them (a user token: 401; scopes as `PUT /users/@me/relationships/{id}`).
 */
/** One bucket per user for every relationship change (requests by id or username, removals): usernames cannot be probed at speed **(ours)**. */
export function relationshipRateLimit(deps: Pick<HttpDeps, 'limits'>): NonNullable<Route['rateLimit']> {
  return { bucket: 'relationship-change', limit: () => deps.limits.http.relationshipChange, by: 'user' };
}

export function gameRelationshipRoutes(deps: HttpDeps): Route[] {
  const { relationships } = deps;
  // A username names a user the caller may know (access/policy.ts): another game's provisional account has no username here.
  const named = (ctx: RequestContext): string => {
    const id = relationships.userIdByName(parseBody(ByNameBody, ctx.body).username);
    if (!known(deps, ctx, id)) throw new RelationshipError('unknown_username', 'No users with DiscordTag exist');
    return id;
  };
  const rateLimit = relationshipRateLimit(deps);
  const game = { auth: 'bearer' as const, bearerScopes: GAME_SCOPES.relationshipsWrite, rateLimit };
  return [
    {
      method: 'POST',
      pattern: '/users/@me/relationships',
      access: {},
      auth: 'user',
      bearerScopes: GAME_SCOPES.relationshipsWrite,
      rateLimit,
      handle: (ctx) => relationshipAnswer('username', () => relationships.request(me(ctx).id, named(ctx))),
    },
    {
      method: 'POST',
      pattern: '/users/@me/game-relationships',
      access: {},
      ...game,
      handle: (ctx) => relationshipAnswer('username', () => relationships.game.request(gameOf(ctx), me(ctx).id, named(ctx))),
    },
    {
      method: 'PUT',
      pattern: '/users/@me/game-relationships/:id',
      access: { id: 'user' },
      ...game,
      handle: (ctx) =>
        relationshipAnswer('id', () => {
          parseBody(GameRequestBody, ctx.body);
          relationships.game.request(gameOf(ctx), me(ctx).id, target(ctx));
        }),
    },
    {
      method: 'DELETE',
      pattern: '/users/@me/game-relationships/:id',
      access: { id: 'user' },
      ...game,
      handle: (ctx) => relationshipAnswer('id', () => relationships.game.remove(gameOf(ctx), me(ctx).id, target(ctx))),
    },
  ];
}
