import type { RpcServer } from '../../../../rpc/src/index.js';
import { FriendPresences } from '../presence/friend-presences.js';
import { KnownUsers } from '../presence/known-users.js';
import { RelationshipRpc } from '../presence/relationship-rpc.js';
import { installGetUser } from '../presence/user-rpc.js';
import type { PlatformSession } from '../session/platform-session.js';
import { CommandGameLauncher } from '../social/game-launcher.js';
import { RelationshipActions } from '../social/relationship-actions.js';
import { RelationshipBook } from '../social/relationship-book.js';
import { SocialService } from '../social/social-service.js';
import type { HostOptions, HostTuning } from './host-options.js';

/** Friends' presences, friend requests and blocks, and the invites and join requests between games and friends. */
export interface SocialSide {
  readonly friends: FriendPresences;
  readonly social: SocialService;
  /** Friend requests both ways and blocks, kept from the session (followSession feeds it). */
  readonly relationships: RelationshipBook;
  readonly relationshipActions: RelationshipActions;
}

export function createSocialSide(options: HostOptions, tuning: HostTuning, parts: { session: PlatformSession; server: RpcServer }): SocialSide {
  const { session, server } = parts;
  const friends = new FriendPresences();
  const social = new SocialService({
    server,
    platform: () => session.authedApi(),
    me: () => session.user,
    sessionId: () => session.sessionId,
    friend: (userId) => {
      const entry = friends.get(userId);
      return entry === undefined ? undefined : { user: entry.user, presence: { user: { id: entry.user.id }, ...entry.presence } };
    },
    launcher: tuning.launcher ?? new CommandGameLauncher({ dataDir: options.dataDir, env: options.env }),
    logger: options.logger,
    applicationName: async (applicationId) => (await session.publicApi.application(applicationId))?.name ?? null,
  });
  new RelationshipRpc(server, friends);
  // GET_USER answers from the users the session told of; another account starts from none.
  const users = new KnownUsers();
  let accountId = session.user?.id ?? null;
  session.on('dispatch', (t, d) => users.dispatch(t, d));
  session.on('account', (user) => {
    if ((user?.id ?? null) !== accountId) users.clear();
    accountId = user?.id ?? null;
  });
  installGetUser(server, { me: () => session.user, known: users });
  const relationships = new RelationshipBook();
  const relationshipActions = new RelationshipActions({
    platform: () => session.authedApi(),
    me: () => session.user,
    book: relationships,
    friends: () => friends.list().map((entry) => entry.user),
  });
  return { friends, social, relationships, relationshipActions };
}
