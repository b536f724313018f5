import type { PlatformLogger } from '../support/logger.js';
import { RPC_SCOPES } from '../wire/index.js';
import { isSnowflake } from './ids.js';
import type { AppRecord } from './model.js';
import type { Store } from './store.js';

export interface AppRegistryOptions {
  /** No registration on first use at all (`--strict-apps`). */
  readonly strict: boolean;
  /** Apps registered on first use held at most. */
  readonly max: number;
  /** An unused app registered on first use is forgotten this long after its last registration request. */
  readonly unusedTtlMs: number;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

/** What a registration request came to. */
export type Registration =
  | { readonly kind: 'found'; readonly app: AppRecord }
  | { readonly kind: 'registered'; readonly app: AppRecord }
  /** Strict mode, or not a snowflake: the id stays unknown. */
  | { readonly kind: 'unknown' }
  /** `max` apps registered on first use are held: the id stays unknown until some are forgotten. */
  | { readonly kind: 'full' };

/**
 * The applications clients name: look-ups (which never create anything) and registration on
 * first use (which only the registration route asks for), bounded by a cap and by forgetting
 * the registered apps nothing has used.
 */
export class AppRegistry {
  private sweeper: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly store: Store,
    private readonly options: AppRegistryOptions,
  ) {}

  /** The app for an id, or undefined; an unused app past its time counts as gone. */
  find(id: string): AppRecord | undefined {
    const app = this.store.app(id);
    if (app?.unused_since !== undefined && this.expired(app.unused_since)) {
      this.forgetIdle();
      return undefined;
    }
    return app;
  }

  /** The app for an id, registering an unknown one (unverified, named `Application <id>`) when allowed. */
  register(id: string): Registration {
    const known = this.find(id);
    if (known !== undefined) {
      this.store.refreshUnusedApp(known);
      return { kind: 'found', app: known };
    }
    if (this.options.strict || !isSnowflake(id)) return { kind: 'unknown' };
    this.forgetIdle();
    if (this.store.autoRegisteredCount() >= this.options.max) {
      this.options.logger.warn({ applicationId: id, max: this.options.max }, 'application not registered: as many registered on first use as allowed');
      return { kind: 'full' };
    }
    this.options.logger.info({ applicationId: id }, 'application registered on first use');
    // Approved for the rpc* family so local tools work (ours); strict mode never gets here.
    const app = this.store.createApp({ id, name: `Application ${id}`, verified: false, autoRegistered: true, approvedScopes: RPC_SCOPES, unused: true });
    this.arm();
    return { kind: 'registered', app };
  }

  /** Forgets the unused apps registered on first use whose time is up; returns how many. The timer stops once none is left. */
  forgetIdle(): number {
    const forgotten = this.store.forgetUnusedApps(this.options.now() - this.options.unusedTtlMs);
    if (forgotten > 0) this.options.logger.info({ forgotten }, 'unused applications registered on first use forgotten');
    if (!this.store.hasUnusedApps()) this.stopSweeper();
    return forgotten;
  }

  /**
   * Forgets idle apps now, and then every `min(unusedTtlMs, 60 s)` while unused apps registered
   * on first use are held, until `stop()`. With none, no timer runs (issue 27 §4: an idle
   * emulator sets no timer of its own); the next registration arms it.
   */
  start(): void {
    this.started = true;
    this.forgetIdle();
    this.arm();
  }

  stop(): void {
    this.started = false;
    this.stopSweeper();
  }

  /** Whether the forgetting timer runs now. */
  get sweeping(): boolean {
    return this.sweeper !== undefined;
  }

  private arm(): void {
    if (!this.started || this.sweeper !== undefined || !this.store.hasUnusedApps()) return;
    this.sweeper = setInterval(() => this.forgetIdle(), Math.max(1000, Math.min(this.options.unusedTtlMs, 60_000)));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private expired(unusedSince: number): boolean {
    return unusedSince < this.options.now() - this.options.unusedTtlMs;
  }
}
