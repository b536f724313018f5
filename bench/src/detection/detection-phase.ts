/**
 * The `detection` phase (issue 30; output key `detection`, a table on stderr): Companion's game
 * scanner against arRPC's Linux scanner, on the same list and the same running processes.
 *
 * The list: a synthetic one of ~14.8 MB with the real one's shape, generated from a fixed seed
 * (synthetic-list.ts), the fixture applications planted in it. The processes: BENCH_DETECTION_PROCESSES
 * (500) started for the phase (fixture-processes.ts): the fixture cases issue 30 names (Proton and
 * Wine games, games that need arguments, a launcher, a basename without its arguments), games of
 * the list, and fillers; all killed at the end. Each scanner runs in a process of its own
 * (scanner-child.ts): one first scan, then BENCH_DETECTION_SCANS more, BENCH_DETECTION_PAUSE_MS
 * apart; CPU per scan is `process.cpuUsage()` around each. Rounds alternate which one goes first.
 *
 * arRPC: BENCH_ARRPC names a copy of it (see arrpc-peer.ts; only its `src/process/` is used, copied
 * into the bench's temp folder with the list as its `detectable.json`, so the copy is not changed).
 * Without it, Companion alone is measured and the phase reports an error.
 *
 * BENCH_DETECTION_SEED (30)  BENCH_DETECTION_PROCESSES (500)  BENCH_DETECTION_GAMES (20)
 * BENCH_DETECTION_SCANS (10)  BENCH_DETECTION_PAUSE_MS (200)  BENCH_DETECTION_ROUNDS (1)
 * Target: Companion's CPU per steady-state scan at most a tenth of arRPC's; detections the same or better.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PlatformBenchContext } from '../platform-phases.js';
import { envInt } from '../shared.js';
import { FIXTURES, Spawner, startFixtureProcesses, type FixtureCase } from './fixture-processes.js';
import type { ScannerResult } from './scanner-child.js';
import { syntheticList } from './synthetic-list.js';

type Peer = 'companion' | 'arrpc';

export const DETECTION_CONFIG = {
  seed: envInt('BENCH_DETECTION_SEED', 30),
  processes: envInt('BENCH_DETECTION_PROCESSES', 500),
  games: envInt('BENCH_DETECTION_GAMES', 20),
  scans: Math.max(1, envInt('BENCH_DETECTION_SCANS', 10)),
  pauseMs: envInt('BENCH_DETECTION_PAUSE_MS', 200),
  rounds: Math.max(1, envInt('BENCH_DETECTION_ROUNDS', 1)),
};

/** The problem with BENCH_ARRPC for this phase, or null. */
export function arrpcScannerProblem(dir: string): string | null {
  if (!existsSync(path.join(dir, 'src', 'process', 'index.js'))) return `BENCH_ARRPC=${dir}: no src/process/index.js there (see bench/src/arrpc-peer.ts for how to fetch arRPC)`;
  return null;
}

/** arRPC's src/process/ copied to `into`, with `listJson` as its detectable.json (an ES module folder). */
function copyArrpcScanner(arrpcDir: string, into: string, listJson: string): void {
  cpSync(path.join(arrpcDir, 'src', 'process'), into, { recursive: true, filter: (source) => path.basename(source) !== 'detectable.json' });
  writeFileSync(path.join(into, 'detectable.json'), listJson);
  writeFileSync(path.join(into, 'package.json'), '{"type":"module"}\n');
}

function runChild(ctx: PlatformBenchContext, args: readonly string[]): Promise<ScannerResult> {
  const script = path.join(ctx.here, 'detection', 'scanner-child.js');
  const argv = [script, ...args];
  const child = ctx.serverCpus === undefined ? spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn('taskset', ['-c', ctx.serverCpus, process.execPath, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`scanner child ${args[0] ?? ''} exited with ${String(code)}: ${err.trim().slice(0, 2000)}`));
      else resolve(JSON.parse(out) as ScannerResult);
    });
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** Per fixture case, whether a peer got it right; and what it detected that nothing expected. */
function detections(expected: readonly FixtureCase[], detected: readonly string[]) {
  const found = new Set(detected);
  const cases = expected.map((c) => ({ label: c.label, expected: c.expected, right: c.expected === null ? !FIXTURES.some((f) => f.label === c.label && found.has(f.app.id)) : found.has(c.expected) }));
  const expectedIds = new Set(expected.flatMap((c) => (c.expected === null ? [] : [c.expected])));
  return {
    expectedDetections: expectedIds.size,
    detected: detected.length,
    misses: cases.filter((c) => !c.right && c.expected !== null).map((c) => c.label),
    wrongDetections: [...cases.filter((c) => !c.right && c.expected === null).map((c) => c.label), ...detected.filter((id) => !expectedIds.has(id) && !FIXTURES.some((f) => f.app.id === id)).map((id) => `application ${id} (not running)`)],
  };
}

function summarize(results: readonly ScannerResult[], expected: readonly FixtureCase[]) {
  const steady = results.flatMap((r) => r.steadyCpuMs);
  const last = results.at(-1);
  return {
    loadCpuMs: round3(median(results.map((r) => r.loadCpuMs))),
    firstScanCpuMs: round3(median(results.map((r) => r.firstScanCpuMs))),
    firstScanWallMs: round3(median(results.map((r) => r.firstScanWallMs))),
    steadyScanCpuMs: { median: round3(median(steady)), min: round3(Math.min(...steady)), max: round3(Math.max(...steady)), scans: steady.length },
    steadyScanWallMsMedian: round3(median(results.flatMap((r) => r.steadyWallMs))),
    rssMiB: round3(median(results.map((r) => r.rssMiB))),
    firstScan: detections(expected, last?.detectedFirst ?? []),
    lastScan: detections(expected, last?.detectedLast ?? []),
  };
}

function table(out: Record<Peer, ReturnType<typeof summarize> | undefined>, ratio: number | null): string {
  const row = (label: string, pick: (s: ReturnType<typeof summarize>) => string): string =>
    `  ${label.padEnd(34)} ${(out.companion ? pick(out.companion) : '-').padStart(14)} ${(out.arrpc ? pick(out.arrpc) : '-').padStart(14)}`;
  return [
    `  ${''.padEnd(34)} ${'companion'.padStart(14)} ${'arRPC'.padStart(14)}`,
    row('CPU per scan, steady (median ms)', (s) => String(s.steadyScanCpuMs.median)),
    row('CPU, first scan (ms)', (s) => String(s.firstScanCpuMs)),
    row('CPU, loading the list (ms)', (s) => String(s.loadCpuMs)),
    row('RSS after the scans (MiB)', (s) => String(s.rssMiB)),
    row('fixture misses', (s) => String(s.firstScan.misses.length)),
    row('wrong detections', (s) => String(s.firstScan.wrongDetections.length)),
    `  ratio of CPU per steady scan: ${String(ratio)} (target <= 0.1)`,
  ].join('\n');
}

export async function detectionPhase(ctx: PlatformBenchContext, arrpcDir: string | null): Promise<Record<string, unknown>> {
  const config = DETECTION_CONFIG;
  const dir = path.join(ctx.tmpRoot, 'detection');
  mkdirSync(dir, { recursive: true });
  const list = syntheticList(config.seed, FIXTURES.map((f) => f.app));
  const listPath = path.join(dir, 'detectable.json');
  writeFileSync(listPath, list.json);
  ctx.progress(`detection: list of ${list.applications.length} applications, ${(list.json.length / 1e6).toFixed(1)} MB (seed ${config.seed})`);
  const arrpcCopy = path.join(dir, 'arrpc-process');
  if (arrpcDir !== null) copyArrpcScanner(arrpcDir, arrpcCopy, list.json);
  const spawner = new Spawner(path.join(dir, 'processes'));
  const results: Record<Peer, ScannerResult[]> = { companion: [], arrpc: [] };
  let running = 0;
  let started = 0;
  let expected: readonly FixtureCase[] = [];
  try {
    ({ expected } = await startFixtureProcesses(spawner, list.runnable, config.games, config.processes));
    running = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;
    started = spawner.count;
    ctx.progress(`detection: ${started} processes started (${running} running on the machine)`);
    const peers: Peer[] = arrpcDir === null ? ['companion'] : ['companion', 'arrpc'];
    for (let round = 0; round < config.rounds; round++) {
      for (const peer of round % 2 === 0 ? peers : [...peers].reverse()) {
        ctx.progress(`detection: round ${round + 1}, ${peer}: a first scan and ${config.scans} more`);
        const args = [peer, peer === 'companion' ? listPath : arrpcCopy, String(config.scans), String(config.pauseMs)];
        results[peer].push(await runChild(ctx, args));
      }
    }
  } finally {
    await spawner.killAll();
  }
  const out = {
    companion: results.companion.length > 0 ? summarize(results.companion, expected) : undefined,
    arrpc: results.arrpc.length > 0 ? summarize(results.arrpc, expected) : undefined,
  };
  const ratio = out.companion && out.arrpc ? Number((out.companion.steadyScanCpuMs.median / out.arrpc.steadyScanCpuMs.median).toPrecision(3)) : null;
  ctx.progress(`detection:\n${table(out, ratio)}`);
  const sameOrBetter = out.companion && out.arrpc ? out.companion.firstScan.misses.length <= out.arrpc.firstScan.misses.length && out.companion.firstScan.wrongDetections.length <= out.arrpc.firstScan.wrongDetections.length : null;
  return {
    config: { ...config, listBytes: list.json.length, applications: list.applications.length, processesStarted: started, processesRunning: running },
    ...out,
    cpuPerSteadyScanRatio: ratio,
    targets: {
      cpuPerScanAtMostATenth: { ratio, pass: ratio !== null && ratio <= 0.1 },
      detectionsSameOrBetter: { pass: sameOrBetter },
      companionNoMisses: { pass: out.companion !== undefined && out.companion.firstScan.misses.length === 0 && out.companion.firstScan.wrongDetections.length === 0 },
    },
  };
}
