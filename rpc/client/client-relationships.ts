import type { ClientResult } from './client-result.js';
import { attempt, bearerCall, isRecord, type BearerCallOptions } from './platform-request.js';

/** The Social SDK's relationship types, as the platform numbers them. */
export const RelationshipKind = { Friend: 1, Blocked: 2, PendingIncoming: 3, PendingOutgoing: 4 } as const;

/** One relationship of the player: the other user and what they are to the player. */
export interface RelationshipHandle {
  readonly id: string;
  /** RelationshipKind: 1 friend, 2 blocked, 3 an incoming request, 4 an outgoing one. */
  readonly type: number;
  readonly username: string;
  readonly displayName: string;
}

export interface RelationshipCallbacks {
  /** Someone became a friend, blocked, or a request came or went out (with the new type). */
  relationshipCreated?: ((userId: string, type: number) => void) | undefined;
  /** A friendship, a block or a request ended. */
  relationshipDeleted?: ((userId: string) => void) | undefined;
}

function handleOf(value: unknown): RelationshipHandle | null {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.type !== 'number') return null;
  const user = isRecord(value.user) ? value.user : {};
  const username = typeof user.username === 'string' ? user.username : '';
  return { id: value.id, type: value.type, username, displayName: typeof user.global_name === 'string' ? user.global_name : username };
}

/**
 * The player's relationships through the game's own session (the game's token with
 * `relationships.read` / `relationships.write`, which the communication scopes include): the
 * list, friend requests sent, accepted and rejected, removals and blocks, and the callbacks the
 * gateway's RELATIONSHIP_ADD and RELATIONSHIP_REMOVE call. Each call resolves with its result.
 */
export class ClientRelationships {
  readonly callbacks: RelationshipCallbacks = {};

  constructor(private readonly options: () => BearerCallOptions) {}

  /** Client::GetRelationships: every relationship, friends and requests and blocks. */
  async list(): Promise<{ result: ClientResult; relationships: readonly RelationshipHandle[] }> {
    const outcome = await attempt(async () => {
      const json = await bearerCall(this.options(), 'GET', '/users/@me/relationships');
      return (Array.isArray(json) ? json : []).map(handleOf).filter((handle): handle is RelationshipHandle => handle !== null);
    });
    return { result: outcome.result, relationships: outcome.value ?? [] };
  }

  /** A friend request, or accepting theirs (Client::SendDiscordFriendRequestById / AcceptDiscordFriendRequest). */
  async request(userId: string): Promise<ClientResult> {
    return (await attempt(() => bearerCall(this.options(), 'PUT', `/users/@me/relationships/${encodeURIComponent(userId)}`, {}))).result;
  }

  /** Blocks the user (ends a friendship and any request). */
  async block(userId: string): Promise<ClientResult> {
    return (await attempt(() => bearerCall(this.options(), 'PUT', `/users/@me/relationships/${encodeURIComponent(userId)}`, { type: RelationshipKind.Blocked }))).result;
  }

  /** Unfriends, cancels or rejects a request, or unblocks (Client::RemoveDiscordAndGameFriend, RejectDiscordFriendRequest, UnblockUser). */
  async remove(userId: string): Promise<ClientResult> {
    return (await attempt(() => bearerCall(this.options(), 'DELETE', `/users/@me/relationships/${encodeURIComponent(userId)}`))).result;
  }

  /** A dispatch of the game's own gateway connection. */
  dispatch(t: string, d: unknown): void {
    if (!isRecord(d) || typeof d.id !== 'string') return;
    if (t === 'RELATIONSHIP_ADD' && typeof d.type === 'number') this.callbacks.relationshipCreated?.(d.id, d.type);
    if (t === 'RELATIONSHIP_REMOVE') this.callbacks.relationshipDeleted?.(d.id);
  }
}
