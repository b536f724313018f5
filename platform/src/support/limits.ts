/** A count per window: the (count + 1)th event inside `windowMs` is refused. */
export interface WindowLimit {
  readonly count: number;
  readonly windowMs: number;
}

/** Every limit and clock-driven duration of the emulator; tests shrink them. */
export interface PlatformLimits {
  /** Hello's heartbeat_interval. */
  readonly heartbeatIntervalMs: number;
  /** No heartbeat for interval × factor → close 4009. */
  readonly heartbeatTimeoutFactor: number;
  /** How long a dropped session stays resumable. */
  readonly resumeWindowMs: number;
  /** Dispatches kept per session for resume. */
  readonly resumeBufferSize: number;
  /** Client payloads per connection (heartbeats included); over → 4008. */
  readonly sendLimit: WindowLimit;
  /** Largest client payload in bytes; over → 4002. */
  readonly maxPayloadBytes: number;
  /** Game-activity presence updates per session. */
  readonly gameActivityLimit: WindowLimit;
  /** All-members op 8 requests: one per guild per user in this time. */
  readonly allMembersCooldownMs: number;
  /** After op 7 the server closes with 4000 this long later if the client has not. */
  readonly reconnectCloseAfterMs: number;
  /** An invite is valid this long after it was sent. */
  readonly inviteTtlMs: number;
  /** HTTP rate-limit buckets. */
  readonly http: {
    /** POST /channels/{id}/messages, per user. */
    readonly messageCreate: WindowLimit;
    /** POST /auth/login, per client IP. */
    readonly devLogin: WindowLimit;
    /** Registrations of unknown application ids (POST /oauth2/applications/{id}/rpc), per user. **(ours)** */
    readonly appRegister: WindowLimit;
    /** A game joining, creating or leaving lobbies (PUT /lobbies, DELETE .../members/@me), per user. **(ours)** */
    readonly lobbyJoin: WindowLimit;
    /** POST /lobbies/{id}/messages, per user. **(ours)** */
    readonly lobbyMessage: WindowLimit;
    /** The provisional-account and child-token endpoints (`/partner-sdk/*`), per address. **(ours)** */
    readonly partnerSdk: WindowLimit;
    /** Friend requests, game friend requests and their removal, per user (by id or by username). **(ours)** */
    readonly relationshipChange: WindowLimit;
    /** Every request with an application's bot token, per application (the public docs' global limit: 50 a second). */
    readonly botRequests: WindowLimit;
  };
  /** Lobbies an application's server (bot token) holds at once; past it `POST /lobbies` is refused. **(ours)** */
  readonly serverLobbiesPerApp: number;
  /** Applications registered on first use held at most; past it unknown ids stay unknown. **(ours)** */
  readonly autoRegisteredAppsMax: number;
  /**
   * An app registered on first use that nothing has used (no activity, grant, asset or
   * rename) is forgotten this long after its last registration request. **(ours)**
   */
  readonly unusedAppTtlMs: number;
  /** Unused: every state change is committed before the request that made it is answered. */
  readonly persistDebounceMs: number;
  /** Messages kept per channel (older ones are dropped from the state). */
  readonly messagesPerChannel: number;
  /** Largest HTTP request body. */
  readonly maxHttpBodyBytes: number;
  /** An OAuth2 authorization code is valid this long. **(ours)** */
  readonly oauthCodeTtlMs: number;
  /** A device code of the device authorization grant is valid this long (RFC 8628). **(ours)** */
  readonly deviceCodeTtlMs: number;
  /** The least time between two polls of one device code (`interval`). **(ours)** */
  readonly deviceCodeIntervalMs: number;
  /** An OAuth2 access token is valid this long (`expires_in`). */
  readonly oauthAccessTokenTtlMs: number;
  /** A provisional account's access token (the public docs: one hour). */
  readonly provisionalTokenTtlMs: number;
  /** Each fetch of an OIDC issuer's discovery document or keys, whole. **(ours)** */
  readonly oidcFetchTimeoutMs: number;
  /** A webhook delivery that has not answered after this long is a failure (retried). */
  readonly webhookTimeoutMs: number;
  /** The first retry of a failed webhook delivery waits this long; each next one twice as long. */
  readonly webhookRetryFirstMs: number;
  /** No retry waits longer than this: delivery gives up instead. */
  readonly webhookRetryMaxMs: number;
  /**
   * A lobby call's participant whose voice connection dropped, who never connected, or whose
   * last game session ended stays in the call this long. **(ours)**
   */
  readonly voiceGraceMs: number;
}

export const DEFAULT_LIMITS: PlatformLimits = {
  heartbeatIntervalMs: 41_250,
  heartbeatTimeoutFactor: 1.5,
  resumeWindowMs: 180_000,
  resumeBufferSize: 1000,
  sendLimit: { count: 120, windowMs: 60_000 },
  maxPayloadBytes: 4096,
  gameActivityLimit: { count: 5, windowMs: 20_000 },
  allMembersCooldownMs: 30_000,
  reconnectCloseAfterMs: 5000,
  inviteTtlMs: 6 * 60 * 60 * 1000,
  http: {
    messageCreate: { count: 5, windowMs: 5000 },
    devLogin: { count: 10, windowMs: 60_000 },
    appRegister: { count: 30, windowMs: 60_000 },
    lobbyJoin: { count: 30, windowMs: 60_000 },
    lobbyMessage: { count: 10, windowMs: 5000 },
    partnerSdk: { count: 60, windowMs: 60_000 },
    relationshipChange: { count: 30, windowMs: 60_000 },
    botRequests: { count: 50, windowMs: 1000 },
  },
  serverLobbiesPerApp: 10_000,
  autoRegisteredAppsMax: 500,
  unusedAppTtlMs: 10 * 60 * 1000,
  persistDebounceMs: 100,
  messagesPerChannel: 1000,
  maxHttpBodyBytes: 64 * 1024,
  oauthCodeTtlMs: 10 * 60 * 1000,
  deviceCodeTtlMs: 10 * 60 * 1000,
  deviceCodeIntervalMs: 5000,
  oauthAccessTokenTtlMs: 604_800_000,
  provisionalTokenTtlMs: 3_600_000,
  oidcFetchTimeoutMs: 5_000,
  webhookTimeoutMs: 3000,
  webhookRetryFirstMs: 1000,
  webhookRetryMaxMs: 10 * 60 * 1000,
  voiceGraceMs: 20_000,
};

/** Options may override any field; `http` is merged one level deeper. */
export type PlatformLimitsInput = Partial<Omit<PlatformLimits, 'http'>> & { readonly http?: Partial<PlatformLimits['http']> };

export function resolveLimits(input: PlatformLimitsInput | undefined): PlatformLimits {
  const { http, ...rest } = input ?? {};
  return { ...DEFAULT_LIMITS, ...rest, http: { ...DEFAULT_LIMITS.http, ...http } };
}

/**
 * A fixed window that starts at its first event (the real gateway counts this way); the
 * clock is the emulator's, so tests move it instead of waiting.
 */
export class FixedWindow {
  private start = 0;
  private used = 0;

  constructor(
    readonly limit: WindowLimit,
    private readonly now: () => number,
  ) {}

  /** Counts one event; false when it is over the limit (it is then not counted). */
  take(): boolean {
    this.roll();
    if (this.used >= this.limit.count) return false;
    if (this.used === 0) this.start = this.now();
    this.used += 1;
    return true;
  }

  get remaining(): number {
    this.roll();
    return Math.max(0, this.limit.count - this.used);
  }

  /** Epoch ms when the window resets (now, if nothing was counted). */
  get resetAt(): number {
    this.roll();
    return this.used === 0 ? this.now() : this.start + this.limit.windowMs;
  }

  /** Milliseconds until the window resets. */
  get retryAfterMs(): number {
    return Math.max(0, this.resetAt - this.now());
  }

  private roll(): void {
    if (this.used > 0 && this.now() >= this.start + this.limit.windowMs) this.used = 0;
  }
}
