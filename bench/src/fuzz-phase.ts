/**
 * The `fuzz` phase (output key `fuzz`): the fuzz engine of the bounded test
 * (main/src/tools/fuzz) at any scale, against a real `companion serve --consent approve`
 * child (embedded emulator, its own temp dirs). Not in the default phase list:
 * `npm run bench -- fuzz --frames N [--seed S]`, or BENCH_PHASES=fuzz BENCH_FUZZ_FRAMES=N.
 *
 * Reports frames sent and frames/s, replies by code, closes by code and message, protocol
 * violations, the bystander game's reply latency, the host's RSS (start, peak, end, from
 * /proc), every finding (internal error, hang, close where the connection stays...) with the
 * seed and frame index that reproduce it, and the host's log lines at error level or above
 * (its stderr JSON lines, level >= 50), counted with the first examples.
 *
 * BENCH_FUZZ_FRAMES (20000) / --frames  BENCH_FUZZ_SEED (random) / --seed  BENCH_FUZZ_CONCURRENCY (6)
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { runFuzz } from '../../main/src/tools/fuzz/fuzz-run.js';
import { randomSeed } from '../../main/src/tools/fuzz/seeded-random.js';
import { startHost, type PlatformBenchContext } from './platform-phases.js';
import { memorySample } from './proc.js';
import { envInt } from './shared.js';

/** The application every emulator is seeded with. */
const DEMO_APP_ID = '1234567890123456789';

export interface FuzzConfig {
  readonly frames: number;
  readonly seed: number;
  readonly concurrency: number;
}

export function fuzzConfig(frames: number | undefined, seed: number | undefined): FuzzConfig {
  return {
    frames: frames ?? envInt('BENCH_FUZZ_FRAMES', 20_000),
    seed: seed ?? (process.env.BENCH_FUZZ_SEED === undefined ? randomSeed() : Number(process.env.BENCH_FUZZ_SEED)),
    concurrency: Math.max(1, envInt('BENCH_FUZZ_CONCURRENCY', 6)),
  };
}

interface LogSummary {
  readonly lines: number;
  readonly byLevel: Record<string, number>;
  readonly errorLines: number;
  readonly errorExamples: readonly unknown[];
  /** Warnings grouped by message, the most frequent first. */
  readonly warnings: Readonly<Record<string, number>>;
}

/** The host's JSON log lines (stdout's plain lines are skipped), read as a stream: a long run's log is large. */
async function summarizeLog(file: string): Promise<LogSummary> {
  const byLevel: Record<string, number> = {};
  const warnings: Record<string, number> = {};
  const errorExamples: unknown[] = [];
  let lines = 0;
  for await (const text of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    let record: { level?: unknown; msg?: unknown };
    try {
      record = JSON.parse(text) as { level?: unknown; msg?: unknown };
    } catch {
      continue;
    }
    if (typeof record.level !== 'number') continue;
    lines += 1;
    byLevel[String(record.level)] = (byLevel[String(record.level)] ?? 0) + 1;
    if (record.level >= 50 && errorExamples.length < 5) errorExamples.push(record);
    if (record.level === 40) warnings[String(record.msg)] = (warnings[String(record.msg)] ?? 0) + 1;
  }
  const errorLines = Object.entries(byLevel).reduce((sum, [level, n]) => (Number(level) >= 50 ? sum + n : sum), 0);
  const sorted = Object.fromEntries(Object.entries(warnings).sort((a, b) => b[1] - a[1]).slice(0, 20));
  return { lines, byLevel, errorLines, errorExamples, warnings: sorted };
}

async function platformUrlOf(socketPath: string): Promise<string> {
  const info = JSON.parse(await readFile(path.join(path.dirname(socketPath), 'companion', 'host.json'), 'utf8')) as { platform?: { url?: unknown } };
  if (typeof info.platform?.url !== 'string') throw new Error("host.json names no platform URL");
  return info.platform.url;
}

export async function fuzzPhase(ctx: PlatformBenchContext, config: FuzzConfig): Promise<Record<string, unknown>> {
  const host = await startHost(ctx, 'fuzz', ['--consent', 'approve']);
  try {
    ctx.progress(`fuzz: host pid ${host.pid}; ${config.frames} frames, seed ${config.seed} (repeat with --seed ${config.seed}), ${config.concurrency} connections`);
    const report = await runFuzz({
      socketPath: host.socketPath,
      platformUrl: await platformUrlOf(host.socketPath),
      clientId: DEMO_APP_ID,
      frames: config.frames,
      seed: config.seed,
      concurrency: config.concurrency,
      rssMiB: () => memorySample(host.pid).rssMiB,
      progress: ctx.progress,
    });
    const alive = host.alive;
    const stopped = await host.stop();
    const log = await summarizeLog(host.logFile);
    return {
      command: `npm run bench -- fuzz --frames ${config.frames} --seed ${config.seed}`,
      ...report,
      hostAliveAtEnd: alive,
      hostLog: log,
      hostShutdown: { code: stopped.code, signal: stopped.signal, killed: stopped.killed },
      pass: report.findings === 0 && log.errorLines === 0 && alive,
    };
  } finally {
    await host.stop().catch(() => undefined);
  }
}
