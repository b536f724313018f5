import { EventEmitter } from 'node:events';
import type { DetectableApplication } from '../../../../platform/src/wire/index.js';
import type { DetectableFetch } from '../gateway/platform-api.js';
import { parseDetectableList, type CachedDetectableList, type DetectableListFile } from './detectable-list-file.js';

/** A day: how long a fetched list is kept before asking again (the platform's tag makes asking cheap). */
export const DETECTABLE_REFRESH_MS = 24 * 60 * 60 * 1000;
/** After a failed fetch (platform unreachable), asking again this much later while signed in. */
export const DETECTABLE_RETRY_MS = 10 * 60 * 1000;

/** Timers, injectable so tests run a simulated clock. Real timers are unref'd: they never keep the host alive. */
export interface ListClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const systemClock: ListClock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface DetectableListLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DetectableListOptions {
  /** `GET /applications/detectable` with the tag of the copy held (PlatformApi.detectableApplications). */
  readonly fetch: (etag: string | null) => Promise<DetectableFetch>;
  readonly file: DetectableListFile;
  readonly logger: DetectableListLogger;
  readonly clock?: ListClock;
  readonly refreshMs?: number;
  readonly retryMs?: number;
}

/** Where the list in use came from. */
export type DetectableListSource = 'none' | 'cache' | 'platform';

export interface DetectableListStatus {
  readonly source: DetectableListSource;
  readonly applications: number;
  readonly fetched_at: number | null;
  /** The last fetch's failure in words (the platform unreachable, an error status), null after a success. */
  readonly last_error: string | null;
}

export interface DetectableListEvents {
  /** A new list is in use (from the cache at start, or a fetch that brought a changed one). */
  list: [readonly DetectableApplication[]];
}

/**
 * The platform's detectable applications as the host keeps them: the cached copy from the data
 * dir at start, fetched at sign-in and kept fresh while signed in (the tag sent with each ask,
 * so an unchanged list costs a 304; asked again daily, and sooner after a failure). While the
 * platform cannot be reached, the cached copy stays in use. Timers run only while signed in.
 */
export class DetectableList extends EventEmitter<DetectableListEvents> {
  private readonly clock: ListClock;
  private readonly refreshMs: number;
  private readonly retryMs: number;
  private current: CachedDetectableList | null = null;
  private source: DetectableListSource = 'none';
  private lastError: string | null = null;
  private timer: unknown;
  private signedIn = false;
  private fetching: Promise<void> | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly options: DetectableListOptions) {
    super();
    this.clock = options.clock ?? systemClock;
    this.refreshMs = options.refreshMs ?? DETECTABLE_REFRESH_MS;
    this.retryMs = options.retryMs ?? DETECTABLE_RETRY_MS;
  }

  /** The cached copy, if any, becomes the list in use (before any fetch). */
  async loadCache(): Promise<void> {
    const cached = await this.options.file.read();
    if (cached === null || this.current !== null) return;
    this.current = cached;
    this.source = 'cache';
    this.emit('list', cached.applications);
  }

  applications(): readonly DetectableApplication[] {
    return this.current?.applications ?? [];
  }

  status(): DetectableListStatus {
    return { source: this.source, applications: this.applications().length, fetched_at: this.current?.fetched_at ?? null, last_error: this.lastError };
  }

  /** Someone signed in: fetch now, then keep the list fresh until `signOut`. */
  signIn(): Promise<void> {
    this.signedIn = true;
    return this.refresh();
  }

  /** Nobody is signed in: no timer stays armed. */
  signOut(): void {
    this.signedIn = false;
    this.cancelTimer();
  }

  /** Asks the platform now (one ask at a time); resolves once the answer is in use and written. */
  refresh(): Promise<void> {
    this.fetching ??= this.fetchOnce().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  /** Resolves once every cache write asked for so far is done. */
  flush(): Promise<void> {
    return this.writes;
  }

  dispose(): void {
    this.signedIn = false;
    this.cancelTimer();
    this.removeAllListeners();
  }

  private async fetchOnce(): Promise<void> {
    this.cancelTimer();
    let answer: DetectableFetch;
    try {
      answer = await this.options.fetch(this.current?.etag ?? null);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      this.options.logger.warn({ error: this.lastError, source: this.source, applications: this.applications().length }, 'detectable applications: fetch failed, the copy in use stays');
      this.arm(this.retryMs);
      return;
    }
    this.lastError = null;
    const now = this.clock.now();
    if (answer.kind === 'unchanged' && this.current !== null) {
      this.current = { ...this.current, fetched_at: now };
      this.source = 'platform';
    } else if (answer.kind === 'list') {
      this.adopt(answer, now);
    }
    this.arm(this.refreshMs);
    if (this.current !== null) this.save(this.current);
    await this.writes;
  }

  private adopt(answer: Extract<DetectableFetch, { kind: 'list' }>, now: number): void {
    const applications = parseDetectableList(answer.body);
    if (applications === null) {
      this.lastError = 'the platform answered something other than a list';
      this.options.logger.warn({}, 'detectable applications: the answer was not a list, the copy in use stays');
      return;
    }
    this.current = { etag: answer.etag, fetched_at: now, applications };
    this.source = 'platform';
    this.options.logger.info({ applications: applications.length }, 'detectable applications fetched');
    this.emit('list', applications);
  }

  private save(cache: CachedDetectableList): void {
    this.writes = this.writes
      .then(() => this.options.file.write(cache))
      .catch((error: unknown) => this.options.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'detectable applications: the cached copy could not be written'));
  }

  private arm(ms: number): void {
    this.cancelTimer();
    if (!this.signedIn) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      void this.refresh();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
