import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RpcError } from '../src/protocol/codes.js';
import type { Env } from '../src/transport/ipc-paths.js';
import { runSetActivity } from '../src/commands/set-activity.js';
import type { ActivityInput } from '../src/commands/activity-schema.js';
import { parseAcceptInviteArgs, parseInviteUserArgs, parseUserIdArgs } from '../src/commands/invite-args.js';
import { toU64String, type AuthorizationArgs } from './authorization-args.js';
import { authorizeResultFromRpcError, ClientResult, toClientResult } from './client-result.js';
import { ClientLobbies, type LobbyCallbacks, type LobbyHandle, type MessageHandle, type Metadata } from './client-lobbies.js';
import { PlatformSession, type PlatformStatus } from './platform-session.js';
import { ClientDms } from './client-dms.js';
import { ClientRelationships, type RelationshipCallbacks, type RelationshipChangedCallback, type RelationshipHandle, type UpdateRelationshipCallback } from './client-relationships.js';
import { ClientUsers } from './client-users.js';
import { CLIENT_CALL_RULES, guardCalls } from './call-args.js';
import type { UserHandle } from './user-handle.js';
import { ClientGuilds } from './client-guilds.js';
import { abortableSleep } from './device-http.js';
import { AUTHORIZE_DEVICE_SCREEN_CLOSED, ClientDevice, type DeviceAuthorizationArgs, type DeviceCode } from './client-device.js';
import { ClientPresence, steamLaunchCommand } from './client-presence.js';
import { isOnlineStatus, RelationshipGroups, SocialChangeWatch, type RelationshipGroupType, type UserChangedCallback } from './client-relationship-groups.js';
import { InviteUpdates } from './client-invite-updates.js';
import type { StatusType } from './user-handle.js';
import type { GuildChannel, GuildMinimal } from './guild-api.js';
import { browserAuthorize, generateState } from './browser-authorize.js';
import { authorizeUrl, mobileRedirectUri } from './redirects.js';
import type { BuildKind, ClientLogger, LogLevel } from './logger.js';
import * as oauth from './oauth-http.js';
import * as provisional from './provisional-api.js';
import { attempt } from './platform-request.js';
import { TokenEndReport, TokenExpiryWatch } from './token-expiry.js';
import { createAuthorizationCodeVerifier, type AuthorizationCodeVerifier } from './pkce.js';
import { getDefaultCommunicationScopes, getDefaultPresenceScopes } from './scopes.js';
import { RpcRequestError } from './connection/errors.js';
import type { BackoffOptions } from './connection/backoff.js';
import { SdkConnection, type ConnectionStatus, type SdkConnectionOptions, type TokenInvalidated } from './connection/sdk-connection.js';
import type { ReadyData } from './connection/rpc-socket.js';
import { ClientLogging, type LogCallback, type LogSeverity } from './client-logging.js';
import { ClientChannels, type ChannelHandle, type UserMessageSummary } from './client-messages-extra.js';
import { companionReachable, fetchUser, renameProvisionalAccount } from './client-status.js';
import { requireMetadata } from './dm-api.js';
import { MergeGate } from './merge-gate.js';
import { lobbyGuildInvite } from './lobby-guild-invite.js';
import { sdkVersion } from './sdk-version.js';
import { ClientVoice, type AudioProcessing, type NoAudioInputCallback } from './client-voice.js';
import { DEFAULT_AUDIO_DEVICE_ID, type DeviceChangeCallback } from './voice/virtual-device-set.js';
import type { Call } from './voice/call.js';
import type { UserAudioCapturedCallback, UserAudioReceivedCallback, VoiceParticipantChangedCallback } from './voice/call-types.js';
import type { AudioDevice, VirtualInputDevice, VirtualOutputDevice } from './voice/virtual-devices.js';

export type { ConnectionStatus, TokenInvalidated } from './connection/sdk-connection.js';
export type { ReadyData } from './connection/rpc-socket.js';
/** The activity a game sets: SET_ACTIVITY's `activity`, in the wire's snake_case names. */
export type Activity = ActivityInput;

export interface ClientOptions {
  /** The SDK's log: `build` 'release' (default: errors and warnings only) or 'debug' (also info and verbose); `sink` receives each line (default: stderr). */
  readonly logger?: { readonly build?: BuildKind; readonly sink?: (line: string) => void; readonly minLevel?: LogLevel };
  /** Environment for socket discovery and the launch-command file (default: process.env). */
  readonly env?: Env;
  /** Per-request timeout of RPC commands (default 30 000 ms). AUTHORIZE waits for the player: see `authorizeTimeoutMs`. */
  readonly requestTimeoutMs?: number;
  /** How long AUTHORIZE over RPC may wait for the player (default 6 minutes: above the host's own 5-minute limit, so its timed-out answer arrives first). */
  readonly authorizeTimeoutMs?: number;
  /** Base of the platform for the token endpoint and the browser fallback (`http://127.0.0.1:PORT`). Default: the origin of the last READY's `config.api_endpoint`, else https://discord.com. */
  readonly platformBase?: string;
  /** Opens a URL in the player's browser (browser fallback of authorize). Default: xdg-open / open / rundll32. */
  readonly openUrl?: (url: string) => void | Promise<void>;
  /** How long the browser fallback waits for the redirect (default 5 minutes). */
  readonly browserAuthorizeTimeoutMs?: number;
  /** Test hook: the wait between a device flow's polls (default: the platform's interval, with a timer). */
  readonly deviceFlowSleep?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
  /** The host's data directory, where `launch-commands.json` lives. Default `$XDG_CONFIG_HOME/companion` (else `~/.config/companion`), the host's own default. */
  readonly companionDataDir?: string;
  /** Connection details: socket paths, keepalive, backoff (see SdkConnectionOptions). */
  readonly connection?: Omit<SdkConnectionOptions, 'env' | 'requestTimeoutMs'>;
  /** The game's own gateway connection to the platform (opened by updateToken): its reconnect backoff (default 0.5 s doubling to 60 s, ±25 %). */
  readonly platformConnection?: { readonly backoff?: BackoffOptions };
}

/** The READY user and the users of join requests and invites. */
export interface RpcUserSummary {
  readonly id: string;
  readonly username: string;
  readonly discriminator?: string;
  readonly avatar?: string | null;
}

/** An invite for this game (ACTIVITY_INVITE), or one the player accepted on another device (ACTIVITY_INVITE_ACCEPTED). */
export interface ActivityInvite {
  /** 1 (join). */
  readonly type: number;
  readonly senderId: string;
  readonly sender: RpcUserSummary | null;
  readonly channelId: string;
  readonly messageId: string;
  /** The invite's application: the activity's `application_id` (a sibling application of the same developer may be invited to), else this game's id. */
  readonly applicationId: string;
  readonly partyId: string | null;
  /** The sender's activity as the invite shows it (never its secrets). */
  readonly activity: unknown;
  /** false when it was already accepted on another device (nothing left to accept here). */
  readonly isValid: boolean;
}

/** A friend asking to join (ACTIVITY_JOIN_REQUEST). */
export interface ActivityJoinRequest {
  readonly user: RpcUserSummary;
  readonly channelId: string | null;
  readonly messageId: string | null;
}

export type StatusCallback = (status: ConnectionStatus, error: string | null, closeCode: number | null) => void;
export type AuthorizeCallback = (result: ClientResult, code: string | null, redirectUri: string | null) => void;
export type TokenCallback = (result: ClientResult, accessToken: string | null, refreshToken: string | null, tokenType: string | null, expiresIn: number, scopes: string) => void;
export type ResultCallback = (result: ClientResult) => void;
/** Client::ExchangeChildToken's callback: the child token (there is no refresh token). */
export type ChildTokenCallback = (result: ClientResult, accessToken: string | null, tokenType: string | null, expiresIn: number, scopes: string) => void;
/** Told that the token given to updateToken was dropped (revoked: CLOSE 4003; refused on a reconnect: 4009). */
export type TokenExpirationCallback = (info: TokenInvalidated) => void;

export interface AuthorizeOptions {
  /** Aborting it ends the authorize with `Aborted` (the browser flow's listener closes; over RPC the reply is no longer awaited). */
  readonly signal?: AbortSignal;
}

/** A custom-scheme authorize request for a game that registers the scheme and reads the redirect itself. */
export interface CustomSchemeAuthorizeRequest {
  /** `<platformBase>/oauth2/authorize?...` with `redirect_uri` = `redirectUri`. Open it in the browser. */
  readonly url: string;
  /** The state in the URL (args.state(), else a generated one): compare it with the redirect's `state`. */
  readonly state: string;
  /** `<CustomSchemeParam>:/authorize/callback`, else `discord-<application id>:/authorize/callback`: pass it to getToken. */
  readonly redirectUri: string;
}

export interface AuthorizeOutcome {
  readonly result: ClientResult;
  readonly code: string | null;
  /** null over RPC (redeem without a redirect); the loopback redirect of the browser fallback. */
  readonly redirectUri: string | null;
  /** How it was asked: 'rpc' (a running companion) or 'browser'. */
  readonly via: 'rpc' | 'browser';
}

export interface TokenOutcome {
  readonly result: ClientResult;
  readonly token: oauth.TokenResponse | null;
}

/** RPC error 4009: Companion refused the token (invalid, or another account's). */
const INVALID_TOKEN = 4009;
const EVENT_JOIN = 'ACTIVITY_JOIN';
const EVENT_JOIN_REQUEST = 'ACTIVITY_JOIN_REQUEST';
const EVENT_INVITE = 'ACTIVITY_INVITE';
const EVENT_INVITE_ACCEPTED = 'ACTIVITY_INVITE_ACCEPTED';
const EVENT_AUTHORIZE_REQUEST = 'AUTHORIZE_REQUEST';

/**
 * The game-side SDK, in the Social SDK's style (camelCase of `discordpp::Client`). Every
 * operation that takes a callback also returns a Promise of the same values, and neither ever
 * rejects: failures are ClientResults. Callbacks are optional.
 *
 * ```ts
 * const client = new Client();
 * client.setApplicationId('1234567890123456789');
 * await client.connect();
 * await client.updateRichPresence({ state: 'In a squad', party: { id: 'p1', size: [1, 4] }, secrets: { join: 'abc123' } });
 * client.setActivityJoinCallback((secret) => joinLobby(secret));
 * ```
 */
export class Client {
  readonly logger: ClientLogger;
  readonly connection: SdkConnection;
  private applicationId: string | undefined;
  private httpTimeoutMs = oauth.DEFAULT_HTTP_TIMEOUT_MS;
  /** Lobbies, through the game's own platform session (its Bearer token from updateToken). */
  private readonly lobbies = new ClientLobbies(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }), {
    meet: (user) => this.users.meet(user),
    get: (userId) => this.users.get(userId),
  });
  /** Direct messages between players of the game, through the same session. */
  private readonly dms = new ClientDms(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }), this.lobbies.remember, this.lobbies.forget);
  /** The player's relationships, through the same session. */
  private readonly relationships = new ClientRelationships(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }));
  /** The player and the users the game's own session told of (getCurrentUserV2, getUser). */
  private readonly users = new ClientUsers({
    applicationId: () => this.applicationId,
    cdnBase: () => this.cdnBase(),
    related: (userId) => this.relationships.relatedUser(userId),
    ownStatus: () => this.presence.chosen,
  });
  /** The player's guilds and their channels, through the same session. */
  private readonly guilds = new ClientGuilds(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }));
  /** The device authorization flow (consoles, TVs) and Companion's code-entry screen (client-device.ts). */
  private readonly device = new ClientDevice({
    applicationId: () => this.applicationId,
    addSecret: (secret) => this.logger.addSecret(secret),
    tokenCall: (callback, call) => this.tokenCall(callback, call),
    send: (cmd, args) => this.send(cmd, args),
    sleep: (ms, signal) => (this.options.deviceFlowSleep ?? abortableSleep)(ms, signal),
  });
  /** The game's own gateway connection to the platform, opened by updateToken (platform-session.ts). */
  private readonly platform: PlatformSession;
  /** The player's status and join requests, through the same session (client-presence.ts). */
  private readonly presence = new ClientPresence({
    call: () => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }),
    updatePresence: (presence) => this.platform.updatePresence(presence),
  });
  /** The unified friends list over the caches, and the user / group callbacks (client-relationship-groups.ts). */
  private readonly groups = new RelationshipGroups({ relationships: () => this.relationships.cached(), user: (userId) => this.users.get(userId) });
  private readonly socialWatch = new SocialChangeWatch({ relationships: () => this.relationships.cached(), user: (userId) => this.users.get(userId) }, (callback, error) =>
    this.logger.error('a callback threw', { callback, error }),
  );
  /** Received invites, called back when their sender's presence makes them (in)valid (client-invite-updates.ts). */
  private readonly inviteUpdates = new InviteUpdates(
    {
      online: (userId) => isOnlineStatus(this.users.status(userId)),
      gameActivity: (userId) => this.users.gameActivity(userId),
      applicationId: () => this.applicationId,
      me: () => this.users.current()?.id,
    },
    (error) => this.logger.error('a callback threw', { callback: 'activityInviteUpdated', error }),
  );
  private joinWithApplicationCallback: ((applicationId: string, joinSecret: string) => void) | undefined;
  /** The token's end, reported through the token expiration callback shortly before (token-expiry.ts). */
  private readonly tokenExpiry = new TokenExpiryWatch({
    platformBase: () => this.platformBase(),
    timeoutMs: () => this.httpTimeoutMs,
    expiring: (expiresAt) => this.tokenEnd.report({ reason: 'expiring', code: 0, message: `the token expires at ${expiresAt.toISOString()}` }),
  });
  /** One token expiration callback per token, however many ways its end is seen. */
  private readonly tokenEnd = new TokenEndReport((info) => {
    try {
      this.tokenExpirationCallback?.(info);
    } catch (error) {
      this.logger.error('a callback threw', { callback: 'tokenExpiration', error });
    }
  });
  private lastReady: ReadyData | null = null;
  /**
   * The token of updateToken, for the game's own platform session and calls. The RPC link keeps
   * its own copy to AUTHENTICATE after reconnects, dropped when Companion refuses it (another
   * account's, e.g. a provisional player's on a machine where Companion is signed in as someone
   * else) while the game's session keeps playing with it.
   */
  private gameToken: string | null = null;
  private statusCallback: StatusCallback | undefined;
  private joinCallback: ((joinSecret: string) => void) | undefined;
  private joinRequestCallback: ((user: RpcUserSummary, request: ActivityJoinRequest) => void) | undefined;
  private inviteCreatedCallback: ((invite: ActivityInvite) => void) | undefined;
  private authorizeRequestCallback: (() => void) | undefined;
  private tokenExpirationCallback: TokenExpirationCallback | undefined;
  /** One per browser flow in flight; disconnect() aborts them. */
  private readonly browserFlows = new Set<AbortController>();
  /** The SDK's log destinations (addLogCallback, setLogDir, the constructor's sink). */
  private readonly logging: ClientLogging;
  /** One per authorize in flight; abortAuthorize() aborts them. */
  private readonly authorizeAborts = new Set<AbortController>();
  /** Calls waiting for a provisional account's merge (provisionalUserMergeCompleted). */
  private readonly mergeGate = new MergeGate();
  /** Channel handles, DM summaries and which messages Companion can open. */
  private readonly channels = new ClientChannels(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }), {
    me: () => this.users.current()?.id,
    lobby: (lobbyId) => this.lobbies.handle(lobbyId),
    message: (messageId) => this.lobbies.message(messageId),
    userName: (userId) => this.users.get(userId)?.displayName,
    openedDms: () => this.dms.opened(),
  });
  private showingChat = false;
  /** Lobby calls, the player's mute/deafen across them and the virtual audio devices (client-voice.ts). */
  private readonly voice: ClientVoice;
  private showingChatFollowed = false;

  constructor(private readonly options: ClientOptions = {}) {
    this.logging = new ClientLogging(options.logger);
    this.logger = this.logging.logger;
    this.voice = new ClientVoice(() => ({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }), this.logger);
    this.platform = new PlatformSession({
      platformBase: () => this.platformBase(),
      token: () => this.gameToken,
      timeoutMs: () => this.httpTimeoutMs,
      dispatch: (event) => {
        const before = this.socialWatch.before(event);
        this.lobbies.dispatch(event);
        this.relationships.dispatch(event);
        this.users.dispatch(event);
        this.socialWatch.after(before);
        this.inviteUpdates.dispatched(event);
      },
      ...(options.platformConnection?.backoff === undefined ? {} : { backoff: options.platformConnection.backoff }),
      log: this.logger,
      statusChanged: (status) => {
        this.users.sessionStatus(status);
        this.relationships.sessionStatus(status);
      },
      loadOnReady: () => this.relationships.loadOnReady().catch((error: unknown) => this.logger.warning('the relationships could not be loaded when the session was ready', { error })),
      tokenRefused: () => this.tokenEnd.report({ reason: 'invalid', code: 4004, message: 'the platform no longer accepts the token' }),
    });
    this.connection = new SdkConnection({
      ...options.connection,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    });
    this.connection.on('status', (status, previous) => this.logger.info('status changed', { status, previous }));
    this.connection.on('ready', (ready) => {
      this.lastReady = ready;
      this.statusCallback?.('ready', null, null);
    });
    this.connection.on('disconnected', (detail) => {
      const { close } = detail;
      const text = close.code === null ? close.message : `${close.code} ${close.message}`;
      (detail.fatal ? this.logger.error : detail.willReconnect ? this.logger.warning : this.logger.info)('disconnected from Companion', {
        reason: close.reason,
        closeCode: close.code,
        message: close.message,
        willReconnect: detail.willReconnect,
      });
      this.statusCallback?.(detail.willReconnect ? 'reconnecting' : 'disconnected', close.reason === 'local' ? null : text, close.code);
    });
    this.connection.on('reconnect-scheduled', (delayMs, attempt) => this.logger.verbose('reconnect scheduled', { delayMs, attempt }));
    this.connection.on('reconnect-failed', (error) => {
      (error.fatal ? this.logger.error : this.logger.verbose)('reconnect attempt failed', { reason: error.reason, closeCode: error.closeCode, message: error.message });
      if (error.fatal) this.statusCallback?.('disconnected', error.message, error.closeCode);
    });
    this.connection.on('restore-failed', (cmd, error) => this.logger.warning('could not restore state after connecting', { cmd, code: error.code, message: error.message }));
    this.connection.on('event', (evt, data) => this.onEvent(evt, data));
    this.connection.on('token-invalidated', (info) => {
      this.gameToken = null;
      this.logger.warning('the access token was dropped: it is no longer sent after reconnects', { reason: info.reason, code: info.code, message: info.message });
      this.tokenEnd.report(info);
    });
  }

  // ---- setup and connection

  /** Client::SetApplicationId: the application the connection handshakes as, and the default client id of `authorize`. A decimal string or a bigint. */
  setApplicationId(applicationId: string | bigint): void {
    this.applicationId = toU64String(applicationId, 'applicationId');
  }

  getApplicationId(): string | undefined {
    return this.applicationId;
  }

  /**
   * Client::Connect: finds Companion's socket, handshakes and waits for READY; then re-sends
   * the presence, token and event subscriptions set so far. Resolves `ok` or the failure
   * (`ClientNotReady` when no companion runs; `RpcError` with the CLOSE code when it refuses
   * the application). After a later drop it reconnects by itself with backoff (0.5 s doubling
   * to 60 s) unless the refusal is fatal (4000, 4004); a failed first connect does not retry:
   * call connect() again. While `reconnecting` it runs the next attempt now and, if that
   * fails, resolves the failure while the reconnecting (and its backoff) goes on. The backoff
   * starts over only after a connection stayed up 30 s, or after disconnect().
   */
  async connect(callback?: ResultCallback): Promise<ClientResult> {
    let result: ClientResult;
    if (this.applicationId === undefined) {
      result = ClientResult.validation('setApplicationId must be called before connect');
    } else {
      try {
        const ready = await this.connection.connect(this.applicationId);
        this.lastReady = ready;
        this.logger.info('connected to Companion', { path: this.connection.path, user: ready.user?.id });
        result = ClientResult.ok();
      } catch (error) {
        const e = error as { message?: string; closeCode?: number | null; fatal?: boolean; reason?: string };
        const message = e.message ?? String(error);
        this.logger.warning('could not connect to Companion', { reason: e.reason, closeCode: e.closeCode, message });
        result =
          e.closeCode !== null && e.closeCode !== undefined
            ? ClientResult.failure('RpcError', message, { errorCode: e.closeCode, retryable: e.fatal !== true })
            : ClientResult.failure('ClientNotReady', message, { retryable: true });
      }
    }
    callback?.(result);
    return result;
  }

  /**
   * Client::Disconnect: closes the connection (CLOSE 1000), stops reconnecting, and aborts a
   * browser authorize in flight (its listener and timer go; its result is `Aborted`), so
   * nothing of the SDK keeps the process alive.
   */
  async disconnect(): Promise<void> {
    for (const flow of this.browserFlows) flow.abort();
    this.mergeGate.completed(false);
    await this.voice.close();
    this.platform.stop();
    this.tokenExpiry.stop();
    await this.connection.disconnect();
  }

  /** Client::GetStatus. */
  getStatus(): ConnectionStatus {
    return this.connection.status;
  }

  /**
   * The platform the SDK calls **(ours)**: the `platformBase` option, else the one Companion
   * named in its READY (`config.api_endpoint`: Companion's emulator or platform), else
   * https://discord.com. Token calls and updateToken ask Companion first when nothing named it yet.
   */
  getPlatformBase(): string {
    return this.platformBase();
  }

  /** The signed-in user of the last READY (null before the first). */
  getCurrentUser(): RpcUserSummary | null {
    const user = this.lastReady?.user;
    return user === undefined ? null : user;
  }

  /** Client::GetCurrentUserV2: the player as the game's own platform session knows them; undefined until its READY (after updateToken), and after it ended. */
  getCurrentUserV2(): UserHandle | undefined {
    return this.users.current();
  }

  /** Client::GetUser: the player, one of the player's relationships (friends, requests, blocks) or a user the game met (lobby member, message author) as a live handle; undefined for a user the session did not tell of. */
  getUser(userId: string): UserHandle | undefined {
    return this.users.get(userId);
  }

  /** Client::GetUserGuilds: the guilds the player is in (the game's token with `guilds`, in `sdk.social_layer`). */
  getUserGuilds(callback?: (result: ClientResult, guilds: readonly GuildMinimal[]) => void): Promise<{ result: ClientResult; guilds: readonly GuildMinimal[] }> {
    return this.guilds.userGuilds(callback);
  }

  /** Client::GetGuildChannels: a guild's channels (`guilds.channels.read`, in `sdk.social_layer`), sorted as the desktop client lists them. */
  getGuildChannels(guildId: string, callback?: (result: ClientResult, channels: readonly GuildChannel[]) => void): Promise<{ result: ClientResult; channels: readonly GuildChannel[] }> {
    return this.guilds.channels(guildId, callback);
  }

  /**
   * Client::SetStatusChangedCallback: `(status, error, closeCode)` on READY ('ready'), on a
   * drop ('reconnecting' with the close reason, or 'disconnected' when it will not
   * reconnect: a deliberate disconnect has error null, a fatal refusal its message and code).
   */
  setStatusChangedCallback(callback: StatusCallback | undefined): void {
    this.statusCallback = callback;
  }

  /**
   * Client::SetTokenExpirationCallback: `callback({reason, code, message})` when the token
   * given to updateToken stops being usable and the SDK drops it (it is then no longer sent
   * after reconnects): `revoked` when Companion closes the connection with 4003 (the
   * player removed the app's authorization; the SDK reconnects without a token), `invalid`
   * when the AUTHENTICATE that restores it after a reconnect is refused with 4009 (expired
   * or revoked). Authorize again or refresh, then call updateToken. Once per token: a ban ends
   * it on both paths at once (Companion's 4003, the platform's 4004) and only the first is
   * told. undefined removes it.
   */
  setTokenExpirationCallback(callback: TokenExpirationCallback | undefined): void {
    this.tokenExpirationCallback = callback;
  }

  /** Client::SetHttpRequestTimeout: the whole-request limit of every platform HTTP call (tokens, lobbies, DMs, relationships, guilds and channels; default 30 000 ms). */
  setHttpRequestTimeout(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError('the HTTP request timeout must be a positive number of milliseconds');
    this.httpTimeoutMs = ms;
  }

  // ---- authorization

  /** Client::GetDefaultCommunicationScopes: `openid sdk.social_layer`. */
  getDefaultCommunicationScopes(): string {
    return getDefaultCommunicationScopes();
  }

  /** Client::GetDefaultPresenceScopes: `openid sdk.social_layer_presence`. */
  getDefaultPresenceScopes(): string {
    return getDefaultPresenceScopes();
  }

  /** Client::CreateAuthorizationCodeVerifier: a PKCE verifier (S256). Put `challenge()` in the args, give `verifier()` to getToken. */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    return createAuthorizationCodeVerifier();
  }

  /**
   * Client::Authorize. With a companion running (connected, or a connect succeeds now) it sends
   * AUTHORIZE `{client_id: args.clientId() ?? the application id, scopes, state (args.state()
   * or a secure random value), nonce?, code_challenge?, code_challenge_method?,
   * integration_type?, pid}` and the callback gets `(result, code, null)`: redeem the code with
   * getToken and a null redirect. Refusals are read with the outcome table: the player's
   * deny / dismiss / timeout is `UserCancelled`; `invalid_scope` / `invalid_request` are
   * `InvalidRequest`; `server_error` is `ServerError`. With no companion it runs the browser
   * flow (loopback listener, state checked) and the callback gets the loopback redirect URI
   * to pass to getToken.
   *
   * - While the connection is `reconnecting` (a companion was there moments ago) it tries one
   *   reconnect now; if that fails it answers `ClientNotReady` (retryable) instead of opening
   *   the browser, and the reconnect schedule goes on: call authorize again once the status
   *   callback says 'ready'.
   * - Without setApplicationId, a companion is looked for as `args.clientId()`.
   * - The reply's `state`: Companion answers `{code}` only (as the desktop client does), so
   *   the state is not required in the reply; the local socket only reaches this user's
   *   Companion, which checked the request itself. If a reply does carry a state, it must
   *   match, else the code is dropped.
   * - `options.signal` (and disconnect()) abort it: `Aborted`.
   */
  async authorize(args: AuthorizationArgs, callback?: AuthorizeCallback, options: AuthorizeOptions = {}): Promise<AuthorizeOutcome> {
    // abortAuthorize() ends it as options.signal does.
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    if (options.signal?.aborted === true) abort.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.authorizeAborts.add(abort);
    let outcome: AuthorizeOutcome;
    try {
      outcome = await this.authorizeInner(args, abort.signal);
    } finally {
      this.authorizeAborts.delete(abort);
      options.signal?.removeEventListener('abort', onAbort);
    }
    this.logger.info('authorize finished', { via: outcome.via, result: outcome.result.type });
    callback?.(outcome.result, outcome.code, outcome.redirectUri);
    return outcome;
  }

  private async authorizeInner(args: AuthorizationArgs, signal: AbortSignal | undefined): Promise<AuthorizeOutcome> {
    if (!args.isValid()) return { result: ClientResult.validation('the AuthorizationArgs are not valid (moved from or nullobj)'), code: null, redirectUri: null, via: 'rpc' };
    const clientId = args.clientId() ?? this.applicationId;
    if (clientId === undefined) return { result: ClientResult.validation('no client id: set it in the args or call setApplicationId'), code: null, redirectUri: null, via: 'rpc' };
    if (signal?.aborted === true) return { result: ClientResult.aborted(), code: null, redirectUri: null, via: 'rpc' };

    if (!this.connection.isReady) await this.connectAs(this.applicationId ?? clientId);
    if (!this.connection.isReady && this.connection.status === 'reconnecting') {
      const result = ClientResult.failure('ClientNotReady', 'Companion is reconnecting: authorize again once the connection is ready (the browser is not opened while a companion is expected back)', {
        retryable: true,
      });
      return { result, code: null, redirectUri: null, via: 'rpc' };
    }
    if (!this.connection.isReady) return this.browserFallback(args, clientId, signal);

    const rpcArgs: Record<string, unknown> = { client_id: clientId, scopes: args.scopes(), state: args.state() ?? generateState(), pid: this.connection.pid };
    const nonce = args.nonce();
    if (nonce !== undefined) rpcArgs['nonce'] = nonce;
    const challenge = args.codeChallenge();
    if (challenge !== undefined) {
      rpcArgs['code_challenge'] = challenge.challenge();
      rpcArgs['code_challenge_method'] = challenge.method();
    }
    const integrationType = args.integrationType();
    if (integrationType !== undefined) rpcArgs['integration_type'] = integrationType;
    this.logger.verbose('AUTHORIZE over RPC', { clientId, scopes: args.scopes() });
    try {
      const request = this.connection.request('AUTHORIZE', rpcArgs, { timeoutMs: this.options.authorizeTimeoutMs ?? 6 * 60_000 });
      const data = (await (signal === undefined ? request : abortable(request, signal))) as { code?: unknown; state?: unknown } | null;
      const code = typeof data?.code === 'string' ? data.code : null;
      if (code === null) return { result: ClientResult.failure('AuthorizationFailed', 'the AUTHORIZE reply carried no code'), code: null, redirectUri: null, via: 'rpc' };
      if (data?.state !== undefined && data.state !== rpcArgs['state']) {
        return { result: ClientResult.failure('AuthorizationFailed', "the reply's state does not match the request's; its code was discarded"), code: null, redirectUri: null, via: 'rpc' };
      }
      this.logger.addSecret(code);
      return { result: ClientResult.ok(), code, redirectUri: null, via: 'rpc' };
    } catch (error) {
      if (error === ABORTED) return { result: ClientResult.aborted(), code: null, redirectUri: null, via: 'rpc' };
      const result = error instanceof RpcRequestError && error.kind === 'rpc-error' && error.code !== null ? authorizeResultFromRpcError(error.code, error.message) : this.requestFailure(error);
      return { result, code: null, redirectUri: null, via: 'rpc' };
    }
  }

  /** connect() as `id` (the application id, else the args' client id); the result is read from the status afterwards. */
  private async connectAs(id: string): Promise<void> {
    if (this.applicationId !== undefined) {
      await this.connect();
      return;
    }
    try {
      this.lastReady = await this.connection.connect(id);
    } catch (error) {
      this.logger.info('no companion for the authorize', { clientId: id, error });
    }
  }

  private async browserFallback(args: AuthorizationArgs, clientId: string, signal: AbortSignal | undefined): Promise<AuthorizeOutcome> {
    const platformBase = this.platformBase();
    this.logger.info('no companion running: authorizing in the browser', { platformBase });
    const flow = new AbortController();
    const onAbort = (): void => flow.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.browserFlows.add(flow);
    try {
      const outcome = await browserAuthorize({
        platformBase,
        args,
        applicationId: clientId,
        signal: flow.signal,
        ...(this.options.openUrl === undefined ? {} : { openUrl: this.options.openUrl }),
        ...(this.options.browserAuthorizeTimeoutMs === undefined ? {} : { timeoutMs: this.options.browserAuthorizeTimeoutMs }),
      });
      if (outcome.code !== undefined) this.logger.addSecret(outcome.code);
      return { result: outcome.result, code: outcome.code ?? null, redirectUri: outcome.redirectUri, via: 'browser' };
    } catch (error) {
      return { result: toClientResult(error), code: null, redirectUri: null, via: 'browser' };
    } finally {
      this.browserFlows.delete(flow);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The authorize URL for a game that registers its own URL scheme (mobile-style, seed
   * CustomSchemeParam) and reads the redirect itself: `{url, state, redirectUri}` where
   * `redirectUri` is `<args.customSchemeParam()>:/authorize/callback`, else
   * `discord-<application id>:/authorize/callback`; `state` is `args.state()`, else a secure
   * random value; the URL is `<platformBase>/oauth2/authorize?...` with the args' client id
   * (else the application id), scopes, state, redirect, nonce, PKCE challenge and
   * integration type. The game opens `url`, checks the redirect's `state` equals `state`,
   * and redeems its `code` with getToken(..., redirectUri). Throws (TypeError / RangeError)
   * for invalid args or a missing application id: these are programming errors.
   */
  customSchemeAuthorizeUrl(args: AuthorizationArgs): CustomSchemeAuthorizeRequest {
    if (typeof (args as Partial<AuthorizationArgs> | null)?.isValid !== 'function') throw new TypeError('customSchemeAuthorizeUrl: args must be an AuthorizationArgs (new AuthorizationArgs())');
    if (!args.isValid()) throw new TypeError('the AuthorizationArgs are not valid (moved from or nullobj)');
    const applicationId = args.clientId() ?? this.applicationId;
    if (applicationId === undefined) throw new TypeError('no client id: set it in the args or call setApplicationId');
    const state = args.state() ?? generateState();
    const redirectUri = mobileRedirectUri(applicationId, args.customSchemeParam());
    return { url: authorizeUrl(this.platformBase(), args, applicationId, redirectUri, state), state, redirectUri };
  }

  /**
   * Client::GetToken: redeems `code` at `<platformBase>/api/v10/oauth2/token` with the PKCE
   * verifier; `redirectUri` null for RPC codes, the loopback URI for browser codes. The
   * callback is the Social SDK's `(result, accessToken, refreshToken, tokenType, expiresIn,
   * scopes)`. The code, verifier and both tokens are registered as log secrets.
   */
  async getToken(applicationId: string | bigint, code: string, codeVerifier: string | null, redirectUri: string | null, callback?: TokenCallback): Promise<TokenOutcome> {
    this.logger.addSecret(code);
    if (codeVerifier !== null) this.logger.addSecret(codeVerifier);
    return this.tokenCall(callback, (common) =>
      oauth.getToken({
        ...common,
        applicationId,
        code,
        ...(codeVerifier === null ? {} : { codeVerifier }),
        ...(redirectUri === null ? {} : { redirectUri }),
      }),
    );
  }

  /**
   * Client::GetTokenFromDevice: the OAuth2 device authorization grant for a console or TV.
   * The platform hands out a user code (told to setDeviceCodeCallback's callback, to show with
   * its verification URI); the player enters it in Companion (openAuthorizeDeviceScreen) and
   * approves; the SDK polls meanwhile and calls back with the tokens, as getToken's callback.
   * abortGetTokenFromDevice ends it with an Aborted result.
   */
  getTokenFromDevice(args: DeviceAuthorizationArgs, callback?: TokenCallback): Promise<TokenOutcome> {
    return this.device.getToken(args, callback);
  }

  /** Client::GetTokenFromDeviceProvisionalMerge: getTokenFromDevice, with the identity's provisional account merged into the approving account. */
  getTokenFromDeviceProvisionalMerge(args: DeviceAuthorizationArgs, externalAuthType: provisional.ExternalAuthType | string, externalAuthToken: string, callback?: TokenCallback): Promise<TokenOutcome> {
    return this.device.getToken(args, callback, { type: externalAuthType, token: externalAuthToken });
  }

  /** Client::AbortGetTokenFromDevice: the running device flow stops polling; its callback gets an Aborted result. */
  abortGetTokenFromDevice(): void {
    this.device.abort();
  }

  /** Told the user code, verification URI and lifetime of a device flow, for a game that shows them itself **(ours)**. */
  setDeviceCodeCallback(callback: ((code: DeviceCode) => void) | null): void {
    this.device.setDeviceCodeCallback(callback);
  }

  /** Client::OpenAuthorizeDeviceScreen: asks Companion to show its code-entry screen with `userCode` filled in (RPC OPEN_AUTHORIZE_DEVICE_SCREEN, ours). */
  openAuthorizeDeviceScreen(clientId: string | bigint, userCode: string): Promise<ClientResult> {
    return this.device.openScreen(clientId, userCode);
  }

  /** Client::CloseAuthorizeDeviceScreen: asks Companion to hide its code-entry screen. */
  closeAuthorizeDeviceScreen(): Promise<ClientResult> {
    return this.device.closeScreen();
  }

  /** Client::SetAuthorizeDeviceScreenClosedCallback: called when the player closes Companion's code-entry screen. */
  setAuthorizeDeviceScreenClosedCallback(callback: (() => void) | null): void {
    this.device.setScreenClosedCallback(callback);
  }

  /** Client::RefreshToken: a new token pair for `refreshToken` (the old pair stops working). Same callback as getToken. */
  async refreshToken(applicationId: string | bigint, refreshToken: string, callback?: TokenCallback): Promise<TokenOutcome> {
    this.logger.addSecret(refreshToken);
    // The old token's end is the game's own doing: not told (before the callback, which may updateToken at once).
    const replacing: TokenCallback = (result, accessToken, ...rest) => {
      if (accessToken !== null) this.tokenEnd.replaced();
      callback?.(result, accessToken, ...rest);
    };
    return this.tokenCall(replacing, (common) => oauth.refreshToken({ ...common, applicationId, refreshToken }));
  }

  /**
   * Client::GetProvisionalToken: an external provider's token (OIDC ID token, Steam ticket,
   * ...) for the token of the player's provisional account, made on first use (public
   * clients). The token lasts an hour and has no refresh token (an empty string): get a
   * fresh provider token and call this again, then updateToken. A player who linked their
   * account answers 530010 (`result.errorCode`).
   */
  async getProvisionalToken(applicationId: string | bigint, externalAuthType: provisional.ExternalAuthType | string, externalAuthToken: string, callback?: TokenCallback): Promise<TokenOutcome> {
    this.logger.addSecret(externalAuthToken);
    return this.tokenCall(callback, (common) => provisional.getProvisionalToken({ ...common, applicationId, externalAuthType, externalAuthToken }), applicationId);
  }

  /**
   * Client::GetTokenFromProvisionalMerge: GetToken for a player who links: the provisional
   * account of the external identity is merged into the account that authorized (friends,
   * DMs and lobby memberships move). A ban answers 530017 until it lifts.
   */
  async getTokenFromProvisionalMerge(
    applicationId: string | bigint,
    code: string,
    codeVerifier: string | null,
    redirectUri: string | null,
    externalAuthType: provisional.ExternalAuthType | string,
    externalAuthToken: string,
    callback?: TokenCallback,
  ): Promise<TokenOutcome> {
    for (const secret of [code, codeVerifier, externalAuthToken]) if (secret !== null) this.logger.addSecret(secret);
    return this.tokenCall(callback, (common) =>
      oauth.getToken({
        ...common,
        applicationId,
        code,
        externalAuth: { type: externalAuthType, token: externalAuthToken },
        ...(codeVerifier === null ? {} : { codeVerifier }),
        ...(redirectUri === null ? {} : { redirectUri }),
      }),
    );
  }

  /** Client::UnmergeIntoProvisionalAccount: unlinks the identity's account (its tokens end); call getProvisionalToken after for the new provisional account. */
  async unmergeIntoProvisionalAccount(applicationId: string | bigint, externalAuthType: provisional.ExternalAuthType | string, externalAuthToken: string, callback?: ResultCallback): Promise<ClientResult> {
    this.logger.addSecret(externalAuthToken);
    let result: ClientResult;
    try {
      await provisional.unmergeIntoProvisionalAccount({ platformBase: this.platformBase(), applicationId, externalAuthType, externalAuthToken, timeoutMs: this.httpTimeoutMs });
      result = ClientResult.ok(204);
    } catch (error) {
      result = toClientResult(error);
    }
    callback?.(result);
    return result;
  }

  /** Client::GetUserApplicationProfiles: the player's profile with the game's identity provider (none for a player who never came through one). */
  async getUserApplicationProfiles(callback?: (result: ClientResult, profiles: readonly provisional.UserApplicationProfile[]) => void): Promise<{ result: ClientResult; profiles: readonly provisional.UserApplicationProfile[] }> {
    const outcome = await attempt(() => provisional.getUserApplicationProfiles({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }));
    const profiles = outcome.value ?? [];
    callback?.(outcome.result, profiles);
    return { result: outcome.result, profiles };
  }

  /** Client::ExchangeChildToken: a publisher application's token for one of its games' (public clients). */
  async exchangeChildToken(parentApplicationToken: string, childApplicationId: string | bigint, callback?: ChildTokenCallback): Promise<TokenOutcome> {
    this.logger.addSecret(parentApplicationToken);
    const outcome = await this.tokenCall(undefined, (common) => provisional.exchangeChildToken({ ...common, parentAccessToken: parentApplicationToken, childApplicationId }));
    callback?.(outcome.result, outcome.token?.accessToken ?? null, outcome.token?.tokenType ?? null, outcome.token?.expiresIn ?? 0, outcome.token?.scope ?? '');
    return outcome;
  }

  /** Client::RevokeToken: revokes `token` (and every token of that grant). */
  async revokeToken(applicationId: string | bigint, token: string, callback?: ResultCallback): Promise<ClientResult> {
    this.logger.addSecret(token);
    let result: ClientResult;
    try {
      await oauth.revokeToken({ platformBase: this.platformBase(), applicationId, token, timeoutMs: this.httpTimeoutMs });
      result = ClientResult.ok(200);
    } catch (error) {
      result = toClientResult(error);
    }
    callback?.(result);
    return result;
  }

  private async tokenCall(callback: TokenCallback | undefined, call: (common: { platformBase: string; timeoutMs: number }) => Promise<oauth.TokenResponse>, applicationId?: string | bigint): Promise<TokenOutcome> {
    let outcome: TokenOutcome;
    await this.discoverPlatform(applicationId);
    try {
      const token = await call({ platformBase: this.platformBase(), timeoutMs: this.httpTimeoutMs });
      this.logger.addSecret(token.accessToken);
      this.logger.addSecret(token.refreshToken);
      if (token.idToken !== undefined) this.logger.addSecret(token.idToken);
      outcome = { result: ClientResult.ok(200), token };
    } catch (error) {
      outcome = { result: toClientResult(error), token: null };
    }
    this.logger.info('token request finished', { result: outcome.result.type, status: outcome.result.status });
    const token = outcome.token;
    callback?.(outcome.result, token?.accessToken ?? null, token?.refreshToken ?? null, token?.tokenType ?? null, token?.expiresIn ?? 0, token?.scope ?? '');
    return outcome;
  }

  /**
   * Client::UpdateToken: hands the access token to Companion (AUTHENTICATE) so the connection
   * holds its scopes, and keeps it to authenticate again after a reconnect. The token is
   * registered as a log secret first: it never appears in the SDK's log at any level. Not
   * connected: kept and sent on connect (the result is `ok`). `tokenType` is 'Bearer'.
   */
  async updateToken(tokenType: 'Bearer' | string, token: string, callback?: ResultCallback): Promise<ClientResult> {
    let result: ClientResult;
    if (typeof token !== 'string' || token.length === 0) {
      result = ClientResult.validation('token must be a non-empty string');
    } else if (tokenType.toLowerCase() !== 'bearer') {
      result = ClientResult.validation(`unsupported token type ${tokenType} (only Bearer)`);
    } else {
      this.logger.addSecret(token);
      await this.discoverPlatform(undefined);
      this.gameToken = token;
      this.connection.setAccessToken(token);
      this.tokenEnd.renew();
      // The game's own session to the platform (again, with this token), and its end watched.
      this.platform.restart();
      void this.tokenExpiry.watch(token);
      result = await this.send('AUTHENTICATE', { access_token: token }, true);
      if (result.type === 'RpcError' && result.errorCode === INVALID_TOKEN && this.connection.currentAccessToken === token) {
        // Companion does not hold this token (another account's): not sent again after reconnects; the game's session keeps it.
        this.connection.setAccessToken(null);
        this.logger.info('Companion does not take this token; the game plays with it on its own platform session', { code: result.errorCode });
      }
    }
    callback?.(result);
    return result;
  }

  /** Client::RegisterAuthorizeRequestCallback: SUBSCRIBE AUTHORIZE_REQUEST (the player started account linking from Companion); kept across reconnects. */
  async registerAuthorizeRequestCallback(callback: () => void): Promise<ClientResult> {
    this.authorizeRequestCallback = callback;
    return this.subscribe(EVENT_AUTHORIZE_REQUEST);
  }

  /** Client::RemoveAuthorizeRequestCallback: UNSUBSCRIBE AUTHORIZE_REQUEST. */
  async removeAuthorizeRequestCallback(): Promise<ClientResult> {
    this.authorizeRequestCallback = undefined;
    return this.unsubscribe(EVENT_AUTHORIZE_REQUEST);
  }

  // ---- rich presence

  /**
   * Client::UpdateRichPresence: checks `activity` with the server's own SET_ACTIVITY code
   * (rpc/src/commands/set-activity.ts: schema, then the secret rules) before sending, so an
   * invalid activity fails here with exactly the server's answer (`ValidationError`,
   * `errorCode` 4000 with the Joi text, or 5005); then SET_ACTIVITY `{pid: process.pid,
   * activity}`. It is kept and re-sent after every reconnect. The result is `ok` whenever
   * the activity is kept for the connection: sent and acknowledged, or not connected (sent
   * on connect), or the connection dropped before the reply (sent again on the reconnect).
   * Failures are only the server's refusal (`RpcError`) and a `Timeout` (the reply did not
   * come; the presence is still kept for the next reconnect).
   */
  async updateRichPresence(activity: Activity, callback?: ResultCallback): Promise<ClientResult> {
    let result: ClientResult;
    const invalid = this.checkActivity(activity);
    if (invalid !== null) {
      result = invalid;
    } else {
      try {
        await this.connection.setPresence(activity);
        result = ClientResult.ok();
      } catch (error) {
        result = isKeptForReconnect(error) ? ClientResult.ok() : this.requestFailure(error);
      }
    }
    if (!result.successful) this.logger.warning('rich presence not updated', { error: result.error, code: result.errorCode });
    callback?.(result);
    return result;
  }

  /** Client::ClearRichPresence: SET_ACTIVITY `{pid}` (no activity); nothing is restored after a reconnect. `ok` also when not connected or dropped mid-request (a closed connection has no presence). */
  async clearRichPresence(callback?: ResultCallback): Promise<ClientResult> {
    let result: ClientResult;
    try {
      await this.connection.setPresence(null);
      result = ClientResult.ok();
    } catch (error) {
      result = isKeptForReconnect(error) ? ClientResult.ok() : this.requestFailure(error);
    }
    callback?.(result);
    return result;
  }

  /** The server's verdict on `activity` without sending it: null when valid, else its error as a result. */
  private checkActivity(activity: unknown): ClientResult | null {
    try {
      runSetActivity(
        { pid: this.connection.pid, activity },
        { applicationId: this.applicationId ?? '0', applicationName: '', transport: 'ipc', now: Date.now },
      );
      if (activity === null || activity === undefined) return ClientResult.validation('an activity is required (use clearRichPresence to clear it)');
      return null;
    } catch (error) {
      if (error instanceof RpcError) return ClientResult.failure('ValidationError', error.message, { errorCode: error.code });
      return ClientResult.validation(error instanceof Error ? error.message : String(error));
    }
  }

  // ---- invites

  /** Client::SendActivityInvite: ACTIVITY_INVITE_USER `{user_id, content?}`: invites a friend to the game's current party (5006 unless the presence is joinable). */
  async sendActivityInvite(userId: string, content: string | null, callback?: ResultCallback): Promise<ClientResult> {
    const args: Record<string, unknown> = { user_id: userId, pid: this.connection.pid };
    if (content !== null && content !== '') args['content'] = content;
    const result = this.checkArgs(() => parseInviteUserArgs(args)) ?? (await this.send('ACTIVITY_INVITE_USER', args));
    callback?.(result);
    return result;
  }

  /** Client::AcceptActivityInvite: ACCEPT_ACTIVITY_INVITE `{message_id}`; the callback gets `(result, joinSecret)`. */
  async acceptActivityInvite(invite: ActivityInvite | { readonly messageId: string }, callback?: (result: ClientResult, joinSecret: string | null) => void): Promise<{ result: ClientResult; joinSecret: string | null }> {
    const args = { message_id: invite.messageId, pid: this.connection.pid };
    let result = this.checkArgs(() => parseAcceptInviteArgs(args));
    let joinSecret: string | null = null;
    if (result === null) {
      try {
        const data = (await this.connection.request('ACCEPT_ACTIVITY_INVITE', args)) as { secret?: unknown } | null;
        joinSecret = typeof data?.secret === 'string' ? data.secret : null;
        result = joinSecret === null ? ClientResult.failure('RpcError', 'the reply carried no join secret') : ClientResult.ok();
      } catch (error) {
        result = this.requestFailure(error);
      }
    }
    callback?.(result, joinSecret);
    return { result, joinSecret };
  }

  /** Client::SendActivityJoinRequestReply: yes is SEND_ACTIVITY_JOIN_INVITE, no is CLOSE_ACTIVITY_JOIN_REQUEST, both `{user_id}`. */
  async sendActivityJoinRequestReply(userId: string, accept: boolean, callback?: ResultCallback): Promise<ClientResult> {
    const args = { user_id: userId, pid: this.connection.pid };
    const result = this.checkArgs(() => parseUserIdArgs(args)) ?? (await this.send(accept ? 'SEND_ACTIVITY_JOIN_INVITE' : 'CLOSE_ACTIVITY_JOIN_REQUEST', args));
    callback?.(result);
    return result;
  }

  /** Client::SetActivityJoinCallback: `callback(joinSecret)` on ACTIVITY_JOIN (the player joined a friend; a join that launched the game arrives right after this subscription). undefined removes it. */
  async setActivityJoinCallback(callback: ((joinSecret: string) => void) | undefined): Promise<ClientResult> {
    this.joinCallback = callback;
    return callback === undefined && this.joinWithApplicationCallback === undefined ? this.unsubscribe(EVENT_JOIN) : this.subscribe(EVENT_JOIN);
  }

  /** Client::SetActivityJoinWithApplicationCallback: `callback(applicationId, joinSecret)` on ACTIVITY_JOIN, beside setActivityJoinCallback's (the application is this game's). */
  async setActivityJoinWithApplicationCallback(callback: ((applicationId: string, joinSecret: string) => void) | undefined): Promise<ClientResult> {
    this.joinWithApplicationCallback = callback;
    return callback === undefined && this.joinCallback === undefined ? this.unsubscribe(EVENT_JOIN) : this.subscribe(EVENT_JOIN);
  }

  /**
   * Client::SetActivityInviteUpdatedCallback: `callback(invite)` when a received invite's
   * validity changes (its sender left the party or went offline, or came back), as the game's
   * own session (updateToken) hears their presence. Subscribes to ACTIVITY_INVITE to know the invites.
   */
  async setActivityInviteUpdatedCallback(callback: ((invite: ActivityInvite) => void) | undefined): Promise<ClientResult> {
    this.inviteUpdates.callback = callback;
    if (callback === undefined) return this.inviteCreatedCallback === undefined ? this.unsubscribe(EVENT_INVITE) : ClientResult.ok();
    return this.subscribe(EVENT_INVITE);
  }

  /** Client::SendActivityJoinRequest: asks a friend playing this game with a joinable party to let the player join (client-presence.ts). */
  sendActivityJoinRequest(userId: string, callback?: ResultCallback): Promise<ClientResult> {
    return this.presence.sendActivityJoinRequest(userId, callback);
  }

  /** Client::SetOnlineStatus: the status friends see (Online, Idle, Dnd, Invisible), through the game's own session (client-presence.ts). */
  setOnlineStatus(status: StatusType, callback?: ResultCallback): Promise<ClientResult> {
    return this.presence.setOnlineStatus(status, callback);
  }

  /** Client::RegisterLaunchSteamApplication: registerLaunchCommand with the desktop's opener of `steam://rungameid/<steamAppId>`, as the C library registers a Steam game. */
  async registerLaunchSteamApplication(applicationId: string | bigint, steamAppId: number): Promise<boolean> {
    let command: string[];
    try {
      command = steamLaunchCommand(steamAppId);
    } catch (error) {
      this.logger.error('launch command not registered', { error });
      return false;
    }
    return this.registerLaunchCommand(applicationId, command);
  }

  /** Client::SetActivityJoinRequestCallback: `callback(user, request)` on ACTIVITY_JOIN_REQUEST; answer with sendActivityJoinRequestReply(user.id, ...). */
  async setActivityJoinRequestCallback(callback: ((user: RpcUserSummary, request: ActivityJoinRequest) => void) | undefined): Promise<ClientResult> {
    this.joinRequestCallback = callback;
    return callback === undefined ? this.unsubscribe(EVENT_JOIN_REQUEST) : this.subscribe(EVENT_JOIN_REQUEST);
  }

  /**
   * Client::SetActivityInviteCreatedCallback: `callback(invite)` for each invite received
   * (ACTIVITY_INVITE, `isValid` true) and when an invite is accepted on another of the
   * player's devices (ACTIVITY_INVITE_ACCEPTED, `isValid` false).
   */
  async setActivityInviteCreatedCallback(callback: ((invite: ActivityInvite) => void) | undefined): Promise<ClientResult> {
    this.inviteCreatedCallback = callback;
    if (callback === undefined) {
      const results = await Promise.all([this.unsubscribe(EVENT_INVITE), this.unsubscribe(EVENT_INVITE_ACCEPTED)]);
      return results.find((r) => !r.successful) ?? ClientResult.ok();
    }
    const results = await Promise.all([this.subscribe(EVENT_INVITE), this.subscribe(EVENT_INVITE_ACCEPTED)]);
    return results.find((r) => !r.successful) ?? ClientResult.ok();
  }

  /**
   * Client::RegisterLaunchCommand: records how the host starts this game to deliver a join
   * when it is not running: `{"<applicationId>": ["command", "arg", ...]}` merged into
   * `<companionDataDir>/launch-commands.json` (default `$XDG_CONFIG_HOME/companion`, else
   * `~/.config/companion`: the host's data directory), written to a temp file and renamed
   * over it, so the host never reads half a file. Returns whether it was written.
   */
  // ---- lobbies (the game's own platform session: HTTP with the token of updateToken)

  /** Client::CreateOrJoinLobby: joins the game's lobby of this secret, or makes it; resolves with the lobby's id. */
  createOrJoinLobby(secret: string, callback?: (result: ClientResult, lobbyId: string | null) => void): Promise<{ result: ClientResult; lobbyId: string | null }> {
    return this.lobbies.createOrJoin(secret, undefined, undefined, callback);
  }

  /** Client::CreateOrJoinLobbyWithMetadata: as createOrJoinLobby, setting the lobby's and the player's metadata. */
  createOrJoinLobbyWithMetadata(secret: string, lobbyMetadata: Metadata, memberMetadata: Metadata, callback?: (result: ClientResult, lobbyId: string | null) => void): Promise<{ result: ClientResult; lobbyId: string | null }> {
    return this.lobbies.createOrJoin(secret, lobbyMetadata, memberMetadata, callback);
  }

  /** Client::LeaveLobby. */
  leaveLobby(lobbyId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.lobbies.leave(lobbyId, callback);
  }

  /** Client::LinkChannelToLobby: links a guild text channel (getGuildChannels' `isLinkable` ones) to a lobby made by the game's server; the player needs the CanLinkLobby member flag. */
  linkChannelToLobby(lobbyId: string, channelId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.lobbies.linkChannel(lobbyId, channelId, callback);
  }

  /** Client::UnlinkChannelFromLobby. */
  unlinkChannelFromLobby(lobbyId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.lobbies.linkChannel(lobbyId, null, callback);
  }

  /** Client::GetLobbyHandle: a lobby the game is in, as last seen (null for another); `refreshLobby` asks the platform. */
  getLobbyHandle(lobbyId: string): LobbyHandle | null {
    return this.lobbies.handle(lobbyId);
  }

  /** The lobby as the platform has it now (ours: the Social SDK keeps it current from gateway events). */
  refreshLobby(lobbyId: string): Promise<{ result: ClientResult; lobby: LobbyHandle | null }> {
    return this.lobbies.refresh(lobbyId);
  }

  /** Client::GetLobbyIds. */
  getLobbyIds(): string[] {
    return this.lobbies.ids();
  }

  /** Client::GetRelationships, asked of the platform: every user with a relationship, platform-wide or in this game (both types on each handle). */
  getRelationships(): Promise<{ result: ClientResult; relationships: readonly RelationshipHandle[] }> {
    return this.relationships.list();
  }

  /** Client::GetRelationshipsByGroup: the friends in a group of the unified friends list, from the caches (client-relationship-groups.ts). */
  getRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    return this.groups.byGroup(groupType);
  }

  /** Client::SearchFriendsByUsername: friends whose username or display name matches, closest first (client-relationship-groups.ts). */
  searchFriendsByUsername(searchStr: string): UserHandle[] {
    return this.groups.search(searchStr);
  }

  /** Client::SetRelationshipGroupsUpdatedCallback: `callback(userId)` when a friend's entry in the friends list changes. */
  setRelationshipGroupsUpdatedCallback(callback: UserChangedCallback | undefined): void {
    this.socialWatch.groupsUpdated = callback;
  }

  /** Client::SetUserUpdatedCallback: `callback(userId)` when a user the session knows changes name, avatar, status or game activity. */
  setUserUpdatedCallback(callback: UserChangedCallback | undefined): void {
    this.socialWatch.userUpdated = callback;
  }

  /** Client::GetRelationshipHandle: the relationship with the user as the SDK knows it now (kept current by the game's session); both types None when there is none. */
  getRelationshipHandle(userId: string): RelationshipHandle {
    return this.relationships.handle(userId);
  }

  /** Sends a platform-wide friend request to the user, or accepts theirs (sendDiscordFriendRequestById without its check of the id). */
  sendFriendRequest(userId: string): Promise<ClientResult> {
    return this.relationships.request(userId);
  }

  /** Unfriends, cancels or rejects a platform-wide request, or unblocks: whatever platform-wide stands between the player and the user. */
  removeRelationship(userId: string): Promise<ClientResult> {
    return this.relationships.remove(userId);
  }

  /** Client::SendDiscordFriendRequest: to the user with that unique username (not the display name); accepts theirs if they asked first. */
  sendDiscordFriendRequest(username: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.sendByName('discord', username, callback);
  }

  /** Client::SendDiscordFriendRequestById. */
  sendDiscordFriendRequestById(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.send('discord', userId, callback);
  }

  /** Client::SendGameFriendRequest: a friend request in this game only, by unique username; accepts theirs if they asked first. */
  sendGameFriendRequest(username: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.sendByName('game', username, callback);
  }

  /** Client::SendGameFriendRequestById. */
  sendGameFriendRequestById(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.send('game', userId, callback);
  }

  /** Client::AcceptDiscordFriendRequest: fails unless the Discord type is PendingIncoming. */
  acceptDiscordFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.accept('discord', userId, callback);
  }

  /** Client::AcceptGameFriendRequest: fails unless the game type is PendingIncoming. */
  acceptGameFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.accept('game', userId, callback);
  }

  /** Client::RejectDiscordFriendRequest: fails unless the Discord type is PendingIncoming. */
  rejectDiscordFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.reject('discord', userId, callback);
  }

  /** Client::RejectGameFriendRequest: fails unless the game type is PendingIncoming. */
  rejectGameFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.reject('game', userId, callback);
  }

  /** Client::CancelDiscordFriendRequest: fails unless the Discord type is PendingOutgoing. */
  cancelDiscordFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.cancel('discord', userId, callback);
  }

  /** Client::CancelGameFriendRequest: fails unless the game type is PendingOutgoing. */
  cancelGameFriendRequest(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.cancel('game', userId, callback);
  }

  /** Client::RemoveDiscordAndGameFriend: ends both friendships; fails when the user is neither kind of friend. */
  removeDiscordAndGameFriend(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.removeBoth(userId, callback);
  }

  /** Client::RemoveGameFriend: fails unless the user is a game friend. */
  removeGameFriend(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.removeGameFriend(userId, callback);
  }

  /** Client::BlockUser: platform-wide; ends every relationship between the two, game ones in every game too. */
  blockUser(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.block(userId, callback);
  }

  /** Client::UnblockUser: fails unless the player blocked the user; restores no relationship. */
  unblockUser(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.relationships.unblock(userId, callback);
  }

  /** Client::SetRelationshipCreatedCallback: a relationship was made or changed type; `isDiscordRelationshipUpdate` false for a game one. */
  setRelationshipCreatedCallback(callback: RelationshipChangedCallback | undefined): void {
    this.relationships.created = callback;
  }

  /** Client::SetRelationshipDeletedCallback: a relationship ended; `isDiscordRelationshipUpdate` false for a game one. */
  setRelationshipDeletedCallback(callback: RelationshipChangedCallback | undefined): void {
    this.relationships.deleted = callback;
  }

  /** Platform-wide relationship callbacks with the type (ours, kept beside setRelationshipCreatedCallback / setRelationshipDeletedCallback), in one call. */
  setRelationshipCallbacks(callbacks: Partial<RelationshipCallbacks>): void {
    Object.assign(this.relationships.callbacks, callbacks);
  }

  /** Client::SendUserMessage: a direct message to another player (the game's token, with the Social SDK's scopes). */
  sendUserMessage(recipientId: string, content: string, callback?: (result: ClientResult, messageId: string | null) => void): Promise<{ result: ClientResult; messageId: string | null }> {
    return this.dms.send(recipientId, content, callback);
  }

  /** Client::GetUserMessagesWithLimit: the conversation with a player, newest first (at most 100 at once). */
  getUserMessagesWithLimit(recipientId: string, limit: number, callback?: (result: ClientResult, messages: readonly MessageHandle[]) => void): Promise<{ result: ClientResult; messages: readonly MessageHandle[] }> {
    return this.dms.read(recipientId, limit, callback);
  }

  /** Client::EditUserMessage: the player's own message to `recipientId` gets `content` (the other player's game hears of it: setMessageUpdatedCallback). */
  editUserMessage(recipientId: string, messageId: string, content: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.dms.edit(recipientId, messageId, content, callback);
  }

  /** Client::DeleteUserMessage: the player's own message to `recipientId` is deleted (setMessageDeletedCallback on both sides). */
  deleteUserMessage(recipientId: string, messageId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.dms.delete(recipientId, messageId, callback);
  }

  /** Client::GetMessageHandle: a message the game sent or was told of (the newest 1,000), as last edited; null once deleted. */
  getMessageHandle(messageId: string): MessageHandle | null {
    return this.lobbies.message(messageId);
  }

  /** Client::SetMessageUpdatedCallback: a message (DM or lobby) was edited, or its moderation metadata set; getMessageHandle has the new one. */
  setMessageUpdatedCallback(callback: ((messageId: string) => void) | undefined): void {
    this.lobbies.callbacks.messageUpdated = callback;
  }

  /** Client::SetMessageDeletedCallback: a message was deleted; `channelId` is its DM channel, or its lobby's id. */
  setMessageDeletedCallback(callback: ((messageId: string, channelId: string) => void) | undefined): void {
    this.lobbies.callbacks.messageDeleted = callback;
  }

  /**
   * The lobby and message callbacks of the Social SDK (SetLobbyCreatedCallback,
   * SetLobbyUpdatedCallback, SetLobbyDeletedCallback, SetLobbyMemberAddedCallback,
   * SetLobbyMemberUpdatedCallback, SetLobbyMemberRemovedCallback, SetMessageCreatedCallback,
   * SetMessageUpdatedCallback, SetMessageDeletedCallback), in one
   * call: each given one is set, each given as undefined is cleared. They come from the game's own
   * gateway connection.
   */
  setLobbyCallbacks(callbacks: Partial<LobbyCallbacks>): void {
    Object.assign(this.lobbies.callbacks, callbacks);
  }

  /** The game's own connection to the platform (ours: the Social SDK has one status; here the RPC link to Companion is another, getStatus). */
  getPlatformStatus(): PlatformStatus {
    return this.platform.status;
  }

  /** Called with each status of the game's own connection to the platform, and why it dropped. */
  setPlatformStatusChangedCallback(callback: ((status: PlatformStatus, detail: string | null) => void) | undefined): void {
    this.platform.statusCallback = callback;
  }

  /** Client::SendLobbyMessage. */
  sendLobbyMessage(lobbyId: string, content: string, callback?: (result: ClientResult, messageId: string | null) => void): Promise<{ result: ClientResult; messageId: string | null }> {
    return this.lobbies.sendMessage(lobbyId, content, callback);
  }

  /** The player's own lobby message gets `content` **(ours: the Social SDK has no lobby edit)**; the members' games hear of it (setMessageUpdatedCallback). */
  editLobbyMessage(lobbyId: string, messageId: string, content: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.lobbies.editMessage(lobbyId, messageId, content, callback);
  }

  /** The player's own lobby message is deleted **(ours)**; the members' games hear of it (setMessageDeletedCallback). */
  deleteLobbyMessage(lobbyId: string, messageId: string, callback?: (result: ClientResult) => void): Promise<ClientResult> {
    return this.lobbies.deleteMessage(lobbyId, messageId, callback);
  }

  /** Client::GetLobbyMessagesWithLimit: newest first, at most 200 messages and 72 hours. */
  getLobbyMessagesWithLimit(lobbyId: string, limit: number, callback?: (result: ClientResult, messages: readonly MessageHandle[]) => void): Promise<{ result: ClientResult; messages: readonly MessageHandle[] }> {
    return this.lobbies.messagesWithLimit(lobbyId, limit, callback);
  }

  async registerLaunchCommand(applicationId: string | bigint, command: readonly string[]): Promise<boolean> {
    let id: string;
    try {
      id = toU64String(applicationId, 'applicationId');
      if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === 'string') || command[0] === '') {
        throw new TypeError('command must be a non-empty array of strings whose first element is the program');
      }
    } catch (error) {
      this.logger.error('launch command not registered', { error });
      return false;
    }
    const dir = this.companionDataDir();
    const file = path.join(dir, 'launch-commands.json');
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      let table: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) table = parsed as Record<string, unknown>;
        else this.logger.warning('launch-commands.json was not an object; replacing it', { file });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warning('launch-commands.json could not be read; replacing it', { file, error });
      }
      table[id] = [...command];
      await writeFile(temp, `${JSON.stringify(table, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, file);
      this.logger.info('launch command registered', { applicationId: id, file });
      return true;
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      this.logger.error('launch command not registered', { file, error });
      return false;
    }
  }

  // ---- status, version, authorization bits, messages and channels, logging (issue 28 §1; docs/sdk.md)

  /** Client::GetVersionMajor: the SDK package's major version (its package.json). */
  static getVersionMajor(): number {
    return sdkVersion().major;
  }

  /** Client::GetVersionMinor. */
  static getVersionMinor(): number {
    return sdkVersion().minor;
  }

  /** Client::GetVersionPatch. */
  static getVersionPatch(): number {
    return sdkVersion().patch;
  }

  /** Client::GetVersionHash: the commit the package was packed from (its `gitHead`), else `source-<version>`. */
  static getVersionHash(): string {
    return sdkVersion().hash;
  }

  getVersionMajor(): number {
    return Client.getVersionMajor();
  }

  getVersionMinor(): number {
    return Client.getVersionMinor();
  }

  getVersionPatch(): number {
    return Client.getVersionPatch();
  }

  getVersionHash(): string {
    return Client.getVersionHash();
  }

  /** Client::IsAuthenticated: a token was given to updateToken (and not dropped since), valid or not. */
  isAuthenticated(): boolean {
    return this.gameToken !== null && this.gameToken !== '';
  }

  /** Client::FetchCurrentUser: the user `token` belongs to (`GET users/@me`); `name` is the display name (global name, else username). */
  async fetchCurrentUser(tokenType: 'Bearer' | string, token: string, callback?: (result: ClientResult, id: string | null, name: string) => void): Promise<{ result: ClientResult; id: string | null; name: string }> {
    if (typeof token === 'string' && token !== '') this.logger.addSecret(token);
    const outcome =
      typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer'
        ? { result: ClientResult.validation('unsupported token type (only Bearer)'), value: null }
        : await attempt(async () => {
            await this.discoverPlatform(undefined);
            return fetchUser({ platformBase: this.platformBase(), token, timeoutMs: this.httpTimeoutMs });
          });
    const answer = { result: outcome.result, id: outcome.value?.id ?? null, name: outcome.value?.name ?? '' };
    callback?.(answer.result, answer.id, answer.name);
    return answer;
  }

  /** Client::GetDiscordClientConnectedUser: the user Companion is signed in as (READY's `user`), connecting as `applicationId` if needed; null when Companion has no account. */
  async getDiscordClientConnectedUser(applicationId: string | bigint, callback?: (result: ClientResult, user: RpcUserSummary | null) => void): Promise<{ result: ClientResult; user: RpcUserSummary | null }> {
    let result = this.checkArgs(() => toU64String(applicationId, 'applicationId'));
    if (result === null) {
      if (!this.connection.isReady) await this.connectAs(toU64String(applicationId, 'applicationId'));
      result = this.connection.isReady ? ClientResult.ok() : ClientResult.failure('ClientNotReady', 'Companion is not running', { retryable: true });
    }
    const user = result.successful ? this.getCurrentUser() : null;
    callback?.(result, user);
    return { result, user };
  }

  /** Client::IsDiscordAppInstalled: whether a Companion is reachable on this machine (a socket of the discovery accepts a connection). */
  async isDiscordAppInstalled(callback?: (installed: boolean) => void): Promise<boolean> {
    const installed = this.connection.isReady || (await companionReachable({ env: this.options.env ?? process.env, socketPaths: this.options.connection?.socketPaths }));
    callback?.(installed);
    return installed;
  }

  /** Client::OpenConnectedGamesSettingsInDiscord: Companion shows its Authorized apps (OPEN_CONNECTED_GAMES_SETTINGS, ours). */
  async openConnectedGamesSettingsInDiscord(callback?: ResultCallback): Promise<ClientResult> {
    const result = await this.companionCommand('OPEN_CONNECTED_GAMES_SETTINGS', { pid: this.connection.pid });
    callback?.(result);
    return result;
  }

  /** Client::AbortAuthorize: every authorize in flight ends with `Aborted` (over RPC the reply is no longer awaited; the browser flow's listener closes). */
  abortAuthorize(): void {
    for (const abort of this.authorizeAborts) abort.abort();
  }

  /** Client::SetGameWindowPid: the pid sent with SET_ACTIVITY, AUTHORIZE (the consent prompt's game) and the invite commands, when the game's window is another process. */
  setGameWindowPid(pid: number): void {
    this.connection.setPid(pid);
  }

  /** Client::UpdateProvisionalAccountDisplayName: the provisional player's display name (1-32 characters); the game's session hears of it (getCurrentUserV2). A full account's token: `HttpError` 400 530010. */
  async updateProvisionalAccountDisplayName(name: string, callback?: ResultCallback): Promise<ClientResult> {
    const { result } = await attempt(async () => renameProvisionalAccount({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }, name));
    callback?.(result);
    return result;
  }

  /** Client::ProvisionalUserMergeCompleted: the merge a call asked for (its provisionalUserMergeRequiredCallback) is done (true) or failed (false); the waiting calls go on or end. */
  provisionalUserMergeCompleted(success: boolean): void {
    this.mergeGate.completed(success);
  }

  /** Client::SendUserMessageWithMetadata: sendUserMessage with the game's key/value pairs on the message (both players' games see them: MessageHandle.metadata). */
  async sendUserMessageWithMetadata(recipientId: string, content: string, metadata: Metadata, callback?: (result: ClientResult, messageId: string | null) => void): Promise<{ result: ClientResult; messageId: string | null }> {
    const invalid = this.checkArgs(() => requireMetadata(metadata));
    if (invalid === null) return this.dms.send(recipientId, content, callback, metadata);
    callback?.(invalid, null);
    return { result: invalid, messageId: null };
  }

  /** Client::SendLobbyMessageWithMetadata: sendLobbyMessage with the game's key/value pairs on the message. */
  async sendLobbyMessageWithMetadata(lobbyId: string, content: string, metadata: Metadata, callback?: (result: ClientResult, messageId: string | null) => void): Promise<{ result: ClientResult; messageId: string | null }> {
    const invalid = this.checkArgs(() => requireMetadata(metadata));
    if (invalid === null) return this.lobbies.sendMessage(lobbyId, content, callback, metadata);
    callback?.(invalid, null);
    return { result: invalid, messageId: null };
  }

  /** Client::GetChannelHandle: a lobby the game is in, or a DM channel it opened or listed (getUserMessageSummaries); null for another. */
  getChannelHandle(channelId: string): ChannelHandle | null {
    return this.channels.channel(channelId);
  }

  /** Client::GetUserMessageSummaries: the player's DM conversations, newest first: the other user and the last message's id. */
  getUserMessageSummaries(callback?: (result: ClientResult, summaries: readonly UserMessageSummary[]) => void): Promise<{ result: ClientResult; summaries: readonly UserMessageSummary[] }> {
    return this.channels.summaries(callback);
  }

  /** Client::CanOpenMessageInDiscord: the message is a direct message the SDK holds (Companion shows DMs, not lobby chat). */
  canOpenMessageInDiscord(messageId: string): boolean {
    return this.channels.canOpen(messageId);
  }

  /**
   * Client::OpenMessageInDiscord: Companion shows the conversation holding the message
   * (OPEN_MESSAGE, ours). A provisional player must merge first: `provisionalUserMergeRequired`
   * is called and the call waits for provisionalUserMergeCompleted.
   */
  async openMessageInDiscord(messageId: string, provisionalUserMergeRequired: (() => void) | undefined, callback?: ResultCallback): Promise<ClientResult> {
    let result: ClientResult;
    if (!this.channels.canOpen(messageId)) result = ClientResult.validation('the message is not a direct message the SDK holds (canOpenMessageInDiscord)');
    else if (this.users.current()?.isProvisional === true && !(await this.mergeGate.mergeFirst(provisionalUserMergeRequired))) result = ClientResult.failure('AuthorizationFailed', 'a provisional account must be merged first');
    else result = await this.companionCommand('OPEN_MESSAGE', { message_id: messageId, pid: this.connection.pid });
    callback?.(result);
    return result;
  }

  /** Client::SetShowingChat: whether the game shows its chat now (Companion then reads the game's direct messages as they arrive); sent again after each (re)connect while true. */
  async setShowingChat(showingChat: boolean, callback?: ResultCallback): Promise<ClientResult> {
    if (!this.showingChatFollowed) {
      this.showingChatFollowed = true;
      this.connection.on('ready', () => {
        if (this.showingChat) void this.send('SET_SHOWING_CHAT', { showing: true, pid: this.connection.pid }, true);
      });
    }
    this.showingChat = showingChat === true;
    const result = await this.send('SET_SHOWING_CHAT', { showing: this.showingChat, pid: this.connection.pid }, true);
    callback?.(result);
    return result;
  }

  /**
   * Client::JoinLinkedLobbyGuild: a single-use invite of the player to the server of the lobby's
   * linked channel; the callback gets `<platformBase>/invite/<code>` (accept it with
   * `POST /api/v10/invites/<code>`). A provisional player must merge first, as openMessageInDiscord.
   */
  async joinLinkedLobbyGuild(lobbyId: string, provisionalUserMergeRequired: (() => void) | undefined, callback?: (result: ClientResult, inviteUrl: string) => void): Promise<{ result: ClientResult; inviteUrl: string }> {
    let outcome: { result: ClientResult; value: string | null };
    if (this.users.current()?.isProvisional === true && !(await this.mergeGate.mergeFirst(provisionalUserMergeRequired))) {
      outcome = { result: ClientResult.failure('AuthorizationFailed', 'a provisional account must be merged first'), value: null };
    } else {
      outcome = await attempt(async () => `${this.platformBase()}/invite/${encodeURIComponent(await lobbyGuildInvite({ platformBase: this.platformBase(), token: this.gameToken ?? '', timeoutMs: this.httpTimeoutMs }, lobbyId))}`);
    }
    const answer = { result: outcome.result, inviteUrl: outcome.value ?? '' };
    callback?.(answer.result, answer.inviteUrl);
    return answer;
  }

  /** Client::AddLogCallback: `callback(line, level)` for the SDK's log lines of `minSeverity` or more severe (secrets redacted; a release build writes no info or verbose). */
  addLogCallback(callback: LogCallback, minSeverity: LogSeverity): void {
    this.logging.addCallback(callback, minSeverity);
  }

  /** Client::SetLogDir: the log lines of `minSeverity` or more severe also go to `<path>/companion-client.log`; '' stops it. */
  setLogDir(path: string, minSeverity: LogSeverity): boolean {
    return this.logging.setDir(path, minSeverity);
  }

  /** A command of ours to Companion, connecting first when needed. */
  private async companionCommand(cmd: string, args: Record<string, unknown>): Promise<ClientResult> {
    if (!this.connection.isReady && this.applicationId !== undefined) await this.connectAs(this.applicationId);
    if (!this.connection.isReady) return ClientResult.failure('ClientNotReady', this.applicationId === undefined ? 'setApplicationId must be called first' : 'Companion is not running', { retryable: true });
    return this.send(cmd, args);
  }

  // ---- internals

  private companionDataDir(): string {
    if (this.options.companionDataDir !== undefined) return this.options.companionDataDir;
    const env = this.options.env ?? process.env;
    const config = env['XDG_CONFIG_HOME'] || path.join(env['HOME'] || os.homedir(), '.config');
    return path.join(config, 'companion');
  }

  /** Where avatars are: `https://` + the last READY's `cdn_host`, else https://cdn.discordapp.com. */
  private cdnBase(): string {
    const host = this.lastReady?.config.cdn_host;
    return typeof host === 'string' && /^[A-Za-z0-9.-]+(:\d+)?$/.test(host) ? `https://${host}` : 'https://cdn.discordapp.com';
  }

  /**
   * Without a `platformBase` option and before any READY: Companion is asked which platform it
   * uses (discovery and handshake as the application, then READY's `config.api_endpoint`), so
   * a game that never calls connect() (a provisional account's) needs no URL of its own. No
   * Companion, or no application id: nothing changes (https://discord.com).
   */
  private async discoverPlatform(applicationId: string | bigint | undefined): Promise<void> {
    if (this.options.platformBase !== undefined || this.lastReady !== null || this.connection.isReady) return;
    let id = this.applicationId;
    if (id === undefined && applicationId !== undefined) {
      try {
        id = toU64String(applicationId, 'applicationId');
      } catch {
        return;
      }
    }
    if (id !== undefined) await this.connectAs(id);
  }

  /** The platform base: the option, else the origin of READY's api_endpoint (`//host:port/api`), else https://discord.com. */
  private platformBase(): string {
    if (this.options.platformBase !== undefined) return this.options.platformBase;
    const endpoint = this.lastReady?.config.api_endpoint;
    if (typeof endpoint === 'string' && endpoint !== '') {
      try {
        const withScheme = endpoint.startsWith('//') ? `https:${endpoint}` : endpoint;
        const url = new URL(withScheme);
        const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
        if (endpoint.startsWith('//') && loopback) url.protocol = 'http:';
        return url.origin;
      } catch {
        // fall through
      }
    }
    return 'https://discord.com';
  }

  private checkArgs(check: () => unknown): ClientResult | null {
    try {
      check();
      return null;
    } catch (error) {
      if (error instanceof RpcError) return ClientResult.failure('ValidationError', error.message, { errorCode: error.code });
      return ClientResult.validation(error instanceof Error ? error.message : String(error));
    }
  }

  /** A command whose reply data does not matter. `okWhenNotConnected`: state kept for the next connect. */
  private async send(cmd: string, args: unknown, okWhenNotConnected = false): Promise<ClientResult> {
    this.logger.verbose('request', { cmd });
    try {
      await this.connection.request(cmd, args);
      return ClientResult.ok();
    } catch (error) {
      if (okWhenNotConnected && error instanceof RpcRequestError && error.kind === 'not-connected') return ClientResult.ok();
      const result = this.requestFailure(error);
      this.logger.warning('request failed', { cmd, type: result.type, code: result.errorCode, error: result.error });
      return result;
    }
  }

  private async subscribe(evt: string): Promise<ClientResult> {
    try {
      await this.connection.subscribe(evt);
      return ClientResult.ok();
    } catch (error) {
      return this.requestFailure(error);
    }
  }

  private async unsubscribe(evt: string): Promise<ClientResult> {
    try {
      await this.connection.unsubscribe(evt);
      return ClientResult.ok();
    } catch (error) {
      if (error instanceof RpcRequestError && error.kind === 'not-connected') return ClientResult.ok();
      return this.requestFailure(error);
    }
  }

  /** An RpcRequestError as a ClientResult: ERROR → RpcError (its code), timeout → Timeout, drop → NetworkError, none → ClientNotReady. */
  private requestFailure(error: unknown): ClientResult {
    if (!(error instanceof RpcRequestError)) return toClientResult(error);
    switch (error.kind) {
      case 'rpc-error':
        return ClientResult.failure('RpcError', error.message, { errorCode: error.code ?? 0 });
      case 'timeout':
        return ClientResult.failure('Timeout', error.message, { retryable: true });
      case 'disconnected':
        return ClientResult.failure('NetworkError', error.message, { retryable: true });
      case 'not-connected':
        return ClientResult.failure('ClientNotReady', error.message, { retryable: true });
      case 'invalid-args':
        return ClientResult.validation(error.message);
    }
  }

  private onEvent(evt: string, data: unknown): void {
    this.logger.verbose('event', { evt });
    const payload = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    try {
      switch (evt) {
        case AUTHORIZE_DEVICE_SCREEN_CLOSED:
          this.device.screenClosed();
          break;
        case EVENT_JOIN:
          if (typeof payload['secret'] === 'string') {
            this.joinCallback?.(payload['secret']);
            // Companion sends a join only to the games of its application: this one.
            this.joinWithApplicationCallback?.(this.applicationId ?? '', payload['secret']);
          }
          return;
        case EVENT_JOIN_REQUEST: {
          const user = toUser(payload['user']);
          if (user === null) return;
          this.joinRequestCallback?.(user, { user, channelId: stringOrNull(payload['channel_id']), messageId: stringOrNull(payload['message_id']) });
          return;
        }
        case EVENT_INVITE:
        case EVENT_INVITE_ACCEPTED: {
          const invite = this.toInvite(payload, evt === EVENT_INVITE);
          if (invite !== null) this.inviteUpdates.track(invite);
          if (invite !== null) this.inviteCreatedCallback?.(invite);
          return;
        }
        case EVENT_AUTHORIZE_REQUEST:
          this.authorizeRequestCallback?.();
          return;
        default:
          return;
      }
    } catch (error) {
      this.logger.error('a callback threw', { evt, error });
    }
  }

  // ---- voice: calls in lobbies (issue 29 §2; docs/sdk.md "Voice")

  /**
   * Client::StartCall: joins (or starts) the call of a lobby the player is a member of, through
   * the game's own platform session (after updateToken). Answers the Call at once (status
   * Joining); follow it with its status callback or `waitConnected()`. The lobby's call already
   * started answers that one. undefined for a lobby id that is not one.
   */
  startCall(lobbyId: string): Call | undefined {
    return this.startCallWithAudioCallbacks(lobbyId, undefined, undefined);
  }

  /** Client::StartCallWithAudioCallbacks: StartCall, with the received-audio callback (per participant, can mute) and the captured-audio callback. */
  startCallWithAudioCallbacks(lobbyId: string, receivedCb: UserAudioReceivedCallback | undefined, capturedCb: UserAudioCapturedCallback | undefined): Call | undefined {
    if (typeof lobbyId !== 'string' || !/^\d{1,20}$/.test(lobbyId)) {
      this.logger.warning('startCall: lobbyId must be a snowflake id string');
      return undefined;
    }
    return this.voice.startCall(lobbyId, receivedCb, capturedCb);
  }

  /** Client::EndCall: leaves the lobby's call. */
  async endCall(lobbyId: string, callback?: ResultCallback): Promise<ClientResult> {
    const result = await this.voice.endCall(lobbyId);
    callback?.(result);
    return result;
  }

  /** Client::EndCalls: leaves every call. */
  async endCalls(callback?: ResultCallback): Promise<ClientResult> {
    const result = await this.voice.endCalls();
    callback?.(result);
    return result;
  }

  /** Client::GetCall: the player's call in the lobby, if any. */
  getCall(lobbyId: string): Call | undefined {
    return this.voice.getCall(lobbyId);
  }

  /** Client::GetCalls. */
  getCalls(): Call[] {
    return this.voice.getCalls();
  }

  /** Client::SetVoiceParticipantChangedCallback: `(lobbyId, memberId, added)` for every call of the game. */
  setVoiceParticipantChangedCallback(callback: VoiceParticipantChangedCallback | undefined): void {
    this.voice.setVoiceParticipantChangedCallback(callback);
  }

  getSelfMuteAll(): boolean {
    return this.voice.getSelfMuteAll();
  }

  /** Client::SetSelfMuteAll: mutes the player in every call, and in calls started later. */
  setSelfMuteAll(mute: boolean): void {
    this.voice.setSelfMuteAll(mute);
  }

  getSelfDeafAll(): boolean {
    return this.voice.getSelfDeafAll();
  }

  /** Client::SetSelfDeafAll: deafens the player in every call, and in calls started later. */
  setSelfDeafAll(deaf: boolean): void {
    this.voice.setSelfDeafAll(deaf);
  }

  /** Client::SetSpeakerMode (mobile loudspeaker): kept, with no effect on the virtual output. */
  setSpeakerMode(speakerMode: boolean): void {
    this.voice.speakerMode = speakerMode;
  }

  /** Client::AddVoiceLogCallback: the voice engine's lines (call status, connection drops) of `minSeverity` or more. */
  addVoiceLogCallback(callback: LogCallback, minSeverity: LogSeverity): void {
    this.voice.addVoiceLogCallback(callback, minSeverity);
  }

  /**
   * Client::SetVoiceLogDir: the voice engine's lines of `minSeverity` or more also go to
   * `<path>/companion-voice.log` (appended; owner-only). An empty path or 'none' stops the file
   * (ours: the Social SDK writes beside its library for ''). It takes effect whenever it is called.
   */
  setVoiceLogDir(path: string, minSeverity: LogSeverity): void {
    this.voice.setVoiceLogDir(path, minSeverity);
  }

  /** Client::GetDefaultAudioDeviceId: `'default'`, the id that stands for the system's default device (the built-in virtual input or output). */
  static getDefaultAudioDeviceId(): string {
    return DEFAULT_AUDIO_DEVICE_ID;
  }

  /** Client::SetDeviceChangeCallback: `(inputDevices, outputDevices)` each time a virtual device is added or removed. */
  setDeviceChangeCallback(callback: DeviceChangeCallback | undefined): void {
    this.voice.setDeviceChangeCallback(callback);
  }

  /** Client::GetInputDevices: the virtual inputs (ours: a Node game has no sound card). */
  async getInputDevices(callback?: (devices: AudioDevice[]) => void): Promise<AudioDevice[]> {
    const devices = this.voice.inputDevices();
    callback?.(devices);
    return devices;
  }

  /** Client::GetOutputDevices: the virtual outputs. */
  async getOutputDevices(callback?: (devices: AudioDevice[]) => void): Promise<AudioDevice[]> {
    const devices = this.voice.outputDevices();
    callback?.(devices);
    return devices;
  }

  async getCurrentInputDevice(callback?: (device: AudioDevice) => void): Promise<AudioDevice> {
    const device = this.voice.input.device;
    callback?.(device);
    return device;
  }

  async getCurrentOutputDevice(callback?: (device: AudioDevice) => void): Promise<AudioDevice> {
    const device = this.voice.output.device;
    callback?.(device);
    return device;
  }

  /** Client::SetInputDevice: a listed virtual input, or `'default'`; another id is a ValidationError. */
  async setInputDevice(deviceId: string, callback?: ResultCallback): Promise<ClientResult> {
    const result = this.voice.devices.selectInput(deviceId) ? ClientResult.ok() : ClientResult.validation(`setInputDevice: no input device ${String(deviceId)}`);
    callback?.(result);
    return result;
  }

  /** Client::SetOutputDevice: a listed virtual output, or `'default'`; another id is a ValidationError. */
  async setOutputDevice(deviceId: string, callback?: ResultCallback): Promise<ClientResult> {
    const result = this.voice.devices.selectOutput(deviceId) ? ClientResult.ok() : ClientResult.validation(`setOutputDevice: no output device ${String(deviceId)}`);
    callback?.(result);
    return result;
  }

  getInputVolume(): number {
    return this.voice.inputVolume;
  }

  /** Client::SetInputVolume: 0 to 100, scales what the input captures. */
  setInputVolume(inputVolume: number): void {
    if (!Number.isFinite(inputVolume) || inputVolume < 0 || inputVolume > 100) throw new RangeError('inputVolume must be between 0 and 100');
    this.voice.inputVolume = inputVolume;
  }

  getOutputVolume(): number {
    return this.voice.outputVolume;
  }

  /** Client::SetOutputVolume: 0 to 200, scales what the output plays. */
  setOutputVolume(outputVolume: number): void {
    if (!Number.isFinite(outputVolume) || outputVolume < 0 || outputVolume > 200) throw new RangeError('outputVolume must be between 0 and 200');
    this.voice.outputVolume = outputVolume;
  }

  /** Client::SetNoAudioInputCallback: `(inputDetected)` when the input goes quiet for a second, and when it is heard again. */
  setNoAudioInputCallback(callback: NoAudioInputCallback | undefined): void {
    this.voice.setNoAudioInputCallback(callback);
  }

  /** Client::SetNoAudioInputThreshold: the level (dBFS, -100 to 0) below which the input counts as quiet (default -100: digital silence). */
  setNoAudioInputThreshold(dBFSThreshold: number): void {
    if (!Number.isFinite(dBFSThreshold) || dBFSThreshold < -100 || dBFSThreshold > 0) throw new RangeError('dBFSThreshold must be between -100 and 0');
    this.voice.noAudioInputThresholdDb = dBFSThreshold;
  }

  /** Client::SetEchoCancellation: kept (the virtual devices have no echo to cancel). */
  setEchoCancellation(on: boolean): void {
    this.voice.echoCancellation = on;
  }

  /** Client::SetNoiseSuppression: kept (the virtual input is what the game wrote). */
  setNoiseSuppression(on: boolean): void {
    this.voice.noiseSuppression = on;
  }

  /** Client::SetNoiseCancellation (Krisp; off by default): kept, and on turns noise suppression off, as the Social SDK's does. */
  setNoiseCancellation(on: boolean): void {
    this.voice.setNoiseCancellation(on);
  }

  /** **(ours)** The audio processing switches as set (the Social SDK has only their setters). */
  getAudioProcessing(): AudioProcessing {
    return this.voice.audioProcessing();
  }

  /** Client::SetAutomaticGainControl: kept (the input volume is applied as set). */
  setAutomaticGainControl(on: boolean): void {
    this.voice.automaticGainControl = on;
  }

  /** **(ours)** The virtual microphone in use: write PCM, a tone or a WAV file into it. */
  getVirtualInputDevice(): VirtualInputDevice {
    return this.voice.input;
  }

  /** **(ours)** The virtual speakers in use: read what the calls played, or listen to each frame. */
  getVirtualOutputDevice(): VirtualOutputDevice {
    return this.voice.output;
  }

  /** **(ours)** Plugs in another virtual microphone (as a player plugs in a headset): listed, selectable, the device change callback told. */
  addVirtualInputDevice(name?: string): VirtualInputDevice {
    return this.voice.devices.addInput(name);
  }

  /** **(ours)** Unplugs an added virtual microphone (in use, the built-in one takes over); false for the built-in one or an unknown id. */
  removeVirtualInputDevice(deviceId: string): boolean {
    return this.voice.devices.removeInput(deviceId);
  }

  /** **(ours)** Plugs in other virtual speakers. */
  addVirtualOutputDevice(name?: string): VirtualOutputDevice {
    return this.voice.devices.addOutput(name);
  }

  /** **(ours)** Unplugs added virtual speakers (in use, the built-in ones take over); false for the built-in ones or an unknown id. */
  removeVirtualOutputDevice(deviceId: string): boolean {
    return this.voice.devices.removeOutput(deviceId);
  }

  private toInvite(payload: Record<string, unknown>, isValid: boolean): ActivityInvite | null {
    const messageId = stringOrNull(payload['message_id']);
    const channelId = stringOrNull(payload['channel_id']);
    const rawUser = payload['user'] as { id?: unknown } | undefined;
    const senderId = typeof rawUser?.id === 'string' ? rawUser.id : null;
    if (messageId === null || channelId === null || senderId === null) return null;
    const activity = payload['activity'] ?? null;
    const partyId = (activity as { party?: { id?: unknown } } | null)?.party?.id;
    return {
      type: typeof payload['type'] === 'number' ? payload['type'] : 1,
      senderId,
      sender: toUser(payload['user']),
      channelId,
      messageId,
      // The invite may be for a sibling application (another app of the same developer).
      applicationId: stringOrNull((activity as { application_id?: unknown } | null)?.application_id) ?? this.applicationId ?? '',
      partyId: typeof partyId === 'string' ? partyId : null,
      activity,
      isValid,
    };
  }
}

// Every call's arguments are checked before the network (call-args.ts), in one place.
guardCalls(Client.prototype, CLIENT_CALL_RULES);

const ABORTED = Symbol('aborted');

/** `promise`, or a rejection with ABORTED once `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(ABORTED);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Not connected, or the connection dropped before the reply: the presence is kept and sent on the next (re)connect. */
function isKeptForReconnect(error: unknown): boolean {
  return error instanceof RpcRequestError && (error.kind === 'not-connected' || error.kind === 'disconnected');
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function toUser(value: unknown): RpcUserSummary | null {
  if (typeof value !== 'object' || value === null) return null;
  const user = value as Record<string, unknown>;
  if (typeof user['id'] !== 'string') return null;
  return {
    id: user['id'],
    username: typeof user['username'] === 'string' ? user['username'] : '',
    ...(typeof user['discriminator'] === 'string' ? { discriminator: user['discriminator'] } : {}),
    ...(typeof user['avatar'] === 'string' || user['avatar'] === null ? { avatar: user['avatar'] as string | null } : {}),
  };
}
