import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';
import type { WireUser } from './user-handle.js';
import { RelationshipListSchema } from './wire/http.js';

/**
 * The player's relationships over HTTP with the game's own Bearer token: the list, and the
 * changes of both kinds. Platform-wide ("Discord") ones: `PUT /users/@me/relationships/{id}`
 * (`{}` a request or accepting theirs; `{type: 2}` a block), `DELETE` the same (unfriend,
 * cancel, reject, unblock) and `POST /users/@me/relationships` `{username}`. Game ones, within
 * the token's application **(ours: the routes)**: `PUT` / `DELETE /users/@me/game-relationships/{id}`
 * and `POST /users/@me/game-relationships` `{username}`. Failures reject with a
 * ClientResultError; the token never reaches a message.
 */

/** Which relationships a change is about. */
export type RelationshipKindName = 'discord' | 'game';

/** An entry of `GET /users/@me/relationships` as a game's token gets it. */
export interface WireRelationship {
  readonly id: string;
  /** The platform-wide type (0: none, a game relation only). */
  readonly type: number;
  /** The type in the token's application (0: none). */
  readonly gameType: number;
  readonly user: WireUser;
}

const BLOCKED = 2;

/** A user id as the platform names users (a snowflake); a TypeError otherwise. */
export function requireUserId(userId: unknown): string {
  if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId)) throw new TypeError('userId must be a user id (a snowflake)');
  return userId;
}

function requireUsername(username: unknown): string {
  if (typeof username !== 'string' || username.trim().length === 0 || username.length > 32) throw new TypeError('username must be a unique username of 1-32 characters');
  return username.trim();
}

function base(kind: RelationshipKindName): string {
  return kind === 'discord' ? '/users/@me/relationships' : '/users/@me/game-relationships';
}

/** Every relationship of the player, each other user once (the answer checked against its schema). */
export async function listRelationships(options: BearerCallOptions): Promise<WireRelationship[]> {
  const list = answerOf(RelationshipListSchema, await bearerCall(options, 'GET', '/users/@me/relationships'), 'relationships');
  return list.map((entry) => ({ id: entry.id, type: entry.type, gameType: entry.game_relationship_type ?? 0, user: entry.user ?? { id: entry.id, username: '' } }));
}

/** A friend request of that kind, or accepting theirs. */
export async function sendRequest(options: BearerCallOptions, kind: RelationshipKindName, userId: string): Promise<void> {
  await bearerCall(options, 'PUT', `${base(kind)}/${requireUserId(userId)}`, {});
}

/** A friend request of that kind to the user with that unique username (not a display name), or accepting theirs. */
export async function sendRequestByName(options: BearerCallOptions, kind: RelationshipKindName, username: string): Promise<void> {
  await bearerCall(options, 'POST', base(kind), { username: requireUsername(username) });
}

/** Ends whatever relationship of that kind stands between the player and the user (platform-wide: unblocks too). */
export async function removeRelationship(options: BearerCallOptions, kind: RelationshipKindName, userId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `${base(kind)}/${requireUserId(userId)}`);
}

/** Blocks the user (platform-wide: it ends every relationship between the two, game ones too). */
export async function blockUser(options: BearerCallOptions, userId: string): Promise<void> {
  await bearerCall(options, 'PUT', `/users/@me/relationships/${requireUserId(userId)}`, { type: BLOCKED });
}
