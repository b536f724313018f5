import * as v from 'valibot';
import { WebSocket, type RawData } from '../../../common/src/node/ws-module.js';
import { FixedWindow } from '../support/limits.js';
import { relationshipsOf } from '../state/relationships-of.js';
import { toPlatformUser } from '../state/store.js';
import {
  GATEWAY_CLOSE_MESSAGES,
  GatewayClose,
  GatewayEvent,
  GatewayOp,
  LobbyEvent,
  REIDENTIFY_GATEWAY_CLOSE_CODES,
  type ReadyEvent,
} from '../wire/index.js';
import type { GatewayContext } from './context.js';
import { TextFrames, type GatewayFrames } from './frames.js';
import { requestChannelInfo, requestGuildMembers } from './guild-requests.js';
import {
  IdentifySchema,
  PresenceSchema,
  RequestChannelInfoSchema,
  RequestGuildMembersSchema,
  RequestSoundboardSchema,
  ResumeSchema,
  validIntents,
  VoiceStateSchema,
} from './schemas.js';
import type { Session, SessionTransport } from './session.js';
import { heldScopes, mayConnect, mayReceive } from './oauth-scopes.js';
import type { UserRecord } from '../state/model.js';
import { bucketOwner, sessionCaller } from '../access/caller.js';

let connectionCounter = 0;

/** Ops a client may send before it has identified. */
const PRE_AUTH_OPS: ReadonlySet<number> = new Set([GatewayOp.Heartbeat, GatewayOp.Identify, GatewayOp.Resume]);

/**
 * One gateway WebSocket: Hello, heartbeats and their timeout, the send limit, and the ops a
 * client sends. The session it identifies or resumes outlives it.
 */
export class GatewayConnection implements SessionTransport {
  readonly id = ++connectionCounter;
  session: Session | undefined;
  private closing = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly sendWindow: FixedWindow;
  private readonly frames: GatewayFrames;

  constructor(
    readonly ws: WebSocket,
    private readonly ctx: GatewayContext,
    readonly version: number,
    private readonly onGone: (connection: GatewayConnection) => void,
    /** `secure`: came over the TLS listener (READY names the `wss://` gateway); `frames`: how messages go out (`compress`). */
    private readonly transport: { readonly secure?: boolean; readonly frames?: GatewayFrames } = {},
  ) {
    this.frames = transport.frames ?? new TextFrames(ws);
    this.sendWindow = new FixedWindow(ctx.limits.sendLimit, ctx.now);
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', (code) => this.onClose(code));
    // Errors (bad frames, resets) are followed by 'close'; the code there is what matters.
    ws.on('error', (error) => ctx.logger.debug({ connection: this.id, error: error.message }, 'gateway socket error'));
  }

  start(): void {
    this.sendOp(GatewayOp.Hello, { heartbeat_interval: this.ctx.limits.heartbeatIntervalMs });
    this.armHeartbeatTimeout();
  }

  get open(): boolean {
    return !this.closing && this.ws.readyState === WebSocket.OPEN;
  }

  sendText(text: string): void {
    if (this.open) this.frames.send(text);
  }

  private sendOp(op: number, d: unknown): void {
    this.sendText(JSON.stringify({ op, d, s: null, t: null }));
  }

  /** Closes with a gateway code; codes that end the session end it now. */
  close(code: number): void {
    if (this.closing) return;
    this.closing = true;
    this.clearTimers();
    const session = this.session;
    if (session !== undefined && REIDENTIFY_GATEWAY_CLOSE_CODES.has(code)) {
      this.session = undefined;
      if (session.transport === this) this.ctx.endSession(session);
    }
    this.ctx.logger.debug({ connection: this.id, sessionId: session?.id, code }, 'gateway closing connection');
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.frames.close(code, GATEWAY_CLOSE_MESSAGES[code] ?? '');
    }
  }

  /** Drops the TCP connection without a close frame; the session stays resumable. */
  terminate(): void {
    this.clearTimers();
    this.ws.terminate();
  }

  /** Op 7; closes with 4000 (session kept) if the client has not gone after the grace time. */
  requestReconnect(): void {
    if (!this.open) return;
    this.sendOp(GatewayOp.Reconnect, null);
    if (this.reconnectTimer === undefined) {
      this.reconnectTimer = setTimeout(() => this.close(GatewayClose.UnknownError), this.ctx.limits.reconnectCloseAfterMs);
      this.reconnectTimer.unref();
    }
  }

  private clearTimers(): void {
    if (this.heartbeatTimer !== undefined) clearTimeout(this.heartbeatTimer);
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.heartbeatTimer = undefined;
    this.reconnectTimer = undefined;
  }

  private armHeartbeatTimeout(): void {
    if (this.heartbeatTimer !== undefined) clearTimeout(this.heartbeatTimer);
    const { heartbeatIntervalMs, heartbeatTimeoutFactor } = this.ctx.limits;
    this.heartbeatTimer = setTimeout(() => {
      this.ctx.logger.debug({ connection: this.id, sessionId: this.session?.id }, 'gateway heartbeat timed out');
      this.close(GatewayClose.SessionTimedOut);
    }, heartbeatIntervalMs * heartbeatTimeoutFactor);
    this.heartbeatTimer.unref();
  }

  private onClose(code: number): void {
    this.clearTimers();
    this.closing = true;
    this.onGone(this);
    const session = this.session;
    this.session = undefined;
    if (session === undefined || session.transport !== this) return;
    this.ctx.logger.debug({ connection: this.id, sessionId: session.id, code }, 'gateway connection closed');
    if (code === 1000 || code === 1001) {
      // A client that closes normally ends its session (the user goes offline).
      this.ctx.endSession(session);
      return;
    }
    session.transport = undefined;
    session.detachedAt = this.ctx.now();
    session.expiryTimer = setTimeout(() => {
      if (!session.ended && session.transport === undefined) this.ctx.endSession(session);
    }, this.ctx.limits.resumeWindowMs);
    session.expiryTimer.unref();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closing) return;
    if (!this.sendWindow.take()) return this.close(GatewayClose.RateLimited);
    if (isBinary) return this.close(GatewayClose.DecodeError);
    let payload: unknown;
    try {
      payload = JSON.parse(rawText(data));
    } catch {
      return this.close(GatewayClose.DecodeError);
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return this.close(GatewayClose.DecodeError);
    const { op, d } = payload as { op?: unknown; d?: unknown };
    if (typeof op !== 'number' || !Number.isInteger(op)) return this.close(GatewayClose.UnknownOpcode);
    if (this.session === undefined && !PRE_AUTH_OPS.has(op)) return this.close(GatewayClose.NotAuthenticated);
    try {
      this.handle(op, d);
    } catch (error) {
      this.ctx.logger.error({ connection: this.id, op, error: error instanceof Error ? error.message : String(error) }, 'gateway handler failed');
      this.close(GatewayClose.UnknownError);
    }
  }

  private handle(op: number, d: unknown): void {
    switch (op) {
      case GatewayOp.Heartbeat:
        if (d !== null && d !== undefined && !(typeof d === 'number' && Number.isInteger(d))) return this.close(GatewayClose.UnknownOpcode);
        this.armHeartbeatTimeout();
        return this.sendText(JSON.stringify({ op: GatewayOp.HeartbeatAck, s: null, t: null }));
      case GatewayOp.Identify:
        return this.identify(d);
      case GatewayOp.Resume:
        return this.resume(d);
      case GatewayOp.PresenceUpdate:
        return this.presenceUpdate(d);
      case GatewayOp.VoiceStateUpdate:
        return this.voiceStateUpdate(d);
      case GatewayOp.RequestGuildMembers:
        return this.requestGuildMembers(d);
      case GatewayOp.RequestSoundboardSounds:
        return this.requestSoundboardSounds(d);
      case GatewayOp.RequestChannelInfo:
        return this.requestChannelInfo(d);
      default:
        return this.close(GatewayClose.UnknownOpcode);
    }
  }

  private identify(d: unknown): void {
    if (this.session !== undefined) return this.close(GatewayClose.AlreadyAuthenticated);
    const parsed = v.safeParse(IdentifySchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    const identify = parsed.output;
    if (identify.intents !== undefined && !validIntents(identify.intents)) return this.close(GatewayClose.InvalidIntents);
    const auth = this.authenticate(identify.token);
    if (auth === undefined) return this.close(GatewayClose.AuthenticationFailed);
    const { user, oauth } = auth;

    const session = this.ctx.sessions.create(user.id);
    session.oauth = oauth;
    this.session = session;
    session.transport = this;
    session.dispatch(GatewayEvent.Ready, this.readyEvent(user, session));
    this.ctx.logger.info({ connection: this.id, sessionId: session.id, userId: user.id, v: this.version, oauth: oauth !== undefined }, 'gateway session identified');
    // The initial presence counts as a presence update but not against the game-activity limit. **(ours)**
    // JSON has no undefined values, so the parsed presence is a PresenceUpdateCommand.
    this.publishPresence(session, user, (identify.presence as Session['presence'] | undefined) ?? session.presence);
  }

  /**
   * Who a token stands for: a user token, or (a game's own connection) an OAuth2 access token,
   * with or without `Bearer `, whose scopes let it connect (oauth-scopes.ts). Undefined: refused.
   */
  private authenticate(token: string): { user: UserRecord; oauth?: Session['oauth'] } | undefined {
    const user = this.ctx.store.userByToken(token);
    // A banned account connects with no token at all **(ours)**.
    if (user !== undefined) return this.ctx.store.ban(user.id) === undefined ? { user } : undefined;
    const bearer = this.ctx.bearer?.(token.startsWith('Bearer ') ? token.slice(7).trim() : token);
    if (bearer === undefined || !mayConnect(bearer.scopes) || this.ctx.store.ban(bearer.user.id) !== undefined) return undefined;
    return { user: bearer.user, oauth: { applicationId: bearer.applicationId, scopes: [...heldScopes(bearer.scopes)], tokenId: bearer.tokenId } };
  }

  /** READY: what the session may know, by its scopes for a game's own connection. */
  private readyEvent(user: UserRecord, session: Session): ReadyEvent {
    const { store, presence } = this.ctx;
    const may = (t: string): boolean => session.oauth === undefined || mayReceive(session.oauth.scopes, t);
    return {
      v: this.version,
      user: toPlatformUser(user),
      session_id: session.id,
      resume_gateway_url: this.ctx.gatewayUrl(this.transport.secure === true),
      // Every type, as on the real service: friends, blocks, and requests both ways.
      relationships: may(GatewayEvent.RelationshipAdd) ? relationshipsOf(store, user.id) : [],
      guilds: may(GatewayEvent.GuildUpdate) ? store.guildsOf(user.id).map((guild) => ({ ...store.toPlatformGuild(guild), voice_states: this.ctx.voice?.()?.guildStates(guild.id) ?? [] })) : [],
      private_channels: may(GatewayEvent.ChannelCreate) ? store.dmChannels(user.id).map((channel) => store.toPlatformChannel(channel)) : [],
      presences: may(GatewayEvent.PresenceUpdate) ? presence.onlineFriends(user.id) : [],
      ...this.readyLobbies(user, session),
    };
  }

  /** A game's session learns the lobbies its player is in (**ours**), as LOBBY_CREATE would tell of each. */
  private readyLobbies(user: UserRecord, session: Session): Pick<ReadyEvent, 'lobbies'> {
    const { oauth } = session;
    if (oauth === undefined || this.ctx.lobbiesOf === undefined || !mayReceive(oauth.scopes, LobbyEvent.Create)) return {};
    return { lobbies: this.ctx.lobbiesOf(user.id, oauth.applicationId) };
  }

  private resume(d: unknown): void {
    if (this.session !== undefined) return this.close(GatewayClose.AlreadyAuthenticated);
    const parsed = v.safeParse(ResumeSchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    const { token, session_id: sessionId, seq } = parsed.output;
    const auth = this.authenticate(token);
    if (auth === undefined) return this.close(GatewayClose.AuthenticationFailed);
    const { user } = auth;
    const session = this.ctx.sessions.get(sessionId);
    const expired =
      session !== undefined && session.detachedAt !== undefined && this.ctx.now() - session.detachedAt >= this.ctx.limits.resumeWindowMs;
    if (session !== undefined && expired && session.transport === undefined) this.ctx.endSession(session);
    // A session resumes with the kind of token it was identified with (a game's token: the same app's).
    const sameKind = session?.oauth?.applicationId === auth.oauth?.applicationId;
    if (session === undefined || session.ended || expired || session.userId !== user.id || !sameKind) {
      this.ctx.logger.debug({ connection: this.id }, 'gateway resume refused: unknown session');
      return this.sendOp(GatewayOp.InvalidSession, false);
    }
    const missed = session.replayAfter(seq ?? 0);
    if (missed === undefined) {
      // The session cannot be brought up to date: it is over, the client must identify again.
      const previous = session.transport;
      if (previous instanceof GatewayConnection && previous.session === session) previous.close(GatewayClose.InvalidSeq);
      else this.ctx.endSession(session);
      return this.close(GatewayClose.InvalidSeq);
    }
    const previous = session.transport;
    if (previous instanceof GatewayConnection && previous !== this) {
      previous.detach();
      previous.close(GatewayClose.UnknownError);
    }
    if (session.expiryTimer !== undefined) clearTimeout(session.expiryTimer);
    session.expiryTimer = undefined;
    session.detachedAt = undefined;
    // The session now lives on the token it resumed with (a game's new token after a refresh): that one's end ends it.
    session.oauth = auth.oauth;
    this.session = session;
    session.transport = this;
    for (const text of missed) this.sendText(text);
    session.dispatch(GatewayEvent.Resumed, null);
    this.ctx.logger.info({ connection: this.id, sessionId: session.id, replayed: missed.length }, 'gateway session resumed');
  }

  /** Another connection took the session over: this one no longer speaks for it. */
  private detach(): void {
    this.session = undefined;
  }

  private presenceUpdate(d: unknown): void {
    const session = this.session as Session;
    const parsed = v.safeParse(PresenceSchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    const isGameActivity = parsed.output.activities.some((activity) => activity.application_id !== undefined);
    if (isGameActivity && !session.gameActivityWindow.take()) {
      const retryAfter = session.gameActivityWindow.retryAfterMs / 1000;
      this.ctx.logger.debug({ sessionId: session.id, retryAfter }, 'gateway game activity update rate limited');
      session.dispatch(GatewayEvent.RateLimited, { opcode: GatewayOp.PresenceUpdate, retry_after: retryAfter, meta: {} });
      return;
    }
    const user = this.ctx.store.user(session.userId);
    if (user !== undefined) this.publishPresence(session, user, parsed.output as unknown as Session['presence']);
  }

  /** Sets the session's presence, with the activities the policy lets this session speak for. */
  private publishPresence(session: Session, user: UserRecord, presence: Session['presence']): void {
    const caller = sessionCaller(user, session.oauth?.applicationId);
    // A game that changes its session's status (Client::SetOnlineStatus) sets the player's status. **(ours)**
    if (session.oauth !== undefined && presence.status !== session.presence.status) session.statusChosenAt = this.ctx.now();
    this.ctx.presence.apply(session, { ...presence, activities: this.ctx.policy.activities(caller, presence.activities) }, this.ctx.now());
  }

  private requestGuildMembers(d: unknown): void {
    const session = this.session as Session;
    const parsed = v.safeParse(RequestGuildMembersSchema, d);
    if (!parsed.success || (parsed.output.query === undefined && parsed.output.user_ids === undefined)) {
      return this.close(GatewayClose.UnknownOpcode);
    }
    const user = this.ctx.store.user(session.userId);
    // The all-members cooldown is the player's within this session's game (or their own client's).
    const owner = user === undefined ? session.userId : bucketOwner(sessionCaller(user, session.oauth?.applicationId), 'application-user', '');
    for (const { t, d: data } of requestGuildMembers(this.ctx, session.userId, parsed.output, owner)) session.dispatch(t, data);
  }

  /** Op 4: join, move or leave a server's voice channel (voice/voice-service.ts). */
  private voiceStateUpdate(d: unknown): void {
    const session = this.session as Session;
    const parsed = v.safeParse(VoiceStateSchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    this.ctx.voice?.()?.update(session, parsed.output);
  }

  private requestChannelInfo(d: unknown): void {
    const session = this.session as Session;
    const parsed = v.safeParse(RequestChannelInfoSchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    const info = requestChannelInfo(this.ctx, session.userId, parsed.output);
    if (info !== undefined) session.dispatch(GatewayEvent.ChannelInfo, info);
  }

  private requestSoundboardSounds(d: unknown): void {
    const session = this.session as Session;
    const parsed = v.safeParse(RequestSoundboardSchema, d);
    if (!parsed.success) return this.close(GatewayClose.UnknownOpcode);
    for (const guildId of parsed.output.guild_ids) {
      if (this.ctx.store.isMember(guildId, session.userId)) {
        session.dispatch(GatewayEvent.SoundboardSounds, { guild_id: guildId, soundboard_sounds: [] });
      }
    }
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
