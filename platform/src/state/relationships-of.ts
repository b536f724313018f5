import { RelationshipType, type Relationship } from '../wire/index.js';
import { toPlatformUser, type Store } from './store.js';

/**
 * Every relationship of a user as they see it: friends (1), the users they blocked (2), friend
 * requests to them (3) and from them (4). What `GET /users/@me/relationships` answers and what
 * a user session's READY carries, as on the real service.
 */
export function relationshipsOf(store: Store, userId: string): Relationship[] {
  const view = (id: string, type: number): Relationship[] => {
    const user = store.user(id);
    return user === undefined ? [] : [{ id, type, user: toPlatformUser(user) }];
  };
  return [
    ...store.friendsOf(userId).flatMap((id) => view(id, RelationshipType.Friend)),
    ...store.blocks().filter(([by]) => by === userId).flatMap(([, id]) => view(id, RelationshipType.Blocked)),
    ...store.friendRequests().filter(([, to]) => to === userId).flatMap(([from]) => view(from, RelationshipType.IncomingRequest)),
    ...store.friendRequests().filter(([from]) => from === userId).flatMap(([, to]) => view(to, RelationshipType.OutgoingRequest)),
  ];
}
