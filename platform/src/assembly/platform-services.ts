import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccessPolicy } from '../access/policy.js';
import { PlatformAdmin } from '../admin/admin.js';
import { PresenceHub } from '../gateway/presence.js';
import { GatewayServer } from '../gateway/server.js';
import type { Session } from '../gateway/session.js';
import { SessionRegistry } from '../gateway/sessions.js';
import { adminRoutes } from '../http/admin-routes.js';
import { apiRoutes } from '../http/api-routes.js';
import { createRequestHandler } from '../http/handler.js';
import type { Route } from '../http/router.js';
import { oauthApiRoutes, oauthRootRoutes, type OAuthRouteDeps } from '../http/oauth-routes.js';
import { cdnRoutes } from '../http/cdn-routes.js';
import { lobbyAdminRoutes } from '../http/api-lobby-routes.js';
import { simulationRoutes } from '../http/simulation-routes.js';
import { partnerSdkRoutes } from '../http/partner-sdk-routes.js';
import { provisionalAdminRoutes } from '../http/provisional-admin-routes.js';
import { Bans } from '../provisional/bans.js';
import { ChildTokens } from '../provisional/child-tokens.js';
import { IdentityBook } from '../provisional/identity-book.js';
import { IdentityVerifier } from '../provisional/identity-verifier.js';
import { OidcVerifier } from '../provisional/oidc-verifier.js';
import { ProvisionalService } from '../provisional/provisional-service.js';
import { TestProvider } from '../provisional/test-provider.js';
import { InviteService } from '../invites/invites.js';
import { LobbyService } from '../lobbies/lobby-service.js';
import { LobbySweeper } from '../lobbies/lobby-sweeper.js';
import { LobbyInvites } from '../lobbies/lobby-invites.js';
import { GameRelationshipService } from '../relationships/game-relationship-service.js';
import { RelationshipChanges } from '../relationships/relationship-changes.js';
import { RelationshipService } from '../relationships/relationship-service.js';
import { OidcKeys } from '../oauth/jwt.js';
import { OAuthService } from '../oauth/service.js';
import { DeviceFlow } from '../oauth/device.js';
import { TokenFaults } from '../oauth/token-faults.js';
import { FriendSimulator } from '../simulation/friend-simulator.js';
import { FriendVoice } from '../simulation/friend-voice.js';
import { friendVoiceRoutes } from '../http/friend-voice-routes.js';
import { FriendCallVoice } from '../simulation/friend-call-voice.js';
import { AppRegistry } from '../state/app-registry.js';
import type { AppRecord } from '../state/model.js';
import { toPlatformUser, type Store } from '../state/store.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import { WebhookDeliverer, type WebhookSleep } from '../webhooks/deliverer.js';
import { VoiceService } from '../voice/voice-service.js';
import { voiceAdminRoutes, voiceRoutes } from '../http/api-voice-routes.js';
import { CallService } from '../calls/call-service.js';
import { CallSessionWatch } from '../calls/call-session-watch.js';
import { DEFAULT_VOICE_SERVER_OPTIONS, VoiceServer } from '../calls/voice-server.js';
import { FriendCall } from '../simulation/friend-call.js';
import { callAdminRoutes, callRoutes } from '../http/api-call-routes.js';
import { VOICE_PATH } from '../../../common/src/voice/voice-wire.js';

export interface ServicesOptions {
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  readonly strictApps: boolean;
  readonly webhookSleep?: WebhookSleep;
  readonly adminToken: string;
}

/** Where the emulator listens; known once its port is, and read late by everything that names it. */
export class PlatformAddresses {
  url = '';
  gatewayUrl = '';
  /** The TLS listener's `wss://` gateway, when the emulator has one. */
  tlsGatewayUrl: string | undefined;

  /** The gateway a client of that listener is told of. */
  gatewayFor(secure = false): string {
    return secure && this.tlsGatewayUrl !== undefined ? this.tlsGatewayUrl : this.gatewayUrl;
  }
}

/** The emulator's services over one store, wired to each other, and the HTTP handler that serves them. */
export class PlatformServices {
  readonly sessions: SessionRegistry;
  readonly presence: PresenceHub;
  readonly gateway: GatewayServer;
  readonly webhooks: WebhookDeliverer;
  readonly keys: OidcKeys;
  readonly oauth: OAuthService;
  readonly deviceFlow: DeviceFlow;
  readonly tokenFaults = new TokenFaults();
  readonly invites: InviteService;
  readonly admin: PlatformAdmin;
  readonly simulator: FriendSimulator;
  /** The simulated friend in server voice channels. */
  readonly friendVoice: FriendVoice;
  /** Application look-ups and registration on first use. */
  readonly apps: AppRegistry;
  readonly lobbies: LobbyService;
  readonly relationships: RelationshipService;
  readonly lobbySweeper: LobbySweeper;
  readonly lobbyInvites: LobbyInvites;
  /** The stand-in identity provider QA mints external tokens with. */
  readonly testProvider: TestProvider;
  readonly identities: IdentityBook;
  readonly provisional: ProvisionalService;
  readonly bans: Bans;
  readonly childTokens: ChildTokens;
  /** Who may see and change what (every API route's params, every lobby dispatch). */
  readonly policy: AccessPolicy;
  /** Voice channels of servers: voice states, call start times, channel status. */
  readonly voice: VoiceService;
  /** Calls in lobbies: participants and their voice states. */
  readonly calls: CallService;
  /** The voice server of lobby calls (ours): relays audio between a call's participants. */
  readonly voiceServer: VoiceServer;
  /** Takes a player out of their lobby calls a grace after their last game session of the lobby's application ended. */
  readonly callWatch: CallSessionWatch;
  /** The simulated friend in lobby calls (joins, plays a tone). */
  readonly friendCall: FriendCall;
  readonly friendCallVoice: FriendCallVoice;

  constructor(
    readonly store: Store,
    private readonly options: ServicesOptions,
    private readonly addresses: PlatformAddresses,
  ) {
    const { limits, now, logger } = options;
    this.apps = new AppRegistry(store, { strict: options.strictApps, max: limits.autoRegisteredAppsMax, unusedTtlMs: limits.unusedAppTtlMs, now, logger });
    const resolveApp = (id: string): AppRecord | undefined => this.resolveApp(id);
    this.sessions = new SessionRegistry(limits, now);
    this.presence = new PresenceHub(store, this.sessions, logger);
    // Read late: the lobbies are made after the gateway.
    this.policy = new AccessPolicy({
      store,
      lobbyApplication: (lobbyId) => this.lobbies.applicationOf(lobbyId),
      inviteApplication: (code) => this.lobbyInvites.applicationOf(code),
    });
    this.gateway = new GatewayServer({
      store,
      sessions: this.sessions,
      presence: this.presence,
      policy: this.policy,
      limits,
      now,
      logger,
      gatewayUrl: (secure) => addresses.gatewayFor(secure),
      allMembersRequests: new Map(),
      endSession: (session) => this.endSession(session),
      // Read late: the OAuth2 service is made after the gateway. A publisher's token does not
      // connect (only its games' child tokens do, as the public docs say).
      bearer: (token) => {
        const auth = this.oauth.bearer(token);
        return auth !== undefined && this.childTokens.childrenOf(auth.applicationId).length > 0 ? undefined : auth;
      },
      // Read late too: the lobby service is made after the gateway.
      lobbiesOf: (userId, applicationId) => this.lobbies.lobbiesOfMember(userId, applicationId),
      voice: () => this.voice,
    });
    this.webhooks = new WebhookDeliverer({
      now,
      logger,
      timeoutMs: limits.webhookTimeoutMs,
      retryFirstMs: limits.webhookRetryFirstMs,
      retryMaxMs: limits.webhookRetryMaxMs,
      ...(options.webhookSleep !== undefined ? { sleep: options.webhookSleep } : {}),
    });
    this.keys = new OidcKeys(store);
    this.deviceFlow = new DeviceFlow({
      now,
      ttlMs: limits.deviceCodeTtlMs,
      intervalMs: limits.deviceCodeIntervalMs,
      verificationUri: () => `${addresses.url}/activate`,
      maxPending: 10_000,
    });
    this.oauth = new OAuthService({
      deviceFlow: this.deviceFlow,
      store,
      dispatcher: this.sessions,
      webhooks: this.webhooks,
      keys: this.keys,
      limits,
      now,
      logger,
      resolveApp,
      issuer: () => addresses.url,
      grantRemoved: (userId, applicationId) => {
        this.gateway.endAuthorized(userId, applicationId);
        // A publisher's grant takes its games' child tokens with it.
        for (const child of this.childTokens.childrenOf(applicationId)) this.gateway.endAuthorized(userId, child);
      },
      tokenEnded: (tokenId) => this.gateway.endToken(tokenId),
      userDeauthorized: (userId, applicationId) => this.provisional.deauthorized(userId, applicationId),
      mergeExternal: (app, userId, type, token) => this.provisional.merge(app, userId, type, token),
    });
    this.invites = new InviteService({ store, activities: this.presence, dispatcher: this.sessions, limits, now, logger, resolveApp });
    this.admin = new PlatformAdmin(store, this.sessions, this.presence, this.gateway, (app) => this.oauth.ping(app));
    this.lobbies = this.createLobbies();
    this.lobbySweeper = new LobbySweeper(this.lobbies);
    this.lobbyInvites = new LobbyInvites(now);
    this.relationships = new RelationshipService(store, this.admin, this.sessions, new GameRelationshipService(store, this.sessions));
    this.testProvider = new TestProvider(now);
    this.identities = new IdentityBook(store, now);
    this.provisional = this.createProvisional();
    this.bans = new Bans(store, this.oauth, this.identities, this.provisional, now, (userId) => this.gateway.endUser(userId), (userId) => this.lobbies.removeEverywhere(userId));
    this.childTokens = new ChildTokens(store, this.oauth, now);
    this.voice = new VoiceService({ store, dispatcher: this.sessions, now, logger });
    this.calls = this.createCalls();
    this.voiceServer = new VoiceServer(this.calls, logger, { ...DEFAULT_VOICE_SERVER_OPTIONS, reconnectGraceMs: limits.voiceGraceMs });
    this.callWatch = new CallSessionWatch({
      calls: this.calls,
      // A game's own sessions: the player's desktop client being online says nothing of the game.
      connected: (userId, applicationId) => this.sessions.ofUser(userId).some((session) => session.transport !== undefined && session.oauth?.applicationId === applicationId),
      graceMs: limits.voiceGraceMs,
      logger,
    });
    this.friendCall = new FriendCall({ calls: this.calls, voice: this.voiceServer });
    this.friendCallVoice = new FriendCallVoice({ store, calls: this.calls, friend: this.friendCall, now, logger });
    this.simulator = new FriendSimulator({ store, sessions: this.sessions, presence: this.presence, invites: this.invites, now, logger, resolveApp });
    this.friendVoice = new FriendVoice({ store, sessions: this.sessions, voice: this.voice, now, logger });
  }

  /** Lobbies: their dispatches reach each member's sessions that may see the lobby's application (access/audience.ts). */
  private createLobbies(): LobbyService {
    const { store } = this;
    const { now } = this.options;
    return new LobbyService({
      nextId: () => store.ids.next(),
      now,
      user: (id) => {
        const user = store.user(id);
        return user === undefined ? undefined : toPlatformUser(user);
      },
      // Connected to a lobby: a live session that may see its application's lobbies (access/audience.ts).
      connected: (userId, applicationId) => this.sessions.ofUser(userId).some((session) => session.transport !== undefined && this.policy.seesLobbies(session.oauth?.applicationId ?? null, applicationId)),
      dispatch: (userIds, event, data, applicationId) => {
        const audience = this.policy.lobbyAudience(applicationId);
        for (const userId of userIds) this.sessions.dispatchToAs(userId, audience, event, (app) => this.policy.lobbyEventAs(applicationId, app, data));
      },
      webhook: (applicationId, type, data) => this.appEvent(applicationId, type, data),
      serverLobbiesPerApp: () => this.options.limits.serverLobbiesPerApp,
    });
  }

  /** Lobby calls: their voice states reach the lobby's members as the lobby's own events do; a member who leaves leaves the call. */
  private createCalls(): CallService {
    const { now, logger } = this.options;
    const calls = new CallService({
      lobbies: {
        applicationOf: (lobbyId) => this.lobbies.applicationOf(lobbyId),
        isMember: (lobbyId, userId) => this.lobbies.applicationOf(lobbyId) !== undefined && this.lobbies.isMember(lobbyId, userId),
        memberIds: (lobbyId) => (this.lobbies.applicationOf(lobbyId) === undefined ? [] : this.lobbies.get(lobbyId, null).members.map((member) => member.id)),
      },
      dispatch: (userIds, event, data, applicationId) => {
        const audience = this.policy.lobbyAudience(applicationId);
        for (const userId of userIds) this.sessions.dispatchTo(userId, audience, event, data);
      },
      now,
      logger,
    });
    this.lobbies.onMemberGone((lobbyId, userId) => calls.memberGone(lobbyId, userId));
    return calls;
  }

  /** Provisional accounts: identities checked by OIDC, the test provider or a game's token; merges and unmerges tell the others. */
  private createProvisional(): ProvisionalService {
    const { store } = this;
    const { now, limits, logger } = this.options;
    const verifier = new IdentityVerifier({
      oidc: new OidcVerifier({ now, fetchTimeoutMs: limits.oidcFetchTimeoutMs }),
      testProvider: this.testProvider,
      bearer: (token) => {
        const auth = this.oauth.bearer(token);
        return auth === undefined ? undefined : { userId: auth.user.id, applicationId: auth.applicationId };
      },
      identityOf: (applicationId, userId) => this.identities.ofUser(applicationId, userId),
    });
    return new ProvisionalService({
      store,
      oauth: this.oauth,
      verifier,
      book: this.identities,
      limits,
      logger,
      endGameSessions: (userId, applicationId) => this.gateway.endAuthorized(userId, applicationId),
      moveLobbyMemberships: (from, into, applicationId) => this.lobbies.moveMember(from, into, applicationId),
      changes: new RelationshipChanges(store, this.sessions, (friendId, userId) => this.presence.sendTo(friendId, userId)),
    });
  }

  /** A webhook event to the app (nothing when it has no webhook URL), signed like every other. */
  appEvent(applicationId: string, type: string, data: unknown): void {
    const app = this.resolveApp(applicationId);
    if (app !== undefined) this.webhooks.deliverEvent(app, type, data, this.options.now());
  }

  /** The app for an id; a look-up never registers (only the registration route does). */
  resolveApp(id: string): AppRecord | undefined {
    return this.apps.find(id);
  }

  /** The route tables of the HTTP API: under /api (and /api/v9, /api/v10), under /_emulator, and at the root. */
  routes(): { readonly apiRoutes: Route[]; readonly adminRoutes: Route[]; readonly rootRoutes: Route[] } {
    const { store, sessions, presence, invites, gateway, addresses } = this;
    const { limits, now, logger, adminToken } = this.options;
    const oauthRouteDeps: OAuthRouteDeps = {
      oauth: this.oauth,
      keys: this.keys,
      store,
      url: () => addresses.url,
      devLoginLimit: () => limits.http.devLogin,
      tokenFaults: this.tokenFaults,
      deviceFlow: this.deviceFlow,
    };
    const resolveApp = (id: string): AppRecord | undefined => this.resolveApp(id);
    return {
      apiRoutes: [
        ...apiRoutes({ store, policy: this.policy, presence, dispatcher: sessions, invites, gateway, limits, now, logger, adminToken, gatewayUrl: (secure) => addresses.gatewayFor(secure), resolveApp, apps: this.apps, lobbies: this.lobbies, lobbyInvites: this.lobbyInvites, relationships: this.relationships, appEvent: (id, type, data) => this.appEvent(id, type, data) }),
        ...oauthApiRoutes(oauthRouteDeps),
        ...voiceRoutes({ store, voice: this.voice }),
        ...callRoutes({ calls: this.calls, voice: this.voiceServer, voiceEndpoint: () => `${addresses.gatewayUrl.replace(/\/gateway$/, '')}${VOICE_PATH}` }),
        ...partnerSdkRoutes({ provisional: this.provisional, childTokens: this.childTokens, book: this.identities, resolveApp, limits }),
      ],
      adminRoutes: [
        ...adminRoutes(this.admin),
        ...simulationRoutes(this.simulator, this.tokenFaults),
        ...lobbyAdminRoutes(this.lobbies),
        ...voiceAdminRoutes(this.voice),
        ...callAdminRoutes({ calls: this.calls, voice: this.voiceServer, friend: this.friendCall, store }),
        ...friendVoiceRoutes(this.friendVoice, this.friendCallVoice),
        ...provisionalAdminRoutes({ book: this.identities, bans: this.bans, testProvider: this.testProvider }),
      ],
      rootRoutes: [...oauthRootRoutes(oauthRouteDeps), ...cdnRoutes(resolveApp)],
    };
  }

  /** The HTTP API (/api, /_emulator and the OAuth2 pages) over these services. */
  requestHandler(): (request: IncomingMessage, response: ServerResponse) => void {
    const { limits, now, logger, adminToken } = this.options;
    return createRequestHandler({
      ...this.routes(),
      bearer: (token) => this.oauth.bearer(token),
      store: this.store,
      policy: this.policy,
      adminToken,
      limits,
      now,
      logger,
    });
  }

  /** Ends a gateway session for good: forgotten, and the user's presence republished. */
  private endSession(session: Session): void {
    if (session.ended) return;
    this.sessions.remove(session);
    this.options.logger.debug({ sessionId: session.id, userId: session.userId }, 'gateway session ended');
    this.presence.publish(session.userId);
    // The voice state this session holds ends with it (VOICE_STATE_UPDATE with channel_id null).
    this.voice.sessionEnded(session);
    // A game's last session of an application gone: its player leaves that application's lobby calls after the grace.
    this.callWatch.sessionEnded(session.userId, session.oauth?.applicationId ?? null);
    // The user's lobbies may have become idle; their members hear that this one is away.
    this.lobbies.connectionChanged(session.userId, (applicationId) => this.policy.seesLobbies(session.oauth?.applicationId ?? null, applicationId));
  }
}
