import { EventEmitter } from 'node:events';
import type { PlatformUser, PresenceUpdateCommand, ReadyEvent } from '../../../../platform/src/wire/index.js';
import { Backoff } from '../gateway/backoff.js';
import { GatewayClient, PlatformApi, PlatformApiError, type GatewayStatus } from '../gateway/index.js';
import type { AccountCache } from './account-cache.js';
import type { RpcLogger } from '../../../../rpc/src/index.js';

/** A sign-in or sign-out that a newer one replaced before it finished (HTTP 409 in the control API). */
export class SupersededError extends Error {
  readonly status = 409;
  constructor() {
    super('a newer sign-in or sign-out replaced this one');
    this.name = 'SupersededError';
  }
}

/** How the host signs in: a platform username through the dev login, or a token. */
export type Credentials = { readonly username: string } | { readonly token: string };

export interface SessionStatus {
  /**
   * 'signed-out' when no account is signed in; 'banned' while the platform refuses the
   * signed-in account for a ban (the session signs in again by itself once it is lifted);
   * else the gateway's status.
   */
  readonly status: GatewayStatus | 'signed-out' | 'signing-in' | 'banned';
  readonly detail: string;
}

/**
 * Where the player's token is kept between runs (the desktop shell's safeStorage store).
 * The session saves the token of every successful sign-in and clears it on sign-out or when
 * the platform rejects it; nothing else ever sees it.
 */
export interface TokenStore {
  save(token: string): Promise<void>;
  clear(): Promise<void>;
}

export interface PlatformSessionOptions {
  readonly baseUrl: string;
  /** Keeps the token for the next run; absent: the token lives in memory only. */
  readonly tokenStore?: TokenStore;
  readonly cache: AccountCache;
  readonly logger: RpcLogger;
  /** The presence a new gateway session starts with (the relay's current state). */
  readonly presence: () => PresenceUpdateCommand;
  /** Gateway client tuning for tests (backoff, heartbeat jitter). */
  readonly gatewayOptions?: Partial<ConstructorParameters<typeof GatewayClient>[0]>;
  /** Retry delay for a sign-in that failed because the platform was unreachable. */
  readonly signInRetryMs?: { readonly initialMs: number; readonly maxMs: number };
  /** Retry delay of the sign-in again after the platform refused the account's gateway session (a ban) (default 1 s doubling to 60 s). */
  readonly recoveryRetryMs?: { readonly initialMs: number; readonly maxMs: number };
  /** Jitter source in [0, 1) for the recovery's delays. */
  readonly random?: () => number;
}

export interface PlatformSessionEvents {
  status: [SessionStatus];
  /** The signed-in account changed (null: signed out). */
  account: [PlatformUser | null];
  ready: [ReadyEvent];
  resumed: [];
  dispatch: [t: string, d: unknown];
  drain: [];
}

/** An account the platform confirmed for a sign-in, not yet this session's. */
interface ConfirmedAccount {
  readonly token: string;
  readonly api: PlatformApi;
  readonly user: PlatformUser;
  readonly gatewayUrl: string;
}

/**
 * The host's account on the platform: signing in and out, the HTTP client with the user's
 * token, and the gateway connection. The token lives in memory here and, when a token store is
 * given, in that store (never on disk in plain text); the account cache keeps the user object
 * so games get READY while the platform is away.
 */
export class PlatformSession extends EventEmitter<PlatformSessionEvents> {
  /** Unauthenticated calls (application lookups). */
  readonly publicApi: PlatformApi;
  private api: PlatformApi | null = null;
  private gateway: GatewayClient | null = null;
  private liveUser: PlatformUser | null = null;
  private cachedUser: PlatformUser | null = null;
  private state: SessionStatus = { status: 'signed-out', detail: 'not signed in' };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryWake: (() => void) | undefined;
  /** Bumped by every sign-in and sign-out, so a stale attempt never wins. */
  private generation = 0;
  /** How the current account signed in, to sign in again after the platform refused its session. */
  private credentials: Credentials | null = null;
  /** The waits between sign-ins again, reset by a READY. */
  private readonly recovery: Backoff;
  /** A sign-in again ran since the last READY: the next one waits. */
  private recovering = false;

  constructor(private readonly options: PlatformSessionOptions) {
    super();
    this.publicApi = new PlatformApi({ baseUrl: options.baseUrl });
    this.recovery = new Backoff(options.recoveryRetryMs ?? { initialMs: 1000, maxMs: 60_000 }, options.random ?? Math.random);
  }

  /** The platform refuses the signed-in account for a ban: games' platform commands are refused meanwhile. */
  get banned(): boolean {
    return this.state.status === 'banned';
  }

  /** Loads the cached account (for READY before the platform answers). */
  async loadCache(): Promise<void> {
    this.cachedUser = await this.options.cache.read();
  }

  /** The account READY announces: the live one, else the last one known. */
  get user(): PlatformUser | null {
    return this.liveUser ?? this.cachedUser;
  }

  /** The current gateway session id, once READY has arrived. */
  get sessionId(): string | undefined {
    return this.gateway?.sessionId;
  }

  /** The gateway's last heartbeat round trip in ms, once one was measured. */
  get gatewayLatencyMs(): number | undefined {
    return this.gateway?.latencyMs;
  }

  get status(): SessionStatus {
    return this.state;
  }

  /** The authenticated HTTP client, or null while signed out. */
  authedApi(): PlatformApi | null {
    return this.api;
  }

  updatePresence(presence: PresenceUpdateCommand): boolean {
    return this.gateway?.updatePresence(presence) ?? false;
  }

  /**
   * Signs in and connects the gateway. Resolves with the user once the platform answered.
   * If the platform cannot be reached, the attempt is retried in the background and the
   * promise rejects with the network error; bad credentials reject without retry.
   */
  async signIn(credentials: Credentials, options: { retry?: boolean } = {}): Promise<PlatformUser> {
    // A newer call (sign-in or sign-out) wins: every older one sees its generation change.
    const generation = ++this.generation;
    if (this.api !== null) return this.switchAccount(credentials, generation);
    await this.stopCurrent();
    if (generation !== this.generation) throw new SupersededError();
    this.setStatus({ status: 'signing-in', detail: 'signing in' });
    let delay = this.options.signInRetryMs?.initialMs ?? 1000;
    for (;;) {
      try {
        return await this.attempt(credentials, generation);
      } catch (error) {
        if (generation !== this.generation) throw error instanceof SupersededError ? error : new SupersededError();
        if (isBanRefusal(error)) {
          // Not the credentials' fault: they work again once the ban is lifted, so keep trying in the background.
          this.credentials = credentials;
          this.recovering = true;
          this.setStatus({ status: 'banned', detail: `the platform account is banned (${errorText(error)}); signing in again later` });
          void this.signInAgain(credentials, generation);
          throw error;
        }
        const unreachable = error instanceof PlatformApiError && error.status === 0;
        if (!unreachable || options.retry === false) {
          // A token the platform refuses is useless next time too.
          if ('token' in credentials && error instanceof PlatformApiError && error.status === 401) await this.forgetToken();
          this.setStatus({ status: 'signed-out', detail: `sign-in failed: ${error instanceof Error ? error.message : String(error)}` });
          throw error;
        }
        this.setStatus({ status: 'signing-in', detail: `platform unreachable; retrying in ${Math.round(delay / 1000)} s` });
        this.options.logger.warn({ retryInMs: delay }, 'platform unreachable at sign-in; retrying');
        await new Promise<void>((resolve) => {
          this.retryWake = resolve;
          this.retryTimer = setTimeout(resolve, delay);
        });
        if (generation !== this.generation) throw new SupersededError();
        delay = Math.min(delay * 2, this.options.signInRetryMs?.maxMs ?? 30_000);
      }
    }
  }

  /**
   * Signed in already: the new account is confirmed (its token, its user, the gateway's
   * address) while the current session goes on, and only then replaces it. A switch that fails
   * (an unknown user, a refused token, the platform away) rejects and leaves the current
   * session as it was: same account, same gateway, same status. No retry: the player asked for
   * this account now.
   */
  private async switchAccount(credentials: Credentials, generation: number): Promise<PlatformUser> {
    const confirmed = await this.confirm(credentials);
    if (generation !== this.generation) throw new SupersededError();
    await this.stopCurrent();
    if (generation !== this.generation) throw new SupersededError();
    this.setStatus({ status: 'signing-in', detail: 'signing in' });
    this.credentials = credentials;
    return this.adopt(confirmed);
  }

  /** Everything that waits happens first; the account changes in one step, only if still current. */
  private async attempt(credentials: Credentials, generation: number): Promise<PlatformUser> {
    const confirmed = await this.confirm(credentials);
    if (generation !== this.generation) throw new SupersededError();
    this.credentials = credentials;
    return this.adopt(confirmed);
  }

  /** The account the credentials give, asked of the platform without touching this session. */
  private async confirm(credentials: Credentials): Promise<ConfirmedAccount> {
    let token: string;
    if ('token' in credentials) token = credentials.token;
    else {
      try {
        token = (await this.publicApi.login(credentials.username)).token;
      } catch (error) {
        // The dev login answers 400 Invalid Form Body for a name it does not know: say so plainly.
        if (error instanceof PlatformApiError && error.status === 400) {
          throw new PlatformApiError(400, error.code, `no user named '${credentials.username}' on the platform (add one with 'companion platform users add NAME')`);
        }
        throw error;
      }
    }
    const api = new PlatformApi({ baseUrl: this.options.baseUrl, token });
    const user = await api.me();
    const gatewayUrl = await this.publicApi.gatewayUrl();
    return { token, api, user, gatewayUrl };
  }

  /** Makes a confirmed account this session's: its gateway connects, the cache and token store keep it. */
  private async adopt({ token, api, user, gatewayUrl }: ConfirmedAccount): Promise<PlatformUser> {
    this.api = api;
    this.liveUser = user;
    this.cachedUser = user;
    this.connectGateway(token, gatewayUrl);
    this.emit('account', user);
    await this.options.cache.write(user);
    await this.saveToken(token);
    return user;
  }

  private connectGateway(token: string, url: string): void {
    const gateway = new GatewayClient({
      url,
      token,
      initialPresence: this.options.presence,
      logger: this.options.logger,
      ...this.options.gatewayOptions,
    });
    this.gateway = gateway;
    gateway.on('status', (status, detail) => {
      // Stopped by the platform (not by a sign-in or sign-out, which drop the gateway first): find out why and sign in again.
      if (status === 'stopped' && this.gateway === gateway) this.refused(detail);
      else this.setStatus({ status, detail });
    });
    gateway.on('ready', (ready) => {
      this.recovering = false;
      this.recovery.reset();
      // The platform is the source of truth for the account: every READY refreshes the cache.
      this.liveUser = ready.user;
      this.cachedUser = ready.user;
      void this.options.cache.write(ready.user).catch(() => undefined);
      this.emit('ready', ready);
    });
    gateway.on('resumed', () => this.emit('resumed'));
    gateway.on('dispatch', (t, d) => this.emit('dispatch', t, d));
    gateway.on('drain', () => this.emit('drain'));
    gateway.start();
  }

  /**
   * The platform ended the account's gateway session for good (4004: a ban, or a token it no
   * longer takes). The session signs in again with the same credentials, with backoff: a
   * ban shows as 'banned' until it is lifted, then the account is back by itself; credentials
   * the platform no longer knows sign out, as at sign-in.
   */
  private refused(detail: string): void {
    const credentials = this.credentials;
    this.gateway = null;
    this.api = null;
    if (credentials === null) {
      this.setStatus({ status: 'stopped', detail });
      return;
    }
    this.setStatus({ status: 'signing-in', detail: `${detail}; signing in again` });
    void this.signInAgain(credentials, this.generation);
  }

  private async signInAgain(credentials: Credentials, generation: number): Promise<void> {
    let wait = this.recovering ? this.recovery.next() : 0;
    this.recovering = true;
    for (;;) {
      if (wait > 0) await this.pause(wait);
      if (generation !== this.generation) return;
      try {
        const confirmed = await this.confirm(credentials);
        // A token the HTTP API still takes may be a banned account's: the gateway refused it.
        if ('token' in credentials) await this.refuseIfBanned(confirmed.user.username);
        if (generation !== this.generation) return;
        await this.adopt(confirmed);
        return;
      } catch (error) {
        if (generation !== this.generation) return;
        const why = await this.banBehind(credentials, error);
        if (generation !== this.generation) return;
        wait = this.recovery.next();
        if (!this.stillRetrying(credentials, why, wait)) return;
      }
    }
  }

  /**
   * Throws the platform's ban refusal when it says the account is banned: the emulator's dev
   * login refuses a banned account by name (403); any other answer, a platform without a dev
   * login included, says nothing.
   */
  private async refuseIfBanned(username: string): Promise<void> {
    try {
      await this.publicApi.login(username);
    } catch (error) {
      if (isBanRefusal(error)) throw error;
    }
  }

  /** A token refused over HTTP (400, 401) may be a banned account's: asked by the account's name before giving the token up. */
  private async banBehind(credentials: Credentials, error: unknown): Promise<unknown> {
    const status = error instanceof PlatformApiError ? error.status : undefined;
    const known = this.liveUser ?? this.cachedUser;
    if (isBanRefusal(error) || !('token' in credentials) || (status !== 400 && status !== 401) || known === null) return error;
    try {
      await this.refuseIfBanned(known.username);
      return error;
    } catch (ban) {
      return ban;
    }
  }

  /** Says why a sign-in again failed; false when retrying is useless (the credentials are no longer good). */
  private stillRetrying(credentials: Credentials, error: unknown, waitMs: number): boolean {
    const message = errorText(error);
    const status = error instanceof PlatformApiError ? error.status : undefined;
    const seconds = Math.max(1, Math.round(waitMs / 1000));
    if (isBanRefusal(error)) {
      this.setStatus({ status: 'banned', detail: `the platform account is banned (${message}); signing in again in ${seconds} s` });
      this.options.logger.warn({ retryInMs: waitMs }, 'platform account banned; signing in again later');
      return true;
    }
    if (status === 400 || status === 401) {
      this.credentials = null;
      this.setStatus({ status: 'signed-out', detail: `sign-in failed: ${message}` });
      if ('token' in credentials) void this.forgetToken();
      return false;
    }
    this.setStatus({ status: 'signing-in', detail: `sign-in again failed (${message}); retrying in ${seconds} s` });
    return true;
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      this.retryWake = resolve;
      this.retryTimer = setTimeout(resolve, ms);
    });
  }

  /** Sends a gateway command other than presence (op 8, op 43); false when not possible now. */
  send(op: number, d: unknown): boolean {
    return this.gateway?.send(op, d) ?? false;
  }

  async signOut(): Promise<void> {
    const generation = ++this.generation;
    await this.stopCurrent();
    // A sign-in that started meanwhile is newer: it decides the account.
    if (generation !== this.generation) return;
    this.liveUser = null;
    this.cachedUser = null;
    this.credentials = null;
    this.setStatus({ status: 'signed-out', detail: 'signed out' });
    this.emit('account', null);
    await this.options.cache.write(null);
    await this.forgetToken();
  }

  /** A store that fails costs the player a sign-in next time, never this session. */
  private async saveToken(token: string): Promise<void> {
    try {
      await this.options.tokenStore?.save(token);
    } catch (error) {
      this.options.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'the platform token could not be stored');
    }
  }

  private async forgetToken(): Promise<void> {
    try {
      await this.options.tokenStore?.clear();
    } catch (error) {
      this.options.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'the stored platform token could not be removed');
    }
  }

  async close(): Promise<void> {
    this.generation += 1;
    await this.stopCurrent();
    await this.options.cache.flush();
  }

  private async stopCurrent(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryWake?.(); // a waiting retry sees the new generation and gives up
    this.retryWake = undefined;
    const gateway = this.gateway;
    this.gateway = null;
    this.api = null;
    if (gateway !== null) await gateway.stop();
  }

  private setStatus(status: SessionStatus): void {
    if (status.status === this.state.status && status.detail === this.state.detail) return;
    this.state = status;
    this.emit('status', status);
  }
}

/** The platform refuses the account itself (a ban: the dev login's and the API's 403), not the credentials. */
function isBanRefusal(error: unknown): boolean {
  return error instanceof PlatformApiError && (error.status === 403 || /banned/i.test(error.message));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
