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
  /** When the timer set is due (epoch ms, the options' clock). */
  private sweepAt = 0;
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

  /** Forgets the unused apps registered on first use whose time is up; returns how many. The timer is set for the next one's time, or stops once none is left. */
  forgetIdle(): number {
    const forgotten = this.store.forgetUnusedApps(this.options.now() - this.options.unusedTtlMs);
    if (forgotten > 0) this.options.logger.info({ forgotten }, 'unused applications registered on first use forgotten');
    this.arm();
    return forgotten;
  }

  /**
   * Forgets idle apps now, and then whenever the longest-unused app registered on first use is
   * due (one timer, set for that time), until `stop()`. With none, no timer runs (issue 27 §4: an
   * idle emulator sets no timer of its own, and one holding unused apps wakes when one is due,
   * not every minute); the next registration arms it.
   */
  start(): void {
    this.started = true;
    this.forgetIdle();
  }

  stop(): void {
    this.started = false;
    this.stopSweeper();
  }

  /** Whether the forgetting timer runs now. */
  get sweeping(): boolean {
    return this.sweeper !== undefined;
  }

  /** Sets the timer for the longest-unused app's time (an earlier one already set stays), or stops it when none is unused. */
  private arm(): void {
    const oldest = this.started ? this.store.oldestUnusedSince() : undefined;
    if (oldest === undefined) {
      this.stopSweeper();
      return;
    }
    const due = oldest + this.options.unusedTtlMs;
    if (this.sweeper !== undefined && this.sweepAt <= due) return;
    this.stopSweeper();
    this.sweepAt = due;
    // Just after its time: forgetUnusedApps keeps an app until its time has passed.
    this.sweeper = setTimeout(() => {
      this.sweeper = undefined;
      this.forgetIdle();
    }, Math.max(0, due - this.options.now()) + 1);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    clearTimeout(this.sweeper);
    this.sweeper = undefined;
  }

  private expired(unusedSince: number): boolean {
    return unusedSince < this.options.now() - this.options.unusedTtlMs;
  }
}
