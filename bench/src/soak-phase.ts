/**
 * The `soak` phase (output key `soak`): memory and fd drift of `companion serve` over a long
 * run of steady churn (soak-churn.ts: games connecting, SET_ACTIVITY at a steady rate,
 * leaving cleanly or not). Not in the default phase list: `npm run bench -- soak --duration N`
 * or BENCH_PHASES=soak BENCH_SOAK_S=N.
 *
 * The host's RSS (/proc/<pid>/status VmRSS) and open fds (/proc/<pid>/fd) are read every
 * sampleMs. After the first warmupS of churn (heap growing to its working size, code
 * optimised), a least-squares line through the readings gives the drift per hour; fds are
 * counted beside the games connected at that moment (each holds one socket in the host).
 * It drifted when a slope is above its threshold. The slope over the second half of the
 * measured readings is reported too: growth that is settling flattens there, a leak does not.
 * RSS also climbs while V8 lets garbage (and the Buffers it holds) pile up between full
 * collections, which over minutes looks like a leak: BENCH_SOAK_HEAP=1 tells the two apart.
 * Idle readings before and after the churn (6 s without clients, longer than the embedded
 * emulator's keep-alive) tell what stays behind once every game has gone.
 *
 * Once the churn ends, RSS is read at once ("end of load") and then every few seconds for
 * BENCH_SOAK_IDLE_S (120) without any client: what the host gives back once the load is over
 * (target: within SOAK_RECOVERY_MAX_MIB of its idle figure before the churn).
 *
 * BENCH_SOAK_HEAP=1 starts the host with --inspect on a loopback port and, at every reading,
 * forces a full garbage collection and reads the JS heap still in use (inspector-heap.ts):
 * a leak of objects climbs there, while garbage V8 has not collected yet does not. RSS is
 * then read right after that collection, so it no longer shows the host's own GC rhythm.
 *
 * BENCH_SOAK_S (600) / --duration: the whole churn, warm-up included
 * BENCH_SOAK_WARMUP_S (duration / 6, at most 60)  BENCH_SOAK_SAMPLE_MS (duration / 30, 1000-5000)
 * BENCH_SOAK_GAMES (8)  BENCH_SOAK_RATE (50 SET_ACTIVITY/s over all games)  BENCH_SOAK_SESSION_MS (3000, ±50%)
 * BENCH_SOAK_HEAP (0)  BENCH_SOAK_IDLE_S (120)
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { freeLoopbackPort, InspectorHeap } from './inspector-heap.js';
import { leastSquaresSlope } from './least-squares-slope.js';
import { startHost, type PlatformBenchContext } from './platform-phases.js';
import { cpuSample, memorySample, round2 } from './proc.js';
import type { ServerProcess } from './servers.js';
import { emptyTally, runChurn } from './soak-churn.js';
import { envInt } from './shared.js';

export const SOAK_THRESHOLDS = { rssMiBPerHour: 10, fdsPerHour: 5, heapAfterGcMiBPerHour: 5 };
const IDLE_SETTLE_MS = 6000;
/** After the load, RSS must come back within this much of the idle figure before it. */
export const SOAK_RECOVERY_MAX_MIB = 15;
const RECOVERY_SAMPLE_MS = 5000;
const MS_PER_HOUR = 3_600_000;

export interface SoakConfig {
  readonly durationS: number;
  readonly warmupS: number;
  readonly sampleMs: number;
  readonly games: number;
  readonly requestsPerSec: number;
  readonly sessionMs: number;
  /** Read the JS heap after a forced full GC at every reading (BENCH_SOAK_HEAP=1). */
  readonly heap: boolean;
  /** How long RSS is followed after the load, without clients. */
  readonly idleS: number;
}

export function soakConfig(durationS: number): SoakConfig {
  return {
    durationS,
    warmupS: envInt('BENCH_SOAK_WARMUP_S', Math.min(60, Math.round(durationS / 6))),
    sampleMs: envInt('BENCH_SOAK_SAMPLE_MS', Math.min(5000, Math.max(1000, Math.round((durationS * 1000) / 30)))),
    games: Math.max(1, envInt('BENCH_SOAK_GAMES', 8)),
    requestsPerSec: Math.max(1, envInt('BENCH_SOAK_RATE', 50)),
    sessionMs: envInt('BENCH_SOAK_SESSION_MS', 3000),
    heap: process.env.BENCH_SOAK_HEAP === '1',
    idleS: envInt('BENCH_SOAK_IDLE_S', 120),
  };
}

interface Reading {
  /** Seconds since the churn started. */
  readonly t: number;
  readonly rssMiB: number;
  readonly fds: number;
  /** fds minus the games connected at that moment. */
  readonly fdsBesideGames: number;
  /** JS heap in use after a full GC (BENCH_SOAK_HEAP=1), else NaN. */
  readonly heapMiB: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const fdCount = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** The heap after a full GC first (when measured), so that RSS is read after that GC too. */
async function readHost(pid: number, heap: InspectorHeap | undefined): Promise<{ rssMiB: number; fds: number; heapMiB: number }> {
  const heapMiB = heap === undefined ? NaN : round2(await heap.usedAfterGcMiB());
  return { heapMiB, rssMiB: memorySample(pid).rssMiB, fds: fdCount(pid) };
}

/** The least-squares slope of `value` over `readings`, per hour (null when there are too few). */
function perHour(readings: readonly Reading[], value: (reading: Reading) => number): number | null {
  const slope = leastSquaresSlope(readings.map((r) => [r.t * 1000, value(r)]));
  return Number.isFinite(slope) ? round2(slope * MS_PER_HOUR) : null;
}

/** At most `max` readings, evenly spread, the last included: enough to see the shape. */
function thinned(readings: readonly Reading[], max: number, withHeap: boolean): number[][] {
  const step = Math.max(1, Math.ceil(readings.length / max));
  const kept = readings.filter((_, i) => i % step === 0 || i === readings.length - 1);
  return kept.map((r) => [Math.round(r.t), r.rssMiB, r.fds, ...(withHeap ? [r.heapMiB] : [])]);
}

/** RSS every RECOVERY_SAMPLE_MS for `idleS` after the load ([seconds after the load, MiB]), the last at `idleS`. */
async function followIdleRss(host: ServerProcess, idleS: number): Promise<[number, number][]> {
  const t0 = performance.now();
  const series: [number, number][] = [];
  for (let at = Math.min(RECOVERY_SAMPLE_MS, idleS * 1000); at <= idleS * 1000; at = Math.min(at + RECOVERY_SAMPLE_MS, idleS * 1000)) {
    await sleep(t0 + at - performance.now());
    if (!host.alive) throw new Error(`the host exited after the soak's load: ${JSON.stringify(host.exit)}`);
    series.push([Math.round(at / 1000), memorySample(host.pid).rssMiB]);
    if (at === idleS * 1000) break;
  }
  return series;
}

export async function soakPhase(ctx: PlatformBenchContext, config: SoakConfig): Promise<Record<string, unknown>> {
  const inspectPort = config.heap ? await freeLoopbackPort() : undefined;
  const host: ServerProcess = await startHost(ctx, 'soak', [], inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]);
  let heap: InspectorHeap | undefined;
  try {
    if (inspectPort !== undefined) heap = await InspectorHeap.connect(inspectPort);
    ctx.progress(`soak: host pid ${host.pid}; ${config.durationS} s of churn (${config.games} games, ${config.requestsPerSec} SET_ACTIVITY/s), first ${config.warmupS} s warm-up`);
    await sleep(IDLE_SETTLE_MS);
    const idleBefore = await readHost(host.pid, heap);
    const tally = emptyTally();
    const t0 = performance.now();
    const untilMs = t0 + config.durationS * 1000;
    const churn = runChurn({ socketPath: host.socketPath, games: config.games, requestsPerSec: config.requestsPerSec, sessionMs: config.sessionMs, untilMs }, tally);
    const readings: Reading[] = [];
    let cpuAtWarmup: { ms: number; at: number } | undefined;
    let nextProgress = t0 + 60_000;
    // Readings stop short of the end: the slots leave then, and the host sees them go a moment later.
    for (let next = t0 + config.sampleMs; next < untilMs; next += config.sampleMs) {
      await sleep(next - performance.now());
      if (!host.alive) throw new Error(`the host exited during the soak: ${JSON.stringify(host.exit)}`);
      const t = (performance.now() - t0) / 1000;
      const open = tally.open;
      const reading = await readHost(host.pid, heap);
      readings.push({ t, ...reading, fdsBesideGames: reading.fds - open });
      const fds = reading.fds;
      if (cpuAtWarmup === undefined && t >= config.warmupS) cpuAtWarmup = { ms: cpuSample(host.pid).ms, at: performance.now() };
      if (performance.now() >= nextProgress) {
        nextProgress += 60_000;
        ctx.progress(`soak: ${Math.round(t)}/${config.durationS} s, RSS ${readings.at(-1)?.rssMiB} MiB, ${fds} fds, ${tally.requests} requests, ${tally.connections} connections`);
      }
    }
    await churn;
    const cpuEnd = { ms: cpuSample(host.pid).ms, at: performance.now() };
    const endOfLoad = memorySample(host.pid).rssMiB;
    ctx.progress(`soak: load over, RSS ${endOfLoad} MiB; following it for ${config.idleS} s without clients`);
    const recovery = await followIdleRss(host, config.idleS);
    const idleAfter = await readHost(host.pid, heap);
    const later = recovery.at(-1)?.[1] ?? endOfLoad;
    ctx.progress(`soak: RSS idle before ${idleBefore.rssMiB} MiB, at the end of load ${endOfLoad} MiB, ${config.idleS} s later ${later} MiB`);

    const measured = readings.filter((r) => r.t >= config.warmupS);
    const secondHalf = measured.slice(Math.floor(measured.length / 2));
    const rssPerHour = perHour(measured, (r) => r.rssMiB);
    const fdsPerHour = perHour(measured, (r) => r.fdsBesideGames);
    const driftedRss = rssPerHour !== null && rssPerHour > SOAK_THRESHOLDS.rssMiBPerHour;
    const driftedFds = fdsPerHour !== null && fdsPerHour > SOAK_THRESHOLDS.fdsPerHour;
    const heapPerHour = heap === undefined ? null : perHour(measured, (r) => r.heapMiB);
    const driftedHeap = heapPerHour !== null && heapPerHour > SOAK_THRESHOLDS.heapAfterGcMiBPerHour;
    const first = measured[0];
    const last = measured.at(-1);
    heap?.close();
    const stopped = await host.stop();
    return {
      durationS: config.durationS,
      warmupS: config.warmupS,
      sampleEveryS: config.sampleMs / 1000,
      samples: measured.length,
      load: { games: config.games, targetRequestsPerSec: config.requestsPerSec, sessionS: config.sessionMs / 1000 },
      requests: tally.requests,
      replies: tally.replies,
      errorReplies: tally.errorReplies,
      unanswered: tally.unanswered,
      connectionsCycled: tally.connections,
      connectFailures: tally.connectFailures,
      firstProblem: tally.firstProblem ?? undefined,
      hostCpuCores: cpuAtWarmup === undefined ? null : round2((cpuEnd.ms - cpuAtWarmup.ms) / (cpuEnd.at - cpuAtWarmup.at)),
      rssMiB: {
        idleBefore: idleBefore.rssMiB,
        start: first?.rssMiB ?? null,
        end: last?.rssMiB ?? null,
        max: measured.length > 0 ? Math.max(...measured.map((r) => r.rssMiB)) : null,
        idleAfter: idleAfter.rssMiB,
        endOfLoad,
        idleLater: later,
      },
      rssRecovery: {
        note: `RSS read as the load ended, then every ${RECOVERY_SAMPLE_MS / 1000} s for ${config.idleS} s without clients (no forced GC); target: back within ${SOAK_RECOVERY_MAX_MIB} MiB of idleBefore`,
        idleBeforeMiB: idleBefore.rssMiB,
        endOfLoadMiB: endOfLoad,
        laterMiB: later,
        laterS: config.idleS,
        aboveIdleMiB: round2(later - idleBefore.rssMiB),
        pass: later - idleBefore.rssMiB <= SOAK_RECOVERY_MAX_MIB,
        series: recovery,
      },
      heapAfterGcMiB:
        heap === undefined
          ? undefined
          : {
              idleBefore: idleBefore.heapMiB,
              start: first?.heapMiB ?? null,
              end: last?.heapMiB ?? null,
              max: measured.length > 0 ? Math.max(...measured.map((r) => r.heapMiB)) : null,
              idleAfter: idleAfter.heapMiB,
            },
      fds: {
        idleBefore: idleBefore.fds,
        start: first?.fds ?? null,
        end: last?.fds ?? null,
        max: measured.length > 0 ? Math.max(...measured.map((r) => r.fds)) : null,
        idleAfter: idleAfter.fds,
      },
      rssMiBPerHour: rssPerHour,
      rssMiBPerHourSecondHalf: perHour(secondHalf, (r) => r.rssMiB),
      fdsPerHour,
      fdsPerHourSecondHalf: perHour(secondHalf, (r) => r.fdsBesideGames),
      heapAfterGcMiBPerHour: heap === undefined ? undefined : heapPerHour,
      heapAfterGcMiBPerHourSecondHalf: heap === undefined ? undefined : perHour(secondHalf, (r) => r.heapMiB),
      thresholds: SOAK_THRESHOLDS,
      drifted: driftedRss || driftedFds || driftedHeap,
      driftedRss,
      driftedFds,
      driftedHeap: heap === undefined ? undefined : driftedHeap,
      rssReadAfterForcedGc: heap !== undefined,
      series: { columns: ['s', 'rssMiB', 'fds', ...(heap === undefined ? [] : ['heapAfterGcMiB'])], rows: thinned(readings, 24, heap !== undefined) },
      hostShutdown: { code: stopped.code, signal: stopped.signal, killed: stopped.killed },
      note: 'slopes: least squares over the readings after warm-up (and over their second half); fds counted beside the games connected at each reading; drifted: a slope over the whole measured window above its threshold. RSS also climbs with garbage not yet collected: BENCH_SOAK_HEAP=1 reads the heap after a forced full GC',
    };
  } finally {
    heap?.close();
    await host.stop().catch(() => undefined);
  }
}
