import type { TokenInvalidated } from './connection/sdk-connection.js';
import { bearerCall, isRecord } from './platform-request.js';

/** How long before its end a token is reported as expiring **(ours: the SDK says "near or at expiry")**. */
export const EXPIRY_LEAD_MS = 60_000;
/** The longest wait setTimeout honours (2^31 - 1 ms); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export interface TokenExpiryOptions {
  /** Where the platform is; throws when it is not known yet. */
  readonly platformBase: () => string;
  readonly timeoutMs: () => number;
  /** Called once per token, `EXPIRY_LEAD_MS` before it ends (at once when less is left). */
  readonly expiring: (expiresAt: Date) => void;
  readonly now?: () => number;
}

/**
 * Watches the lifetime of the token given to updateToken, as the Social SDK's token
 * expiration callback does: it asks the platform when the token ends (`GET
 * /api/v10/oauth2/@me`, its `expires`) and calls `expiring` once, shortly before. A new token
 * replaces the watch; a token the platform does not know, or no platform, is not watched
 * (the refusal paths report those).
 */
export class TokenExpiryWatch {
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(private readonly options: TokenExpiryOptions) {}

  async watch(token: string): Promise<void> {
    this.stop();
    const generation = this.generation;
    let base: string;
    try {
      base = this.options.platformBase();
    } catch {
      return;
    }
    let expiresAt: number;
    try {
      const me = await bearerCall({ platformBase: base, token, timeoutMs: this.options.timeoutMs() }, 'GET', '/oauth2/@me');
      expiresAt = isRecord(me) && typeof me.expires === 'string' ? Date.parse(me.expires) : Number.NaN;
    } catch {
      return;
    }
    if (generation !== this.generation || Number.isNaN(expiresAt)) return;
    this.arm(generation, expiresAt);
  }

  /** A timer for the warning; one longer than a timer can wait (about 24.8 days) is armed again when it fires. */
  private arm(generation: number, expiresAt: number): void {
    if (generation !== this.generation) return;
    const wait = expiresAt - EXPIRY_LEAD_MS - (this.options.now?.() ?? Date.now());
    const fire = wait <= MAX_TIMER_MS;
    this.timer = setTimeout(() => (fire ? this.options.expiring(new Date(expiresAt)) : this.arm(generation, expiresAt)), Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    this.timer.unref();
  }

  stop(): void {
    this.generation += 1;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The token expiration callback fires once per token, as the Social SDK's does: the end of one
 * token is seen several ways (Companion's CLOSE 4003, a refused AUTHENTICATE 4009, the
 * platform gateway's 4004, the expiry watch), often two at once (a ban: 4003 and 4004), and
 * only the first is told. updateToken's new token is told again.
 */
export class TokenEndReport {
  private told = false;

  constructor(private readonly tell: (info: TokenInvalidated) => void) {}

  /** A new token: its end is reported. */
  renew(): void {
    this.told = false;
  }

  /** Tells the first report of the current token's end; false for a later one (dropped). */
  report(info: TokenInvalidated): boolean {
    if (this.told) return false;
    this.told = true;
    this.tell(info);
    return true;
  }
}
