import { answerOf, platformCall } from './platform-request.js';
import { PlatformGateway, type GatewayLog, type PlatformStatus } from './platform-gateway.js';
import { GatewayAnswerSchema } from './wire/http.js';
import type { PlatformDispatch } from './wire/gateway.js';

export type { PlatformStatus } from './platform-gateway.js';

/** Where the session reports what it dropped, and a game callback that threw (the Client's logger fits). */
export interface SessionLog extends GatewayLog {
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export interface PlatformSessionOptions {
  readonly platformBase: () => string;
  /** The game's access token (updateToken), or null. */
  readonly token: () => string | null;
  readonly timeoutMs: () => number;
  /** Every dispatch of the game's own gateway connection that the SDK handles, checked. */
  readonly dispatch: (event: PlatformDispatch) => void;
  /** The platform refused on the gateway (4004) a token it had taken: expired or revoked. */
  readonly tokenRefused: () => void;
  /** Each status of the connection, for the SDK's own state (statusCallback is the game's). */
  readonly statusChanged?: (status: PlatformStatus) => void;
  /**
   * What the SDK loads once the session is READY (or RESUMED) before it reports `ready`: the
   * relationship list, so that at `ready` the game reads the initial state (a failure is the
   * loader's to log: `ready` comes all the same).
   */
  readonly loadOnReady?: () => Promise<void>;
  readonly log?: SessionLog;
  /** The gateway's reconnect backoff (tests shorten it). */
  readonly backoff?: ConstructorParameters<typeof PlatformGateway>[0]['backoff'];
}

const SILENT: SessionLog = { error: () => undefined, warning: () => undefined, verbose: () => undefined };

/**
 * The game's own session to the platform, as the Social SDK opens one once it holds a token:
 * its gateway connection (platform-gateway.ts), whose address it asks the platform for
 * (`GET /api/v10/gateway`). HTTP calls go with the same token (lobby-api.ts). A game callback
 * that throws while a dispatch or a status is delivered is logged; the connection goes on.
 */
export class PlatformSession {
  statusCallback: ((status: PlatformStatus, detail: string | null) => void) | undefined;
  private readonly gateway: PlatformGateway;
  private readonly log: SessionLog;
  /** The current token got READY once: a later 4004 means it was revoked or expired, not that it never had the scopes. */
  private tokenWorked = false;
  /** The status the game is told: the gateway's, except that `ready` waits for loadOnReady. */
  private reported: PlatformStatus = 'disconnected';
  /** Counts the gateway's statuses, so a load that ends after the next one reports nothing. */
  private generation = 0;

  constructor(private readonly options: PlatformSessionOptions) {
    this.log = options.log ?? SILENT;
    this.gateway = new PlatformGateway({
      url: () => this.gatewayUrl(),
      token: options.token,
      log: this.log,
      ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
    });
    this.gateway.on('status', (status, detail) => {
      this.generation += 1;
      if (status !== 'ready') return this.report(status, detail);
      this.tokenWorked = true;
      // The READY (or RESUMED) dispatch follows this status at once: the load starts after it.
      const generation = this.generation;
      void Promise.resolve()
        .then(() => options.loadOnReady?.())
        .catch(() => undefined)
        .then(() => {
          if (generation === this.generation) this.report('ready', detail);
        });
    });
    this.gateway.on('dispatch', (event) => this.guarded(event.t, () => options.dispatch(event)));
    // A token without the gateway's scopes (a game that asked only for `identify rpc`) is no
    // expired token: only the refusal of a token that worked is reported as one.
    this.gateway.on('token-refused', () => {
      if (this.tokenWorked) this.guarded('token-refused', () => options.tokenRefused());
    });
  }

  /** The gateway's status, except that `ready` comes once loadOnReady finished. */
  get status(): PlatformStatus {
    return this.reported;
  }

  /** With the current token: a new connection (a token change identifies again). */
  restart(): void {
    this.gateway.stop();
    this.tokenWorked = false;
    if (this.options.token() !== null) this.gateway.start();
  }

  stop(): void {
    this.gateway.stop();
  }

  /** The session's presence (op 3), kept for later connections; whether it was sent now. */
  updatePresence(presence: Readonly<Record<string, unknown>>): boolean {
    return this.gateway.updatePresence(presence);
  }

  private report(status: PlatformStatus, detail: string | null): void {
    this.reported = status;
    this.guarded('status', () => {
      this.options.statusChanged?.(status);
      this.statusCallback?.(status, detail);
    });
  }

  /** A game callback that throws is the game's bug: logged, and the connection goes on. */
  private guarded(event: string, deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.log.error('a callback threw', { event, error });
    }
  }

  private async gatewayUrl(): Promise<string> {
    const call = { platformBase: this.options.platformBase(), timeoutMs: this.options.timeoutMs() };
    const json = await platformCall(call, '/api/v10/gateway', { method: 'GET', headers: { Accept: 'application/json' } }, []);
    return answerOf(GatewayAnswerSchema, json, 'gateway').url;
  }
}
