import type { ChannelRecord, GuildRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { AccessRefusal } from './access-refusal.js';
import { applicationAudience, sessionInAudience, type Audience } from './audience.js';
import { callerApplication, callerUser, type Caller } from './caller.js';
import type { RouteAccess } from './route-access.js';

/** What the policy reads: the store, and which application a lobby belongs to. */
export interface AccessPolicyDeps {
  readonly store: Pick<Store, 'channel' | 'guild' | 'isMember' | 'hasBlocked' | 'dmChannels' | 'messages' | 'user' | 'identities'>;
  /** The application of a lobby, or undefined when there is no such lobby. */
  readonly lobbyApplication: (lobbyId: string) => string | undefined;
  /** The application of the lobby a lobby channel invite was made from, or undefined. */
  readonly inviteApplication?: (code: string) => string | undefined;
}

/** What the policy resolved for a request's declared params. */
export interface Resolved {
  /** The lobby of a `lobby` param; undefined for a `lobby-or-gone` one the caller cannot see. */
  readonly lobbyId?: string | undefined;
  readonly channel?: ChannelRecord;
  readonly guild?: GuildRecord;
}

/**
 * The one place that decides who may see and change what in the social layer: lobbies (and,
 * within them, their messages, members, linked channel and invites) belong to one
 * application; DM channels to their two recipients; guilds to their members; a block stops
 * DMs both ways; a game's DM is its token's application's. Anything a caller may not see is
 * refused as unknown when it belongs to another application, so its existence never leaks.
 * Routes reach it by declaring what their params name (route-access.ts); dispatches by
 * their audience (audience.ts).
 */
export class AccessPolicy {
  constructor(private readonly deps: AccessPolicyDeps) {}

  /** Resolves each declared param of a request; throws the refusal of the first the caller may not use. */
  resolve(caller: Caller, access: RouteAccess, params: Readonly<Record<string, string>>): Resolved {
    let resolved: Resolved = {};
    for (const [param, kind] of Object.entries(access)) {
      const value = params[param] as string;
      if (kind === 'lobby') resolved = { ...resolved, lobbyId: this.lobby(caller, value) };
      else if (kind === 'lobby-or-gone') resolved = { ...resolved, lobbyId: this.mayUseLobby(caller, value) ? value : undefined };
      else if (kind === 'dm-channel') resolved = { ...resolved, channel: this.dmChannel(caller, value) };
      else if (kind === 'guild') resolved = { ...resolved, guild: this.guild(caller, value) };
      else if (kind === 'channel') resolved = { ...resolved, channel: this.channel(caller, value) };
      else if (kind === 'invite') this.invite(caller, value);
      else if (kind === 'user') this.user(caller, value);
    }
    return resolved;
  }

  /** Whether the lobby exists and is of the caller's application. */
  mayUseLobby(caller: Caller, lobbyId: string): boolean {
    const application = callerApplication(caller);
    return application !== null && this.deps.lobbyApplication(lobbyId) === application;
  }

  /** The lobby id, when it is of the caller's application; else 'unknown_lobby', as for one that never existed. */
  lobby(caller: Caller, lobbyId: string): string {
    if (!this.mayUseLobby(caller, lobbyId)) throw new AccessRefusal('unknown_lobby', `Unknown Lobby ${lobbyId}`);
    return lobbyId;
  }

  /**
   * A user the caller names (a path param, or a body's member or recipient). Users are public,
   * but a provisional account (a game's account for a player with no login of their own) exists
   * only in the games it was made for: another game's token or server is refused as for an
   * unknown user. The player's own client may know it (a game friend shows there).
   */
  user(caller: Caller, userId: string): void {
    const application = callerApplication(caller);
    if (application === null || this.deps.store.user(userId)?.provisional !== true) return;
    const games = this.deps.store.identities().filter((record) => record.user_id === userId && !record.linked);
    if (!games.some((record) => record.application_id === application)) throw new AccessRefusal('unknown_user', 'Unknown User');
  }

  /**
   * A lobby channel invite, as a lobby's: a game's token (or server) of another application
   * than the lobby's is refused as for a code that does not exist. The player's own client, and
   * anyone looking a code up, may use it (it leads to a server, not into the lobby).
   */
  invite(caller: Caller, code: string): void {
    const application = callerApplication(caller);
    const owner = this.deps.inviteApplication?.(code);
    if (application !== null && owner !== undefined && owner !== application) throw new AccessRefusal('unknown_invite', 'Unknown Invite');
  }

  /** Whether a lobby's link to a channel may be shown to the caller (a player's own client sees all; a game, its own). */
  seesLobbyOf(caller: Caller, applicationId: string): boolean {
    return caller.kind === 'player' || callerApplication(caller) === applicationId;
  }

  /** The DM channel, when the caller's user is one of its recipients. */
  dmChannel(caller: Caller, channelId: string): ChannelRecord {
    const user = callerUser(caller);
    const channel = this.deps.store.channel(channelId);
    if (channel === undefined || user === null) throw new AccessRefusal('unknown_channel', 'Unknown Channel');
    if (channel.type !== 1 || channel.recipient_ids?.includes(user.id) !== true) throw new AccessRefusal('missing_access', 'Missing Access');
    return channel;
  }

  /** The guild, when the caller's user is a member. */
  guild(caller: Caller, guildId: string): GuildRecord {
    const user = callerUser(caller);
    const guild = this.deps.store.guild(guildId);
    if (guild === undefined || user === null) throw new AccessRefusal('unknown_guild', 'Unknown Guild');
    if (!this.deps.store.isMember(guild.id, user.id)) throw new AccessRefusal('missing_access', 'Missing Access');
    return guild;
  }

  /** A guild channel of a guild the user is in, or a DM they are a recipient of. */
  channel(caller: Caller, channelId: string): ChannelRecord {
    const user = callerUser(caller);
    const channel = this.deps.store.channel(channelId);
    if (channel === undefined || user === null) throw new AccessRefusal('unknown_channel', 'Unknown Channel');
    const allowed = channel.guild_id !== undefined ? this.deps.store.isMember(channel.guild_id, user.id) : channel.recipient_ids?.includes(user.id) === true;
    if (!allowed) throw new AccessRefusal('missing_access', 'Missing Access');
    return channel;
  }

  /**
   * The DM between two users, for a game's server (its moderation metadata): known to it only
   * through its own game's messages there (its webhook told it of each). A DM where its game
   * sent nothing is refused as one that does not exist, so a server cannot learn who writes to
   * whom.
   */
  serverDm(caller: Caller, userA: string, userB: string): ChannelRecord {
    const application = callerApplication(caller);
    const channel = this.deps.store
      .dmChannels(userA)
      .find((candidate) => candidate.recipient_ids?.includes(userB) === true && (candidate.recipient_ids ?? []).every((id) => id === userA || id === userB));
    const known = channel !== undefined && application !== null && this.deps.store.messages(channel.id, Number.MAX_SAFE_INTEGER).some((message) => message.application_id === application);
    if (!known) throw new AccessRefusal('unknown_channel', 'Unknown Channel');
    return channel;
  }

  /** A DM from `from` to `to` (opening one, posting or editing in it): refused when either has blocked the other. */
  mayMessage(from: string, to: string): void {
    if (this.deps.store.hasBlocked(to, from) || this.deps.store.hasBlocked(from, to)) throw new AccessRefusal('cannot_message_user', 'Cannot send messages to this user');
  }

  /**
   * Joining another user's activity (their join secret): refused when either has blocked the
   * other, whatever invite was sent before the block, as a join with no invite is refused.
   */
  mayJoin(userId: string, hostId: string): void {
    if (this.deps.store.hasBlocked(hostId, userId) || this.deps.store.hasBlocked(userId, hostId)) throw new AccessRefusal('missing_access', 'Missing Access');
  }

  /**
   * The application a new DM message carries. A game's token: always its own application
   * (a body naming another is refused on `application_id`). A player's own token: the body's
   * for an invite or join request (checked by the invite rules); a plain message names no
   * game (a body naming one is refused), as only a game's token sends a game's DM.
   */
  dmApplication(caller: Caller, body: { readonly application_id?: string | undefined; readonly activity?: unknown }): string | undefined {
    if (caller.kind === 'game-player') {
      if (body.application_id !== undefined && body.application_id !== caller.applicationId) {
        throw new AccessRefusal('foreign_application', "application_id must be the token's own application", 'application_id');
      }
      return caller.applicationId;
    }
    if (body.activity === undefined && body.application_id !== undefined) {
      throw new AccessRefusal('foreign_application', "a plain message names a game only when the game's own token sends it", 'application_id');
    }
    return body.application_id;
  }

  /**
   * The activities a gateway session publishes (IDENTIFY's presence, op 3). A game's token
   * speaks only for its own game: each of its activities carries the token's application,
   * whatever the payload named, so no game can show itself as another to that game's players
   * or hand them a join secret of its making. A player's own client (the host, relaying each
   * of its games) names each activity's game.
   */
  activities<A extends { readonly application_id?: string | undefined }>(caller: Caller, activities: readonly A[]): A[] {
    if (caller.kind !== 'game-player') return [...activities];
    return activities.map((activity) => ({ ...activity, application_id: caller.applicationId }));
  }

  /** Whether a gateway session (its game token's application, or null: the player's own client) may see an application's lobbies. */
  seesLobbies(sessionApplication: string | null, applicationId: string): boolean {
    return sessionInAudience(sessionApplication, this.lobbyAudience(applicationId));
  }

  /** Who of a member's sessions hear of a lobby's changes and messages. */
  lobbyAudience(applicationId: string): Audience {
    return applicationAudience(applicationId);
  }

  /**
   * A lobby dispatch as one of a member's sessions (in the lobby's audience) sees it: a
   * message's moderation metadata is the lobby's application's, for its game sessions; the
   * player's own client gets the message without it, as with a DM's.
   */
  lobbyEventAs(applicationId: string, sessionApplication: string | null, data: unknown): unknown {
    if (sessionApplication === applicationId || typeof data !== 'object' || data === null || !('moderation_metadata' in data)) return data;
    const { moderation_metadata: _appScoped, ...rest } = data as Record<string, unknown>;
    return rest;
  }
}
