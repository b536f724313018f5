import type { PlatformUser } from './gateway-types.js';

/**
 * Game relationships: friendships and friend requests within one application only (the Social
 * SDK's `RelationshipHandle::GameRelationshipType`), beside the platform-wide ones
 * (`RELATIONSHIP_ADD` / `RELATIONSHIP_REMOVE`). **(ours: the names and payloads; the public
 * record does not show the SDK's routes or gateway events for them)**. Types are the
 * relationship types' numbers: 1 friend, 3 incoming request, 4 outgoing request.
 */
export const GameRelationshipEvent = {
  /** To the sessions of that application's game tokens of each side: a game friendship or request, as that side sees it. */
  Add: 'GAME_RELATIONSHIP_ADD',
  /** A game friendship or request ended (removed, cancelled, rejected, or a block). */
  Remove: 'GAME_RELATIONSHIP_REMOVE',
} as const;

/** GAME_RELATIONSHIP_ADD's data. */
export interface GameRelationshipAddEvent {
  readonly id: string;
  readonly type: number;
  readonly user: PlatformUser;
  readonly application_id: string;
}

/** GAME_RELATIONSHIP_REMOVE's data: the type that ended. */
export interface GameRelationshipRemoveEvent {
  readonly id: string;
  readonly type: number;
  readonly application_id: string;
}

/**
 * An entry of `GET /users/@me/relationships` for a game's token: `type` is the platform-wide
 * relationship (0 when there is none: a game friend only), `game_relationship_type` the one in
 * the token's application (0 when none). **(ours: the field)**
 */
export interface GameAwareRelationship {
  readonly id: string;
  readonly type: number;
  readonly game_relationship_type: number;
  readonly user: PlatformUser;
}
