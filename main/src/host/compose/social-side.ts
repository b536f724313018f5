import type { RpcServer } from '../../../../rpc/src/index.js';
import { FriendPresences } from '../presence/friend-presences.js';
import { RelationshipRpc } from '../presence/relationship-rpc.js';
import type { PlatformSession } from '../session/platform-session.js';
import { CommandGameLauncher } from '../social/game-launcher.js';
import { SocialService } from '../social/social-service.js';
import type { HostOptions, HostTuning } from './host-options.js';

/** Friends' presences, and the invites and join requests between games and friends. */
export interface SocialSide {
  readonly friends: FriendPresences;
  readonly social: SocialService;
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
  return { friends, social };
}
