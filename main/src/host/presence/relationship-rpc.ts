import type { RpcServer } from '../../../../rpc/src/index.js';
import { RELATIONSHIP_FRIEND, type FriendChange, type FriendEntry, type FriendPresences } from './friend-presences.js';
import { rpcUserFrom } from './rpc-user.js';

/** No relationship any more (the friend was removed). */
const RELATIONSHIP_NONE = 0;

/** A friend as RPC's GET_RELATIONSHIPS and RELATIONSHIP_UPDATE give it: the relationship, the user, and their presence. */
export function relationshipView(entry: FriendEntry): { type: number; user: ReturnType<typeof rpcUserFrom>; presence: { status: string; activity: unknown } } {
  return {
    type: RELATIONSHIP_FRIEND,
    user: rpcUserFrom(entry.user),
    presence: { status: entry.presence.status, activity: entry.presence.activities[0] ?? null },
  };
}

/**
 * The player's relationships for games on the RPC path: GET_RELATIONSHIPS answers the friends
 * the host knows (from its gateway session), and RELATIONSHIP_UPDATE goes to the games that
 * subscribed (the protocol requires `relationships.read`) whenever a friend is added, changes
 * presence, or is removed (then with type 0 and the user's id).
 */
export class RelationshipRpc {
  constructor(
    private readonly server: Pick<RpcServer, 'setCommandHandler' | 'dispatch'>,
    private readonly friends: Pick<FriendPresences, 'list' | 'on'>,
  ) {
    server.setCommandHandler('GET_RELATIONSHIPS', () => ({ relationships: this.friends.list().map(relationshipView) }));
    friends.on('change', (change) => this.onChange(change));
  }

  private onChange(change: FriendChange): void {
    if (change.kind === 'added' || change.kind === 'presence') this.server.dispatch('RELATIONSHIP_UPDATE', relationshipView(change.entry));
    else if (change.kind === 'removed') this.server.dispatch('RELATIONSHIP_UPDATE', { type: RELATIONSHIP_NONE, user: { id: change.userId }, presence: null });
  }
}
