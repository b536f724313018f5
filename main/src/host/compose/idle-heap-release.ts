import type { Session as InspectorSession } from 'node:inspector';
import v8 from 'node:v8';

/*
 * Memory given back once `companion serve` goes quiet.
 *
 * Under load V8 lets garbage pile up in the old generation between full collections and grows
 * the young generation; once the games stop, nothing allocates, so no collection runs and the
 * heap stays at its high-water mark: RSS stayed where the load left it. So when no game has
 * sent SET_ACTIVITY and the gateway no dispatch for a whole check period, and the heap has grown
 * by `minGrowthBytes` since the last release, the host runs V8's memory-reducing collection (the
 * one V8 runs on a low-memory notification: full collections until nothing more is freed, the
 * young generation shrunk, emptied pages returned to the OS). Start-up counts as such a growth:
 * the first quiet period after start releases what loading the modules left behind.
 *
 * Node exposes that collection only through the inspector protocol (HeapProfiler.collectGarbage),
 * which works in-process without --inspect; the session lives for the one call. A plain full
 * collection (--expose-gc's gc()) frees the garbage but keeps most pages.
 * Measured 2026-11-25 (2 cores, Node 20.20.2, shared with other work):
 * - `companion serve` 4 s after start: RSS 60.3 -> 54.2 MiB, V8 heap 19.0 -> 11.4 MB.
 * - after 240 s of 50 games sending 250 SET_ACTIVITY/s: RSS 60.0 idle before, 96.1 at the end
 *   and still 20 s later; then a plain full collection 70.0, this one 61.9 MiB.
 * - `npm run bench -- soak --duration 420` with BENCH_SOAK_GAMES=50 BENCH_SOAK_RATE=250: RSS idle
 *   before / end of load / 120 s later, without the release 59.4 / 95.6 / 95.6 MiB, with it
 *   53.7 / 95.9 / 62.2 MiB (back 5 s after the load).
 * The price: right after a release the young generation is at its smallest, so a burst that
 * follows meets a scavenge more often until V8 grows it again (docs/performance.md, "Against
 * arRPC", has what that does to the round trip's p99 on a fresh host).
 */

/** Resolves once the collection is done (false: it could not run). */
export type MemoryReducingCollection = () => Promise<boolean>;

/**
 * V8's memory-reducing collection through an in-process inspector session (the module is loaded
 * at the first call, not at start). False when node has no inspector.
 */
export async function memoryReducingCollection(): Promise<boolean> {
  let Session: typeof InspectorSession;
  try {
    ({ Session } = await import('node:inspector'));
  } catch {
    return false;
  }
  const session = new Session();
  try {
    session.connect();
  } catch {
    return false;
  }
  await new Promise<void>((resolve) => session.post('HeapProfiler.collectGarbage', () => resolve()));
  session.disconnect();
  return true;
}

export interface IdleHeapReleaseOptions {
  readonly collect: MemoryReducingCollection;
  /** How often quiet is checked; the release comes one to two periods after the last update. */
  readonly checkMs?: number;
  /** The heap must have grown this much since the last release (bytes). */
  readonly minGrowthBytes?: number;
  /** V8's committed heap, in bytes. */
  readonly heapBytes?: () => number;
}

const DEFAULT_CHECK_MS = 2000;
const DEFAULT_MIN_GROWTH_BYTES = 2 * 1024 * 1024;

/**
 * Runs the memory-reducing collection when the host has been quiet for a check period after the heap grew.
 *
 * The check's timer runs only from start, or from a game's update or a gateway dispatch, to the
 * first quiet check after it (issue 27 §4: an idle host sets no timer of its own); the next update
 * arms it again. Heap growth with neither behind it (other RPC commands, the UI) is released at
 * the next quiet period after one, not by a check that ticks all day.
 */
export class IdleHeapRelease {
  private active = false;
  /** The committed heap after the last release; 0 before the first (start-up counts as growth). */
  private baseline = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly checkMs: number;
  private readonly collect: MemoryReducingCollection;
  private collecting = false;
  private disposed = false;
  private readonly minGrowthBytes: number;
  private readonly heapBytes: () => number;
  /** Releases done so far. */
  releases = 0;

  constructor(options: IdleHeapReleaseOptions) {
    this.collect = options.collect;
    this.checkMs = options.checkMs ?? DEFAULT_CHECK_MS;
    this.minGrowthBytes = options.minGrowthBytes ?? DEFAULT_MIN_GROWTH_BYTES;
    this.heapBytes = options.heapBytes ?? (() => v8.getHeapStatistics().total_heap_size);
    this.arm();
  }

  /** Whether the check's timer runs now (from start or an update to the first quiet check after it). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** A game sent an update: not quiet. On the hot path: sets a flag (and arms the timer when it is off). */
  touch(): void {
    this.active = true;
    if (this.timer === undefined) this.arm();
  }

  /** One check period is over; resolves once a release it started is done. A quiet period stops the timer. */
  async check(): Promise<void> {
    if (this.active) {
      this.active = false;
      return;
    }
    this.disarm();
    if (this.disposed || this.collecting || this.heapBytes() < this.baseline + this.minGrowthBytes) return;
    this.collecting = true;
    let done: boolean;
    try {
      done = await this.collect();
    } finally {
      this.collecting = false;
    }
    if (!done) {
      // No inspector in this node: nothing to try again.
      this.dispose();
      return;
    }
    this.baseline = this.heapBytes();
    this.releases += 1;
  }

  dispose(): void {
    this.disposed = true;
    this.disarm();
  }

  private arm(): void {
    if (this.disposed) return;
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  private disarm(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** What the release watches: the RPC server's activity changes (one per SET_ACTIVITY). */
export interface ActivitySource {
  on(event: 'activity', listener: () => void): unknown;
}

/** ...and the platform session's gateway dispatches (friends' presence, invites, relationships). */
export interface DispatchSource {
  on(event: 'dispatch', listener: () => void): unknown;
}

/**
 * `companion serve`: the heap is released whenever the games and the gateway go quiet, until
 * `closed`. On Node 22 and 24 serve runs without V8's memory reducer (collector-flags.ts), so
 * this is what shrinks the heap after any burst, games' or friends'.
 */
export function releaseHeapWhenIdle(sources: { readonly server: ActivitySource; readonly session: DispatchSource }, closed: Promise<void>): IdleHeapRelease {
  const release = new IdleHeapRelease({ collect: memoryReducingCollection });
  const touch = (): void => release.touch();
  sources.server.on('activity', touch);
  sources.session.on('dispatch', touch);
  void closed.then(() => release.dispose());
  return release;
}
