import type { RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import { GatewayEvent, GatewayOp, type PlatformGuild, type RateLimitedEvent } from '../../../../platform/src/wire/index.js';
import type { GrantSync } from '../auth/grant-sync.js';
import type { GuildCommands } from '../guilds/guild-commands.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import type { PresenceRelay } from '../presence/presence-relay.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { RelationshipBook } from '../social/relationship-book.js';
import type { SocialService } from '../social/social-service.js';

/** What follows the platform session: the host state kept from its dispatches, and the games. */
export interface SessionFollowers {
  readonly session: PlatformSession;
  readonly server: RpcServer;
  readonly relay: PresenceRelay;
  readonly friends: FriendPresences;
  readonly social: SocialService;
  readonly relationships: RelationshipBook;
  readonly grantSync: GrantSync;
  readonly guilds: GuildCommands;
  readonly logger: RpcLogger;
}

/**
 * Platform → host state and games. The relay sends again once a session is up or sending
 * works again; every dispatch goes to the parts that keep state from it (FriendPresences takes
 * READY from this stream too); an account change resets what belonged to the old account.
 */
export function followSession(parts: SessionFollowers): void {
  const { session, relay } = parts;
  session.on('ready', () => relay.connected());
  session.on('resumed', () => relay.connected());
  session.on('drain', () => relay.refresh());
  session.on('account', new AccountChange(parts).handle);
  session.on('ready', () => parts.grantSync.refresh());
  session.on('dispatch', (t, d) => {
    parts.friends.dispatch(t, d);
    parts.relationships.dispatch(t, d);
    parts.social.handleDispatch(t, d);
    parts.grantSync.dispatch(t, d);
    if (t === 'GUILD_UPDATE') parts.guilds.guildChanged(d as PlatformGuild);
    if (t === GatewayEvent.RateLimited) {
      const limited = d as RateLimitedEvent;
      if (limited.opcode === GatewayOp.PresenceUpdate) relay.rateLimited(limited.retry_after * 1000);
    }
  });
  session.on('status', (status) => parts.logger.info({ status: status.status, detail: status.detail }, 'platform status'));
}

/** Another account (or none) signed in: what the host kept for the previous one goes. */
class AccountChange {
  private accountId: string | null;

  constructor(private readonly parts: SessionFollowers) {
    this.accountId = parts.session.user?.id ?? null;
  }

  readonly handle = (user: { readonly id: string } | null): void => {
    const id = user?.id ?? null;
    if (id === this.accountId) return;
    const hadAccount = this.accountId !== null;
    this.accountId = id;
    this.parts.social.reset();
    this.parts.friends.clear();
    this.parts.relationships.clear();
    this.parts.grantSync.accountChanged();
    // Games were told who the user is in READY: after a sign-out or a switch, they must
    // connect again (and get 1000 "User logged out" while nobody is signed in).
    if (hadAccount) this.parts.server.disconnectAll('User logged out');
  };
}
