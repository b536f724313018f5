import type { RpcServer } from '../../../../rpc/src/index.js';
import { FriendPresences } from '../presence/friend-presences.js';
import { KnownUsers } from '../presence/known-users.js';
import { RelationshipRpc } from '../presence/relationship-rpc.js';
import { installGetUser } from '../presence/user-rpc.js';
import type { PlatformSession } from '../session/platform-session.js';
import { DmReadMarks } from '../social/dm-read-marks.js';
import { DmReadState } from '../social/dm-read-state.js';
import { CommandGameLauncher } from '../social/game-launcher.js';
import { RelationshipActions } from '../social/relationship-actions.js';
import { RelationshipBook } from '../social/relationship-book.js';
import { SocialService } from '../social/social-service.js';
import { OpenInCompanion } from '../social/open-in-companion.js';
import { DeviceScreens } from '../social/device-screen.js';
import { GameChatShown } from '../social/game-chat-shown.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { Teardown } from './teardown.js';

/** Friends' presences, friend requests and blocks, and the invites and join requests between games and friends. */
export interface SocialSide {
  readonly friends: FriendPresences;
  readonly social: SocialService;
  /** Friend requests both ways and blocks, kept from the session (followSession feeds it). */
  readonly relationships: RelationshipBook;
  readonly relationshipActions: RelationshipActions;
  /** Which direct messages the signed-in player has not read (marks in `<data dir>/dm-read.json`). */
  readonly reads: DmReadState;
  /** The views games ask Companion to show (OPEN_CONNECTED_GAMES_SETTINGS, OPEN_MESSAGE). */
  readonly opens: OpenInCompanion;
  /** The "Link a device" screen games open and close. */
  readonly deviceScreens: DeviceScreens;
  /** The users the session told of (GET_USER, the voice states' users). */
  readonly users: KnownUsers;
}

/** The players' read marks of their conversations, from `<data dir>/dm-read.json`; written out before the host stops. */
export async function loadDmReadMarks(options: HostOptions, teardown: Teardown): Promise<DmReadMarks> {
  const { marks } = await DmReadMarks.load(options.dataDir, { logger: options.logger });
  teardown.add(() => marks.flush());
  return marks;
}

export function createSocialSide(options: HostOptions, tuning: HostTuning, parts: { session: PlatformSession; server: RpcServer; readMarks: DmReadMarks }): SocialSide {
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
  const reads = followReads(session, social, parts.readMarks);
  // Every READY (a start, a sign-in): the conversations the platform keeps, as the client shows them after a restart.
  session.on('ready', (ready) => void social.loadHistory(ready.private_channels));
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
  const opens = new OpenInCompanion(server, { conversations: () => social.conversations() });
  const deviceScreens = new DeviceScreens(server, opens);
  // A game that shows its chat reads its own direct messages as they arrive.
  const chatShown = new GameChatShown(server, { conversations: () => social.conversations(), readNow: (friendId) => reads.readNow(friendId) });
  social.on('change', (change) => {
    const messageId = (change.data as { message_id?: unknown } | null)?.message_id;
    if (change.type === 'dm' && typeof messageId === 'string') chatShown.messageChanged(messageId);
  });
  return { friends, social, relationships, relationshipActions, reads, opens, deviceScreens, users };
}

/** The read state over the social service's conversations: conversations on screen are read as messages arrive; another account starts with none on screen. */
function followReads(session: PlatformSession, social: SocialService, marks: DmReadMarks): DmReadState {
  const reads = new DmReadState({
    marks,
    me: () => session.user?.id ?? null,
    messages: (friendId) => social.conversations().find((conversation) => conversation.friendId === friendId)?.messages ?? [],
  });
  social.on('change', (change) => {
    if (change.type === 'dm') reads.messagesChanged();
  });
  let accountId = session.user?.id ?? null;
  session.on('account', (user) => {
    if ((user?.id ?? null) !== accountId) reads.accountChanged();
    accountId = user?.id ?? null;
  });
  return reads;
}
