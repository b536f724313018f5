import { performance } from 'node:perf_hooks';
import { Bystander, type BystanderReport } from './bystander.js';
import { fuzzFrame } from './fuzz-frames.js';
import { FuzzTally, type Finding, type FindingKind } from './fuzz-tally.js';
import { discoverTargets } from './fuzz-targets.js';
import { FuzzWorker } from './fuzz-worker.js';

export interface FuzzRunOptions {
  /** The host's discord-ipc socket. */
  readonly socketPath: string;
  /** The platform's base URL, to redeem an AUTHORIZE code for a token; null: no authenticated connections. */
  readonly platformUrl: string | null;
  /** The application the fuzz connects as (the host's consent policy must approve its AUTHORIZE). */
  readonly clientId: string;
  readonly frames: number;
  readonly seed: number;
  /** Fuzz connections sending at once (default 6). */
  readonly concurrency?: number;
  /** An answer slower than this is a hang (default 10 s). */
  readonly replyTimeoutMs?: number;
  /** The bystander's reply bound (default 500 ms). */
  readonly bystanderBoundMs?: number;
  /** The host's RSS now, in MiB (sampled every 250 ms). */
  readonly rssMiB: () => number;
  readonly progress?: (line: string) => void;
}

export interface FuzzReport {
  readonly seed: number;
  readonly frames: number;
  readonly durationS: number;
  readonly framesPerSec: number;
  /** ERROR codes (1000 by message) and `ok` for success replies. */
  readonly replies: Readonly<Record<string, number>>;
  /** CLOSE frames by code and message (client text left out). */
  readonly closes: Readonly<Record<string, number>>;
  readonly protocolViolations: number;
  readonly pongs: number;
  readonly handshakesReady: number;
  readonly endedAsExpected: number;
  readonly internalErrors: number;
  readonly findings: number;
  readonly findingCounts: Readonly<Partial<Record<FindingKind, number>>>;
  readonly examples: readonly Finding[];
  readonly bystander: BystanderReport;
  readonly rssMiB: { readonly start: number; readonly peak: number; readonly end: number };
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** Samples the host's RSS until stopped. */
class RssSampler {
  readonly start: number;
  peak: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly read: () => number) {
    this.start = read();
    this.peak = this.start;
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, this.read())), 250);
  }

  stop(): { start: number; peak: number; end: number } {
    clearInterval(this.timer);
    const end = this.read();
    return { start: round(this.start), peak: round(Math.max(this.peak, end)), end: round(end) };
  }
}

/**
 * Sends `frames` generated frames (fuzz-frames.ts) to a running host over its IPC socket, a
 * bystander game beside them, and reports every answer: counts by code, and findings (an
 * internal error, a hang, a close where the connection should stay) with the seed and frame
 * index that reproduce them.
 */
export async function runFuzz(options: FuzzRunOptions): Promise<FuzzReport> {
  const targets = await discoverTargets(options.socketPath, options.clientId, options.platformUrl);
  const tally = new FuzzTally(() => (targets.accessToken === null ? [] : [targets.accessToken]));
  const bystander = new Bystander(options.socketPath, options.clientId, options.bystanderBoundMs ?? 500);
  const rss = new RssSampler(options.rssMiB);
  const t0 = performance.now();
  bystander.start();
  let next = 0;
  let reported = 0;
  const every = Math.max(1000, Math.round(options.frames / 20));
  const work = async (worker: FuzzWorker): Promise<void> => {
    try {
      for (let index = next++; index < options.frames; index = next++) {
        const frame = fuzzFrame(options.seed, index, targets);
        try {
          tally.record(frame, await worker.send(frame));
        } catch (error) {
          tally.note('setup', error instanceof Error ? error.message : String(error), frame);
          worker.close();
        }
        if (tally.frames - reported >= every) {
          reported = tally.frames;
          options.progress?.(`fuzz: ${tally.frames}/${options.frames} frames, ${Math.round(tally.frames / ((performance.now() - t0) / 1000))}/s, ${tally.findings} findings`);
        }
      }
    } finally {
      worker.close();
    }
  };
  const workers = Array.from({ length: options.concurrency ?? 6 }, () => new FuzzWorker(options.socketPath, targets, tally, options.replyTimeoutMs ?? 10_000));
  await Promise.all(workers.map(work));
  const durationS = (performance.now() - t0) / 1000;
  const bystanderReport = await bystander.stop();
  for (const failure of bystanderReport.failures) tally.note('bystander', failure);
  return {
    seed: options.seed,
    frames: tally.frames,
    durationS: round(durationS),
    framesPerSec: Math.round(tally.frames / durationS),
    replies: tally.replies,
    closes: tally.closes,
    protocolViolations: tally.protocolViolations,
    pongs: tally.pongs,
    handshakesReady: tally.handshakesReady,
    endedAsExpected: tally.ended,
    internalErrors: tally.internalErrors,
    findings: tally.findings,
    findingCounts: tally.findingCounts,
    examples: tally.examples,
    bystander: bystanderReport,
    rssMiB: rss.stop(),
  };
}
