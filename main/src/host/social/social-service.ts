import { joinability } from '../../../../common/src/joinable.js';
import { EventEmitter } from 'node:events';
import {
  parseAcceptInviteArgs,
  parseInviteUserArgs,
  parseUserIdArgs,
  RpcErrorCode,
  type CommandContext,
  type GatewayActivity,
  type RpcConnection,
  type RpcLogger,
  type RpcServer,
} from '../../../../rpc/src/index.js';
import {
  GatewayEvent,
  MessageActivityType,
  type ActivityInviteAcceptedEvent,
  type PlatformChannel,
  type PlatformMessage,
  type PlatformUser,
  type PresenceUpdateEvent,
} from '../../../../platform/src/wire/index.js';
import { AppNames } from './app-names.js';
import { DmBook } from './dm-book.js';
import { directChannels, recentDirectMessages } from './dm-history.js';
import { InviteBook, type IncomingJoinRequest, type ReceivedInvite } from './invite-book.js';
import { isJoinable, NOT_JOINABLE_MESSAGE } from './joinable.js';
import { fromPlatformFailure, SocialError } from './social-error.js';
import type { GameLauncher, LaunchResult } from './game-launcher.js';

/** The platform calls the invite flows make (the host's HTTP client fits it). */
export interface SocialPlatform {
  openDm(recipientId: string): Promise<{ readonly id: string }>;
  sendMessage(
    channelId: string,
    body: { content?: string; activity?: { type: number; party_id?: string }; application_id?: string },
  ): Promise<PlatformMessage>;
  declineActivityRequest(channelId: string, messageId: string): Promise<void>;
  /** A DM channel's newest messages, newest first (the conversations' history at sign-in). */
  channelMessages(channelId: string, limit: number): Promise<PlatformMessage[]>;
  joinActivity(userId: string, applicationId: string, messageId?: string, sessionId?: string): Promise<{ readonly secret: string }>;
}

export interface SocialServiceOptions {
  readonly server: RpcServer;
  /** null while signed out. */
  readonly platform: () => SocialPlatform | null;
  readonly me: () => PlatformUser | null;
  /** This host's gateway session (so the platform tells only our other devices about an accepted invite). */
  readonly sessionId: () => string | undefined;
  readonly friend: (userId: string) => { readonly user: PlatformUser; readonly presence: PresenceUpdateEvent | undefined } | undefined;
  readonly launcher: GameLauncher;
  readonly logger: RpcLogger;
  readonly now?: () => number;
  /** Invites expire after 6 h (the platform's rule). */
  readonly inviteTtlMs?: number;
  /** A join delivered to a game that is not running waits this long for it to subscribe. */
  readonly pendingJoinTtlMs?: number;
  /** The name of an application (a game that sent a direct message), or null when the platform does not know it. */
  readonly applicationName?: (applicationId: string) => Promise<string | null>;
}

/** What became of a join: handed to the game, or waiting for it (launched, or failed to launch). */
export interface JoinOutcome {
  readonly delivered: boolean;
  /** Not delivered: how long the join waits for the game to connect and subscribe. */
  readonly waitMs?: number;
  /** Not delivered and the game was not running: what the launcher did. */
  readonly launch?: LaunchResult;
}

/** The control API's answer to a join (`POST /v1/friends/{id}/join`, `POST /v1/invites/{id}/accept`). */
export interface JoinReport {
  /** The game got ACTIVITY_JOIN. */
  readonly joined: boolean;
  /** A private party: a join request was sent and the friend's game decides. */
  readonly requested: boolean;
  /** Not joined yet: the join waits this long for the game (launched or started by hand). */
  readonly pending_ms?: number;
  readonly launch?: { readonly launched: boolean; readonly how: string; readonly failure?: string };
}

export function joinReport(outcome: JoinOutcome): JoinReport {
  return {
    joined: outcome.delivered,
    requested: false,
    ...(outcome.waitMs === undefined ? {} : { pending_ms: outcome.waitMs }),
    ...(outcome.launch === undefined ? {} : { launch: outcome.launch }),
  };
}

export interface SocialChange {
  readonly type: 'join-request' | 'invite' | 'invite-declined' | 'join-delivered' | 'join-pending' | 'request-declined' | 'dm';
  readonly data: unknown;
}

/** The RPC user shape in ACTIVITY_JOIN_REQUEST and ACTIVITY_INVITE (the C library reads string ids). */
function rpcUser(user: PlatformUser): { id: string; username: string; discriminator: string; avatar: string | null } {
  return { id: user.id, username: user.username, discriminator: user.discriminator, avatar: user.avatar };
}

/**
 * Game invites between the host's games and the platform, both ways:
 * - gateway dispatches (invite and join-request messages) become the RPC events
 *   ACTIVITY_JOIN_REQUEST, ACTIVITY_INVITE, ACTIVITY_JOIN and ACTIVITY_INVITE_ACCEPTED, sent to
 *   the games of that application only;
 * - the RPC commands SEND_ACTIVITY_JOIN_INVITE, CLOSE_ACTIVITY_(JOIN_)REQUEST,
 *   ACTIVITY_INVITE_USER and ACCEPT_ACTIVITY_INVITE become platform calls;
 * - the control API's accept/decline/send/join go through the same paths.
 * An accepted join reaches the game as ACTIVITY_JOIN {secret}; if the game is not running it
 * is launched and the join is delivered once it subscribes to ACTIVITY_JOIN.
 */
export class SocialService extends EventEmitter<{ change: [SocialChange] }> {
  private readonly book: InviteBook;
  private readonly dms = new DmBook();
  /** The games that sent direct messages, by name. */
  readonly appNames: AppNames;
  private readonly now: () => number;
  /** By application: the secret waiting for the game to start, and whose game it joins. */
  private readonly pendingJoins = new Map<string, { readonly secret: string; readonly expiresAt: number; readonly hostId: string }>();
  private readonly pendingJoinTtlMs: number;

  constructor(private readonly options: SocialServiceOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.book = new InviteBook(this.now, options.inviteTtlMs ?? 6 * 60 * 60 * 1000, 10 * 60 * 1000);
    this.pendingJoinTtlMs = options.pendingJoinTtlMs ?? 2 * 60 * 1000;
    const lookup = options.applicationName ?? (async () => null);
    this.appNames = new AppNames(lookup, () => this.emit('change', { type: 'dm', data: null }));
    const server = options.server;
    const answer = (context: CommandContext): Promise<null> => this.answerJoinRequest(context.connection, parseUserIdArgs(context.request.args).user_id);
    const decline = (context: CommandContext): Promise<null> => this.declineFromGame(context.connection, parseUserIdArgs(context.request.args).user_id);
    server.setCommandHandler('SEND_ACTIVITY_JOIN_INVITE', answer);
    server.setCommandHandler('CLOSE_ACTIVITY_REQUEST', decline);
    server.setCommandHandler('CLOSE_ACTIVITY_JOIN_REQUEST', decline);
    server.setCommandHandler('ACTIVITY_INVITE_USER', (context) => {
      const args = parseInviteUserArgs(context.request.args);
      return this.inviteFromGame(context.connection, args.user_id, args.content).then(() => null);
    });
    server.setCommandHandler('ACCEPT_ACTIVITY_INVITE', (context) => {
      const args = parseAcceptInviteArgs(context.request.args);
      return this.acceptInviteForGame(context.connection, args.message_id);
    });
    server.on('subscribe', (connection, subscription) => {
      if (subscription.evt === 'ACTIVITY_JOIN') this.deliverPendingJoin(connection);
    });
  }

  // Gateway side

  /** Feed every gateway dispatch here. */
  handleDispatch(t: string, d: unknown): void {
    if (t === GatewayEvent.MessageCreate) this.onDm(d as PlatformMessage);
    if (t === GatewayEvent.ChannelCreate) this.learnDmChannel(d);
    if (t === GatewayEvent.MessageCreate) this.onMessage(d as PlatformMessage);
    else if (t === GatewayEvent.MessageUpdate) this.onMessageUpdate(d as PlatformMessage);
    else if (t === GatewayEvent.MessageDelete) this.onDmDelete(d as { id?: unknown; channel_id?: unknown });
    if (t === GatewayEvent.MessageUpdate && this.dms.update(d as PlatformMessage)) this.emit('change', { type: 'dm', data: { message_id: (d as PlatformMessage).id } });
    else if (t === GatewayEvent.ActivityInviteAccepted) this.onAcceptedElsewhere(d as ActivityInviteAcceptedEvent);
  }

  /** The account changed: nothing about the previous one applies. */
  reset(): void {
    this.dms.clear();
    this.book.clear();
    this.pendingJoins.clear();
  }

  /** A plain direct message (not an invite or a join request): into the conversation with that friend. */
  private onDm(message: PlatformMessage): void {
    const me = this.options.me();
    if (me !== null && this.dms.add(message, me.id)) this.emit('change', { type: 'dm', data: { message_id: message.id } });
  }

  /** A message deleted by its author: it leaves the conversation on screen too. */
  private onDmDelete(d: { id?: unknown; channel_id?: unknown }): void {
    if (typeof d.id === 'string' && typeof d.channel_id === 'string' && this.dms.remove(d.id, d.channel_id)) this.emit('change', { type: 'dm', data: { message_id: d.id } });
  }

  private learnDmChannel(d: unknown): void {
    const me = this.options.me();
    if (me !== null && typeof d === 'object' && d !== null) this.dms.learnFromChannel(d as { id?: unknown; recipients?: unknown }, me.id);
  }

  /**
   * READY: the player's DM channels, and their recent messages (what the platform keeps), so
   * that a host that starts again shows the conversations it showed before. Plain messages
   * only, as live ones; another account signed in meanwhile gets none of them.
   */
  async loadHistory(channels: readonly PlatformChannel[]): Promise<void> {
    const me = this.options.me();
    const platform = this.options.platform();
    if (me === null || platform === null) return;
    const direct = directChannels(channels, me.id);
    for (const channel of direct) this.dms.learnFromChannel(channel, me.id);
    const { messages, failed } = await recentDirectMessages(platform, direct);
    if (failed > 0) this.options.logger.warn({ channels: direct.length, failed }, 'some conversations could not be loaded');
    if (this.options.me()?.id !== me.id) return;
    let added = false;
    for (const message of messages) added = this.dms.add(message, me.id) || added;
    if (added) this.emit('change', { type: 'dm', data: null });
  }

  /** The conversations with friends, most recent first. */
  conversations(): ReturnType<DmBook['conversations']> {
    return this.dms.conversations();
  }

  /** The player writes to a friend (from Companion: a message of no game). */
  async sendDm(userId: string, content: string): Promise<{ message_id: string }> {
    if (this.options.friend(userId) === undefined) throw new SocialError(RpcErrorCode.InvalidUser, `Invalid user: ${userId} is not a friend`, 404);
    const platform = this.requirePlatform();
    const me = this.options.me();
    try {
      const channel = await platform.openDm(userId);
      this.dms.learnChannel(channel.id, userId);
      const message = await platform.sendMessage(channel.id, { content });
      if (me !== null && this.dms.add(message, me.id)) this.emit('change', { type: 'dm', data: { message_id: message.id } });
      return { message_id: message.id };
    } catch (error) {
      throw fromPlatformFailure(error, 'user');
    }
  }

  private onMessage(message: PlatformMessage): void {
    const me = this.options.me();
    const activity = message.activity;
    const applicationId = message.application_id ?? message.application?.id;
    if (me === null || activity === undefined || applicationId === undefined || message.author.id === me.id) return;

    if (activity.type === MessageActivityType.JoinRequest) {
      const request: IncomingJoinRequest = {
        id: message.id,
        user: message.author,
        applicationId,
        channelId: message.channel_id,
        messageId: message.id,
        receivedAt: this.now(),
      };
      this.book.addIncoming(request);
      this.toGames(applicationId, 'ACTIVITY_JOIN_REQUEST', {
        user: rpcUser(message.author),
        type: MessageActivityType.JoinRequest,
        channel_id: message.channel_id,
        message_id: message.id,
      });
      this.emit('change', { type: 'join-request', data: request });
      return;
    }

    if (activity.type === MessageActivityType.Join) {
      if (this.book.takeOutgoing(message.author.id, applicationId)) {
        // The host said yes to our request: join at once, as the real client does.
        void this.join(message.author.id, applicationId, message.id).catch((error: unknown) => {
          this.options.logger.warn({ applicationId, code: (error as { code?: unknown }).code }, 'joining after an accepted request failed');
        });
        return;
      }
      const invite: ReceivedInvite = {
        id: message.id,
        user: message.author,
        applicationId,
        partyId: activity.party_id ?? null,
        activity: message.invite_activity ?? null,
        content: typeof message.content === 'string' ? message.content : '',
        channelId: message.channel_id,
        messageId: message.id,
        receivedAt: this.now(),
        ...(typeof message.invite_expires_at === 'number' ? { expiresAt: message.invite_expires_at } : {}),
      };
      this.book.addInvite(invite);
      this.toGames(applicationId, 'ACTIVITY_INVITE', this.inviteEvent(invite));
      this.emit('change', { type: 'invite', data: invite });
    }
  }

  private onMessageUpdate(message: PlatformMessage): void {
    const me = this.options.me();
    if (me === null || message.activity?.declined !== true || message.author.id !== me.id) return;
    // Our request was declined: forget it, so a later invite from them is an ordinary invite.
    const hostId = this.book.takeOutgoingMessage(message.id);
    if (hostId === null) return;
    const applicationId = message.application_id ?? message.application?.id ?? null;
    // user_id: whom we had asked, so the UI's "waiting for an answer" on that join gives way to this.
    this.emit('change', { type: 'request-declined', data: { message_id: message.id, application_id: applicationId, user_id: hostId } });
  }

  private onAcceptedElsewhere(event: ActivityInviteAcceptedEvent): void {
    const invite = this.book.invite(event.message_id);
    const sender = invite?.user ?? this.options.friend(event.sender_id)?.user;
    this.book.removeInvite(event.message_id);
    this.toGames(event.application_id, 'ACTIVITY_INVITE_ACCEPTED', {
      type: MessageActivityType.Join,
      user: sender === undefined ? { id: event.sender_id } : rpcUser(sender),
      activity: invite?.activity ?? null,
      channel_id: event.channel_id,
      message_id: event.message_id,
    });
  }

  private inviteEvent(invite: ReceivedInvite): Record<string, unknown> {
    return {
      type: MessageActivityType.Join,
      user: rpcUser(invite.user),
      activity: invite.activity,
      channel_id: invite.channelId,
      message_id: invite.messageId,
    };
  }

  private toGames(applicationId: string, evt: string, data: unknown): number {
    return this.options.server.dispatch(evt, data, { to: (connection) => connection.clientId === applicationId });
  }

  // RPC commands

  private async answerJoinRequest(connection: RpcConnection, userId: string): Promise<null> {
    const request = this.book.incomingFrom(userId, connection.clientId ?? undefined);
    if (request === undefined) {
      throw new SocialError(RpcErrorCode.InvalidActivityJoinRequest, `No pending join request from user ${userId}`, 404);
    }
    await this.acceptRequest(request, connection.activity);
    return null;
  }

  private async declineFromGame(connection: RpcConnection, userId: string): Promise<null> {
    const request = this.book.incomingFrom(userId, connection.clientId ?? undefined);
    if (request === undefined) {
      throw new SocialError(RpcErrorCode.InvalidActivityJoinRequest, `No pending join request from user ${userId}`, 404);
    }
    await this.declineRequest(request);
    return null;
  }

  private async inviteFromGame(connection: RpcConnection, userId: string, content: string | undefined): Promise<void> {
    await this.sendInviteMessage(userId, connection.clientId as string, connection.activity, content);
  }

  private async acceptInviteForGame(connection: RpcConnection, messageId: string): Promise<{ secret: string }> {
    const invite = this.book.invite(messageId);
    if (invite === undefined || invite.applicationId !== connection.clientId) {
      throw new SocialError(RpcErrorCode.InvalidInvite, 'Invalid invite: no such invite for this application', 404);
    }
    const { secret } = await this.fetchSecret(invite.user.id, invite.applicationId, invite.messageId);
    this.book.removeInvite(invite.id);
    return { secret };
  }

  // Shared by RPC and the control API

  private async acceptRequest(request: IncomingJoinRequest, activity: GatewayActivity | null): Promise<void> {
    if (!isJoinable(activity)) throw new SocialError(RpcErrorCode.NoEligibleActivity, NOT_JOINABLE_MESSAGE, 409);
    const platform = this.requirePlatform();
    try {
      await platform.sendMessage(request.channelId, {
        activity: { type: MessageActivityType.Join, party_id: activity.party.id },
        application_id: request.applicationId,
      });
    } catch (error) {
      throw fromPlatformFailure(error, 'invite');
    }
    this.book.removeIncoming(request.id);
  }

  private async declineRequest(request: IncomingJoinRequest): Promise<void> {
    try {
      await this.requirePlatform().declineActivityRequest(request.channelId, request.messageId);
    } catch (error) {
      throw fromPlatformFailure(error, 'request');
    }
    this.book.removeIncoming(request.id);
  }

  private async sendInviteMessage(
    userId: string,
    applicationId: string,
    activity: GatewayActivity | null,
    content: string | undefined,
  ): Promise<{ message_id: string }> {
    if (!isJoinable(activity)) throw new SocialError(RpcErrorCode.NoEligibleActivity, NOT_JOINABLE_MESSAGE, 409);
    const platform = this.requirePlatform();
    try {
      const channel = await platform.openDm(userId);
      const message = await platform.sendMessage(channel.id, {
        content: content ?? '',
        activity: { type: MessageActivityType.Join, party_id: activity.party.id },
        application_id: applicationId,
      });
      return { message_id: message.id };
    } catch (error) {
      throw fromPlatformFailure(error, 'invite');
    }
  }

  private async fetchSecret(hostId: string, applicationId: string, messageId?: string): Promise<{ secret: string }> {
    try {
      return await this.requirePlatform().joinActivity(hostId, applicationId, messageId, this.options.sessionId());
    } catch (error) {
      throw fromPlatformFailure(error, 'join');
    }
  }

  /**
   * Gets the secret and hands it to the game. A game that is not running is launched and the
   * join waits for it (`pending`); `launch` says what the launcher did, failure included.
   */
  private async join(hostId: string, applicationId: string, messageId?: string): Promise<JoinOutcome> {
    const { secret } = await this.fetchSecret(hostId, applicationId, messageId);
    const delivered = this.toGames(applicationId, 'ACTIVITY_JOIN', { secret }) > 0;
    if (delivered) {
      this.emit('change', { type: 'join-delivered', data: { application_id: applicationId, user_id: hostId } });
      return { delivered: true };
    }
    this.pendingJoins.set(applicationId, { secret, expiresAt: this.now() + this.pendingJoinTtlMs, hostId });
    this.emit('change', { type: 'join-pending', data: { application_id: applicationId, user_id: hostId } });
    const running = [...this.options.server.connections()].some((c) => c.clientId === applicationId && c.state === 'ready');
    if (running) return { delivered: false, waitMs: this.pendingJoinTtlMs };
    return { delivered: false, waitMs: this.pendingJoinTtlMs, launch: await this.launch(applicationId) };
  }

  private async launch(applicationId: string): Promise<LaunchResult> {
    let result: LaunchResult;
    try {
      result = await this.options.launcher.launch(applicationId);
    } catch (error) {
      result = { launched: false, how: 'launcher', failure: error instanceof Error ? error.message : 'the launcher failed' };
    }
    // The join stays pending either way: the player can still start the game by hand.
    if (result.launched) this.options.logger.info({ applicationId, how: result.how }, 'launched the game to deliver a join');
    else this.options.logger.warn({ applicationId, how: result.how, failure: result.failure }, 'could not launch the game to deliver a join');
    return result;
  }

  private deliverPendingJoin(connection: RpcConnection): void {
    const applicationId = connection.clientId;
    if (applicationId === null) return;
    const pending = this.pendingJoins.get(applicationId);
    if (pending === undefined) return;
    this.pendingJoins.delete(applicationId);
    if (pending.expiresAt < this.now()) return;
    // After the SUBSCRIBE reply, which is being written now.
    setImmediate(() => {
      const sent = this.options.server.dispatch('ACTIVITY_JOIN', { secret: pending.secret }, { to: (c) => c === connection });
      // user_id: the UI's message on that join ("…when it starts") gives way to this one.
      if (sent > 0) this.emit('change', { type: 'join-delivered', data: { application_id: applicationId, user_id: pending.hostId } });
    });
  }

  private requirePlatform(): SocialPlatform {
    const platform = this.options.platform();
    if (platform === null) throw new SocialError(RpcErrorCode.ServiceUnavailable, 'Not signed in to the platform', 503);
    return platform;
  }

  // Control API

  joinRequests(): IncomingJoinRequest[] {
    return this.book.incomingRequests();
  }

  invites(): (ReceivedInvite & { readonly valid: boolean; readonly expiresAt: number })[] {
    return this.book.invites().map((invite) => ({ ...invite, valid: this.stillPlaying(invite) }));
  }

  async acceptJoinRequest(id: string): Promise<void> {
    const request = this.book.incomingById(id);
    if (request === undefined) throw new SocialError(RpcErrorCode.InvalidActivityJoinRequest, `No pending join request ${id}`, 404);
    await this.acceptRequest(request, this.activityOf(request.applicationId));
  }

  async declineJoinRequest(id: string): Promise<void> {
    const request = this.book.incomingById(id);
    if (request === undefined) throw new SocialError(RpcErrorCode.InvalidActivityJoinRequest, `No pending join request ${id}`, 404);
    await this.declineRequest(request);
  }

  async acceptInvite(id: string): Promise<{ secret_delivered: boolean } & JoinReport> {
    const invite = this.book.invite(id);
    if (invite === undefined) throw new SocialError(RpcErrorCode.InvalidInvite, `Invalid invite: no invite ${id}`, 404);
    const result = await this.join(invite.user.id, invite.applicationId, invite.messageId);
    this.book.removeInvite(id);
    return { secret_delivered: result.delivered, ...joinReport(result) };
  }

  /**
   * The player said no to an invite. The protocol has no answer for that (the sender is not
   * told, as on the real service): the invite is forgotten here, so no UI shows it again.
   */
  declineInvite(id: string): void {
    if (this.book.invite(id) === undefined) throw new SocialError(RpcErrorCode.InvalidInvite, `Invalid invite: no invite ${id}`, 404);
    this.book.removeInvite(id);
    this.emit('change', { type: 'invite-declined', data: { id } });
  }

  async sendInvite(input: { user_id: string; application_id?: string; content?: string }): Promise<{ message_id: string }> {
    const applicationId = input.application_id ?? this.soleJoinableApplication();
    return this.sendInviteMessage(input.user_id, applicationId, this.activityOf(applicationId), input.content);
  }

  /** Join a friend: at once for a public party, else by sending a join request. */
  async requestToJoin(input: { user_id: string; application_id?: string }): Promise<JoinReport> {
    const friend = this.options.friend(input.user_id);
    if (friend === undefined) throw new SocialError(RpcErrorCode.InvalidUser, `Invalid user: ${input.user_id} is not a friend`, 404);
    const activities = friend.presence?.activities ?? [];
    const target = activities.find((a) => a.application_id !== undefined && (input.application_id === undefined || a.application_id === input.application_id));
    if (target?.application_id === undefined) {
      throw new SocialError(RpcErrorCode.NoEligibleActivity, `${friend.user.username} is not playing a game you can join`, 409);
    }
    const applicationId = target.application_id;
    const how = joinability(target);
    if (how === null) {
      throw new SocialError(RpcErrorCode.NoEligibleActivity, `${friend.user.username}'s game cannot be joined right now: it offers no open party to join`, 409);
    }
    if (how === 'join') {
      return joinReport(await this.join(input.user_id, applicationId));
    }
    const platform = this.requirePlatform();
    // Noted before sending: their game may say yes before our own send has returned.
    this.book.noteOutgoing(input.user_id, applicationId, '');
    try {
      const channel = await platform.openDm(input.user_id);
      const message = await platform.sendMessage(channel.id, {
        activity: { type: MessageActivityType.JoinRequest, ...(target.party?.id === undefined ? {} : { party_id: target.party.id }) },
        application_id: applicationId,
      });
      this.book.nameOutgoing(input.user_id, applicationId, message.id);
    } catch (error) {
      this.book.takeOutgoing(input.user_id, applicationId);
      throw fromPlatformFailure(error, 'request');
    }
    return { joined: false, requested: true };
  }

  private activityOf(applicationId: string): GatewayActivity | null {
    let found: GatewayActivity | null = null;
    for (const connection of this.options.server.connections()) {
      if (connection.clientId === applicationId && connection.activity !== null) found = connection.activity;
    }
    return found;
  }

  private soleJoinableApplication(): string {
    const apps = new Set<string>();
    for (const connection of this.options.server.connections()) {
      if (connection.clientId !== null && isJoinable(connection.activity)) apps.add(connection.clientId);
    }
    if (apps.size === 1) return [...apps][0] as string;
    throw new SocialError(
      RpcErrorCode.NoEligibleActivity,
      apps.size === 0 ? NOT_JOINABLE_MESSAGE : 'Several games can invite; name the application_id',
      409,
    );
  }

  /** An invite is valid while its sender still plays that app with that party. */
  private stillPlaying(invite: ReceivedInvite): boolean {
    const presence = this.options.friend(invite.user.id)?.presence;
    if (presence === undefined) return true; // unknown: the platform decides on accept
    return presence.activities.some(
      (a) => a.application_id === invite.applicationId && (invite.partyId === null || a.party?.id === invite.partyId),
    );
  }
}
