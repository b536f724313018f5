import { EventEmitter } from 'node:events';
import type { DetectableApplication, DetectableOs } from '../../../../platform/src/wire/index.js';
import { DetectableIndex, detectableOsOf, type DetectableMatch, type DetectionExplanation } from './detectable-index.js';
import type { ProcessScan, ProcessSource, ScannedProcess } from './process-source.js';

/**
 * Games running on this machine, found by scanning the processes against the platform's list of
 * detectable applications. One game running in several processes is one game; it ends when its
 * last process exits. The timer runs only while the detector is started and has a list: with
 * detection off, nothing here wakes the process.
 */

/** A game detected running. */
export interface DetectedGame {
  readonly applicationId: string;
  readonly name: string;
  /** The name of the list's executable entry that matched (lower-case with `/`, `>` included). */
  readonly executable: string;
  /** The matched path of the process (lower-case, `/` separators). */
  readonly path: string;
  /** The game's oldest process still running. */
  readonly pid: number;
  /** All its processes. */
  readonly pids: readonly number[];
  /** When it was first seen running (ms since the epoch). */
  readonly startedAt: number;
}

export interface GameDetectorOptions {
  readonly source: ProcessSource;
  /** Between the end of a scan and the start of the next, ms (DEFAULT_SCAN_INTERVAL_MS). */
  readonly interval?: number;
  readonly clock?: () => number;
  /** The OS whose entries are matched (default: this one's; on Linux, Wine games match `win32` entries too). */
  readonly os?: DetectableOs;
  /** A scan failed (the next one is still scheduled). */
  readonly onError?: (error: unknown) => void;
}

/**
 * 5 s: a game's start and end show within 5 s; a steady-state scan costs about a millisecond,
 * so the interval is set by the wake-ups of an idle host, not by the CPU (docs/performance.md,
 * "Game detection").
 */
export const DEFAULT_SCAN_INTERVAL_MS = 5000;

type GameListener = (game: DetectedGame) => void;

/** One game's processes, by PID, in the order they were seen. */
class RunningGame {
  readonly processes = new Map<number, DetectableMatch>();
  /** The last process removed: what an ended game reports. */
  private last: readonly [number, DetectableMatch] | undefined;

  constructor(
    readonly applicationId: string,
    readonly name: string,
    readonly startedAt: number,
  ) {}

  remove(pid: number): void {
    const match = this.processes.get(pid);
    if (match === undefined) return;
    this.processes.delete(pid);
    this.last = [pid, match];
  }

  snapshot(): DetectedGame {
    const first = this.processes.entries().next();
    const [pid, match] = first.done === true ? (this.last ?? [0, undefined]) : first.value;
    return {
      applicationId: this.applicationId,
      name: this.name,
      executable: match?.executable.name ?? '',
      path: match?.path ?? '',
      pid,
      pids: [...this.processes.keys()],
      startedAt: this.startedAt,
    };
  }
}

export class GameDetector {
  private readonly source: ProcessSource;
  private readonly interval: number;
  private readonly clock: () => number;
  private readonly os: DetectableOs;
  private readonly onError: (error: unknown) => void;
  private readonly events = new EventEmitter();
  private index: DetectableIndex | null = null;
  private readonly games = new Map<string, RunningGame>();
  private readonly gameOfPid = new Map<number, RunningGame>();
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  /** Bumped by a new list and by stop(): a scan begun before is not applied. */
  private epoch = 0;

  constructor(options: GameDetectorOptions) {
    this.source = options.source;
    this.interval = options.interval ?? DEFAULT_SCAN_INTERVAL_MS;
    this.clock = options.clock ?? Date.now;
    this.os = options.os ?? detectableOsOf(process.platform) ?? 'linux';
    this.onError = options.onError ?? (() => undefined);
  }

  on(event: 'start' | 'end', listener: GameListener): this {
    this.events.on(event, listener);
    return this;
  }

  off(event: 'start' | 'end', listener: GameListener): this {
    this.events.off(event, listener);
    return this;
  }

  /** The list to match against (built into an index once); every running process is matched again at the next scan. */
  setList(applications: readonly DetectableApplication[]): void {
    this.index = new DetectableIndex(applications, this.os);
    this.invalidate();
    if (this.started) this.arm(0);
  }

  /** Scans now and then every interval, once there is a list. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.arm(0);
  }

  /** No more scans; every running game ends ('end' events). */
  stop(): void {
    this.started = false;
    this.disarm();
    this.invalidate();
    const ended = [...this.games.values()].map((game) => game.snapshot());
    this.games.clear();
    this.gameOfPid.clear();
    for (const game of ended) this.emit('end', game);
  }

  /** One scan now (sharing the one under way, if any); resolves when its changes were applied. */
  scanOnce(): Promise<void> {
    this.scanning ??= this.runScan().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  running(): DetectedGame[] {
    return [...this.games.values()].map((game) => game.snapshot());
  }

  /** Every running process, read now (for "Add it" and `companion doctor`). */
  processes(): Promise<readonly ScannedProcess[]> {
    return this.source.snapshot();
  }

  /** Why `process` is detected or not; null before there is a list. */
  explain(process: ScannedProcess): DetectionExplanation | null {
    return this.index?.explain(process) ?? null;
  }

  /** Every listener is called; one that throws is reported to onError and stops nothing. */
  private emit(event: 'start' | 'end', game: DetectedGame): void {
    for (const listener of this.events.listeners(event) as GameListener[]) {
      try {
        listener(game);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private invalidate(): void {
    this.epoch++;
    if (this.scanning === undefined) this.source.forget();
  }

  private arm(ms: number): void {
    this.disarm();
    if (!this.started || this.index === null) return;
    this.timer = setTimeout(() => void this.tick(), ms);
    // The detector alone must not keep a process alive.
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    await this.scanOnce();
    if (this.timer === undefined) this.arm(this.interval);
  }

  private async runScan(): Promise<void> {
    const index = this.index;
    if (index === null) return;
    const epoch = this.epoch;
    let scan: ProcessScan;
    try {
      scan = await this.source.scan();
    } catch (error) {
      this.onError(error);
      return;
    }
    if (epoch !== this.epoch) {
      // The list changed or detection stopped meanwhile: start again from a complete scan, now.
      this.source.forget();
      this.arm(0);
      return;
    }
    this.apply(scan, index);
  }

  private apply(scan: ProcessScan, index: DetectableIndex): void {
    const touched = new Set<RunningGame>();
    const started: RunningGame[] = [];
    for (const pid of scan.gone) this.detach(pid, touched);
    for (const process of scan.processes) {
      const match = index.match(process);
      if (match === null) this.detach(process.pid, touched);
      else this.attach(process, match, touched, started);
    }
    if (scan.complete) {
      const listed = new Set(scan.processes.map((process) => process.pid));
      for (const pid of [...this.gameOfPid.keys()]) if (!listed.has(pid)) this.detach(pid, touched);
    }
    for (const game of touched) {
      if (game.processes.size > 0) continue;
      this.games.delete(game.applicationId);
      if (!started.includes(game)) this.emit('end', game.snapshot());
    }
    for (const game of started) if (game.processes.size > 0) this.emit('start', game.snapshot());
  }

  private attach(process: ScannedProcess, match: DetectableMatch, touched: Set<RunningGame>, started: RunningGame[]): void {
    const pid = process.pid;
    const current = this.gameOfPid.get(pid);
    if (current?.applicationId === match.application.id) {
      current.processes.set(pid, match);
      return;
    }
    if (current !== undefined) this.detach(pid, touched);
    let game = this.games.get(match.application.id);
    if (game === undefined) {
      const now = this.clock();
      game = new RunningGame(match.application.id, match.application.name, Math.min(process.startedAt ?? now, now));
      this.games.set(game.applicationId, game);
      started.push(game);
    }
    game.processes.set(pid, match);
    this.gameOfPid.set(pid, game);
  }

  private detach(pid: number, touched: Set<RunningGame>): void {
    const game = this.gameOfPid.get(pid);
    if (game === undefined) return;
    this.gameOfPid.delete(pid);
    game.remove(pid);
    touched.add(game);
  }
}
