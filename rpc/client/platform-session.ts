import { isRecord, platformCall } from './platform-request.js';
import { PlatformGateway, type PlatformStatus } from './platform-gateway.js';

export type { PlatformStatus } from './platform-gateway.js';

export interface PlatformSessionOptions {
  readonly platformBase: () => string;
  /** The game's access token (updateToken), or null. */
  readonly token: () => string | null;
  readonly timeoutMs: () => number;
  /** Every dispatch of the game's own gateway connection. */
  readonly dispatch: (t: string, d: unknown) => void;
  /** The platform refused on the gateway (4004) a token it had taken: expired or revoked. */
  readonly tokenRefused: () => void;
  /** Each status of the connection, for the SDK's own state (statusCallback is the game's). */
  readonly statusChanged?: (status: PlatformStatus) => void;
}

/**
 * The game's own session to the platform, as the Social SDK opens one once it holds a token:
 * its gateway connection (platform-gateway.ts), whose address it asks the platform for
 * (`GET /api/v10/gateway`). HTTP calls go with the same token (lobby-api.ts).
 */
export class PlatformSession {
  statusCallback: ((status: PlatformStatus, detail: string | null) => void) | undefined;
  private readonly gateway: PlatformGateway;
  /** The current token got READY once: a later 4004 means it was revoked or expired, not that it never had the scopes. */
  private tokenWorked = false;

  constructor(private readonly options: PlatformSessionOptions) {
    this.gateway = new PlatformGateway({ url: () => this.gatewayUrl(), token: options.token });
    this.gateway.on('status', (status, detail) => {
      if (status === 'ready') this.tokenWorked = true;
      options.statusChanged?.(status);
      this.statusCallback?.(status, detail);
    });
    this.gateway.on('dispatch', (t, d) => options.dispatch(t, d));
    // A token without the gateway's scopes (a game that asked only for `identify rpc`) is no
    // expired token: only the refusal of a token that worked is reported as one.
    this.gateway.on('token-refused', () => {
      if (this.tokenWorked) options.tokenRefused();
    });
  }

  get status(): PlatformStatus {
    return this.gateway.status;
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

  private async gatewayUrl(): Promise<string> {
    const json = await platformCall({ platformBase: this.options.platformBase(), timeoutMs: this.options.timeoutMs() }, '/api/v10/gateway', { method: 'GET', headers: { Accept: 'application/json' } }, []);
    if (!isRecord(json) || typeof json.url !== 'string') throw new Error('the platform did not name its gateway');
    return json.url;
  }
}
