/**
 * `npm run bench`: Companion's RPC server against a bare baseline over the same framing,
 * measured side by side in one run. Prints one JSON object on stdout; progress on stderr.
 * Linux only (server CPU and memory come from /proc).
 *
 * Environment knobs (all optional):
 *   BENCH_DURATION_MS (3000)  BENCH_WARMUP_MS (500)  BENCH_ROUNDS (3)
 *   BENCH_HANDSHAKES (500)    BENCH_RTT_SAMPLES (5000)  BENCH_CONNECTIONS (1000)
 *   BENCH_CLIENTS ("1,10,100,500")  BENCH_PIPELINE ("10x128")
 *   BENCH_CPU_PROF=<dir>      run both server children under --cpu-prof (<dir>/baseline, <dir>/companion);
 *                             summarise with node out/bench/src/profile-summary.js <file>
 *   BENCH_SERVER_NODE_FLAGS="--perf-basic-prof"  extra node flags for both server children
 *   BENCH_BASELINE=echo-activity  diagnostic: the baseline replies with data = the activity sent
 *   BENCH_PIN=0               do not pin servers / load generator to separate CPUs
 *   BENCH_PHASES (rss,latency,closed,pipelined,record,presence,fanout,embedded-rss,ui-inspector,ui-consent,ui-bridge,arrpc)  a subset, for quick iterations
 *   record        recording overhead (bench/src/record-phase.ts, output key `record`): closed-loop SET_ACTIVITY
 *                 on `companion serve --record FILE` vs `companion serve`, BENCH_ROUNDS rounds; bytes per frame
 *                 BENCH_RECORD_CLIENTS (100)  BENCH_RECORD_ROUNDS (5, or BENCH_ROUNDS when higher)
 *   Platform phases (bench/src/platform-phases.ts, output key `platform`):
 *     presence      SET_ACTIVITY on a host to a friend's gateway PRESENCE_UPDATE, real rate limits
 *                   BENCH_PRESENCE_HOSTS (8, max 9)  BENCH_PRESENCE_MS (50000)  BENCH_PRESENCE_PERIOD_MS (4200)
 *     fanout        one op 3 to the last of 199 PRESENCE_UPDATEs, 200 gateway sessions
 *                   BENCH_FANOUT_USERS (200)  BENCH_FANOUT_BROADCASTERS (20)  BENCH_FANOUT_MS (30000)
 *     embedded-rss  idle RSS of `companion serve` (embedded emulator) vs `--platform <external>`
 *                   BENCH_IDLE_REPEATS (5)  BENCH_IDLE_SETTLE_MS (5000)
 *     lobby-fanout  a lobby message to each member's LOBBY_MESSAGE_CREATE, and emulator CPU per delivery
 *                   (bench/src/lobby-phase.ts)  BENCH_LOBBY_MEMBERS (100)  BENCH_LOBBY_MESSAGES (200)  BENCH_LOBBY_RATE (20)
 *   UI phases (bench/src/ui-phases.ts, output key `ui`): `companion serve`'s web UI in headless Chromium
 *   (Playwright; CHROMIUM_PATH, default /usr/bin/chromium; builds out/renderer if missing)
 *     ui-inspector  rendered fps (rAF per 1 s), long tasks, frames received and JS heap of the page at
 *                   #inspector while games send BENCH_UI_FRAMES_PER_SEC (5000) frames/s; host CPU
 *                   BENCH_UI_INSPECTOR_MS (10000)  BENCH_UI_WARMUP_MS (3000)  BENCH_UI_BASELINE_MS (5000)  BENCH_UI_CLIENTS (5)
 *     ui-consent    AUTHORIZE written → consent prompt in the page's DOM, dismissed, repeated
 *                   BENCH_UI_CONSENT_SAMPLES (30)
 *   registration  not in the default list: 10,000 handshakes with distinct client ids on `companion serve`; state file
 *                 sizes and host RSS at idle, at the peak and a minute after (bench/src/registration-phase.ts, key `registration`)
 *   arrpc         Companion against arRPC (github.com/OpenAsar/arrpc), run when BENCH_ARRPC names a copy of it fetched by hand
 *                 outside the repository (bench/src/arrpc-phase.ts, output key `arrpc`, a table on stderr):
 *                   git clone --depth 1 https://github.com/OpenAsar/arrpc /tmp/arrpc
 *                   echo '[]' > /tmp/arrpc/src/process/detectable.json && (cd /tmp/arrpc && npm install --omit=dev)
 *                   BENCH_ARRPC=/tmp/arrpc npm run bench -- arrpc
 *                 fresh servers every round, alternating order: handshake, SET_ACTIVITY p50/p99, throughput (1, 100
 *                 clients, 10 x 16 in flight), CPU per request, start and peak RSS; medians and per-round ratios
 *                 BENCH_ARRPC_ROUNDS (7)  BENCH_ARRPC_SETTLE_MS (5000)  BENCH_ARRPC_PIPELINE (10x16)
 *                 BENCH_COMPANION_NODE_FLAGS="--flag ..."  diagnostic: node flags for that phase's Companion only
 *   soak          not in the default list (long): memory and fd drift of `companion serve` under steady churn
 *                 (bench/src/soak-phase.ts, output key `soak`). `npm run bench -- soak --duration N` (seconds),
 *                 or BENCH_PHASES=soak BENCH_SOAK_S=N (default 600); alone, it starts no other server
 *                 BENCH_SOAK_WARMUP_S  BENCH_SOAK_SAMPLE_MS  BENCH_SOAK_GAMES (8)  BENCH_SOAK_RATE (50/s)  BENCH_SOAK_SESSION_MS (3000)
 *                 BENCH_SOAK_HEAP=1: also the host's JS heap after a forced full GC at every reading (--inspect)
 *   ui-bridge     what one open UI costs the host (bench/src/ui-bridge-phase.ts, output key `uiBridge`): bytes/s
 *                 pushed to a WebSocket bridge client and host CPU with and without it (the UI on another
 *                 screen, and showing the inspector), while a game sends SET_ACTIVITY at 50/s and 5 friends
 *                 change presence once a second; targets < 50 KB/s, ratio <= 1.2
 *                 BENCH_UI_BRIDGE_MS (10000)  BENCH_UI_BRIDGE_ROUNDS (3)  BENCH_UI_BRIDGE_WARM_MS (10000)
 *                 BENCH_UI_BRIDGE_SETTLE_MS (2000)  BENCH_UI_BRIDGE_OPEN_MS (15000)  BENCH_UI_BRIDGE_RATE (50)  BENCH_UI_BRIDGE_FRIENDS (5)
 *   social-load   not in the default list (minutes): issue 25 §3, the emulator's state before (one JSON file) and
 *                 now (SQLite) side by side: 100,000 DMs and 100,000 lobby messages over HTTP with the limits
 *                 raised; emulator RSS peak and 20 s after, CPU per message at the 1,000th and 100,000th DM,
 *                 DM send p50/p99 (bench/src/social-load/social-load-phase.ts, output key `socialLoad`).
 *                 BENCH_SOCIAL_DMS (100000)  BENCH_SOCIAL_LOBBY_MESSAGES (100000)  BENCH_SOCIAL_USERS (100)
 *                 BENCH_SOCIAL_LOBBIES (10)  BENCH_SOCIAL_RATE (800 a second)  BENCH_SOCIAL_MAX_IN_FLIGHT (64)  BENCH_SOCIAL_AFTER_S (20)
 *                 BENCH_SOCIAL_RSS_CEILING_MIB (2048)  BENCH_SOCIAL_MAX_S (300): where a design is stopped
 *   fuzz          not in the default list: the bounded test's fuzz (main/src/tools/fuzz) at any scale against
 *                 `companion serve --consent approve` (bench/src/fuzz-phase.ts, output key `fuzz`).
 *                 `npm run bench -- fuzz --frames N [--seed S]`, or BENCH_PHASES=fuzz BENCH_FUZZ_FRAMES=N (default 20000);
 *                 alone, it starts no other server.  BENCH_FUZZ_SEED (random)  BENCH_FUZZ_CONCURRENCY (6)
 *   inspector-ring not in the default list: every connection's conversation kept by the host with and without a UI
 *                 (bench/src/inspector-ring-phase.ts, output key `inspectorRing`): two hosts, 50 games each at 250
 *                 SET_ACTIVITY/s in all, one with a UI on the inspector; host RSS difference (target <= 15 MiB)
 *                 BENCH_RING_S (300)  BENCH_RING_GAMES (50)  BENCH_RING_RATE (250)  BENCH_RING_SAMPLE_S (10); alone, it starts no other server
 *   detection     not in the default list: issue 30's game scanner against arRPC's Linux scanner (bench/src/detection/,
 *                 output key `detection`, a table on stderr): a synthetic 14.8 MB detectable list (fixed seed) and 500
 *                 processes started for it (fixture cases, games of the list, fillers; killed at the end); CPU per scan
 *                 (first and steady state) and the detections each finds. arRPC from BENCH_ARRPC (only its src/process/)
 *                 BENCH_DETECTION_SEED (30)  BENCH_DETECTION_PROCESSES (500)  BENCH_DETECTION_GAMES (20)
 *                 BENCH_DETECTION_SCANS (10)  BENCH_DETECTION_PAUSE_MS (200)  BENCH_DETECTION_ROUNDS (1)
 *   Phase names on the command line (`npm run bench -- soak`, `-- rss,latency`) take the place of BENCH_PHASES.
 *   Every process the bench starts gets its own temp XDG_CONFIG_HOME and data/runtime dirs.
 *   BENCH_FORCE_FALLBACK=1    measure the in-repo runner instead of `companion serve`
 *   BENCH_KEEP=1              keep the temp dir (server logs) after the run
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  COUNTER,
  COUNTER_SLOTS,
  type HandshakeLatencyResult,
  type HoldResult,
  type LoadStopResult,
  type PingResult,
  type RttResult,
  type WorkerEnvelope,
  type WorkerReply,
  type WorkerRequest,
  type WorkerResults,
} from './messages.js';
import { childPids, clockTicks, cpuSample, machineSample, memorySample, round2, type MemorySample } from './proc.js';
import { lobbyFanoutPhase } from './lobby-phase.js';
import { socialLoadPhase } from './social-load/social-load-phase.js';
import { ONE_PROCESS_MANY_GAMES, runPlatformPhases, startExternalPlatformHost, type PlatformBenchContext } from './platform-phases.js';
import { killAllNow, startServer, type ServerProcess, type StopResult } from './servers.js';
import { runUiPhases, UI_PHASES } from './ui-phases.js';
import { uiBridgePhase } from './ui-bridge-phase.js';
import { recordPhase } from './record-phase.js';
import { registrationConfig, registrationPhase } from './registration-phase.js';
import { BenchUsageError, parseBenchArgs, type BenchArgs } from './bench-args.js';
import { soakConfig, soakPhase } from './soak-phase.js';
import { inspectorRingPhase } from './inspector-ring-phase.js';
import { fuzzConfig, fuzzPhase } from './fuzz-phase.js';
import { ACTIVITY, setActivityTemplate, type ReplyExpectation, envInt } from './shared.js';
import { arrpcPhase } from './arrpc-phase.js';
import { arrpcProblem } from './arrpc-peer.js';
import { arrpcScannerProblem, detectionPhase } from './detection/detection-phase.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HERE = path.dirname(fileURLToPath(import.meta.url));

const CONFIG = {
  durationMs: envInt('BENCH_DURATION_MS', 3000),
  warmupMs: envInt('BENCH_WARMUP_MS', 500),
  rounds: Math.max(1, envInt('BENCH_ROUNDS', 3)),
  handshakeSamples: envInt('BENCH_HANDSHAKES', 500),
  handshakeWarmup: 50,
  rttSamples: envInt('BENCH_RTT_SAMPLES', 5000),
  rttWarmup: 1000,
  heldConnections: envInt('BENCH_CONNECTIONS', 1000),
  closedLoopClients: (process.env.BENCH_CLIENTS ?? '1,10,100,500').split(',').map(Number),
  pipeline: (() => {
    const [clients, inFlight] = (process.env.BENCH_PIPELINE ?? '10x128').split('x').map(Number);
    return { clients: clients ?? 10, inFlight: inFlight ?? 128 };
  })(),
  settleMs: 500,
};

/** Diagnostic only: node flags for the arrpc phase's Companion alone (BENCH_COMPANION_NODE_FLAGS), to try V8 settings against the same peer. */
const COMPANION_ONLY_FLAGS = (process.env.BENCH_COMPANION_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');

/** Diagnostic only: a baseline whose replies carry the activity sent (Companion-sized replies). */
const BASELINE_ECHO_ACTIVITY = process.env.BENCH_BASELINE === 'echo-activity';

/**
 * CPU pinning (default on with 2+ CPUs and taskset): both servers on the last CPU, the bench
 * process (orchestrator + load worker) on the others, so that neither server gets a luckier
 * placement relative to the load generator. BENCH_PIN=0 turns it off.
 */
const PINNING = ((): { servers: string; loadGenerator: string } | null => {
  const n = os.cpus().length;
  if (process.env.BENCH_PIN === '0' || n < 2) return null;
  try {
    const loadGenerator = n === 2 ? '0' : `0-${n - 2}`;
    execFileSync('taskset', ['-a', '-p', '-c', loadGenerator, String(process.pid)], { stdio: 'ignore' });
    return { servers: String(n - 1), loadGenerator };
  } catch {
    return null;
  }
})();

const DEFAULT_PHASES = ['rss', 'latency', 'closed', 'pipelined', 'record', 'presence', 'fanout', 'embedded-rss', 'lobby-fanout', 'ui-inspector', 'ui-consent', 'ui-bridge', 'arrpc'];
/**
 * Run only when named: `soak` lasts as long as it is told (10 minutes by default);
 * `registration` floods a host with 10,000 client ids and waits a minute after; `fuzz` sends as
 * many frames as it is told.
 */
const ON_REQUEST_PHASES = ['soak', 'registration', 'fuzz', 'inspector-ring', 'social-load', 'detection'];

const ARGS = ((): BenchArgs => {
  try {
    return parseBenchArgs(process.argv.slice(2), [...DEFAULT_PHASES, ...ON_REQUEST_PHASES]);
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\nUsage: npm run bench [-- PHASE[,PHASE...]] [--duration SECONDS (the soak phase)] [--frames N] [--seed S] (the fuzz phase)\n`);
    process.exit(2);
  }
})();
const PHASES = new Set(ARGS.phases ?? (process.env.BENCH_PHASES ?? DEFAULT_PHASES.join(',')).split(','));
if (ARGS.soakSeconds !== undefined && !PHASES.has('soak')) {
  process.stderr.write('bench: --duration sets the soak phase\'s length; name the phase too: npm run bench -- soak --duration N\n');
  process.exit(2);
}
if ((ARGS.fuzzFrames !== undefined || ARGS.fuzzSeed !== undefined) && !PHASES.has('fuzz')) {
  process.stderr.write('bench: --frames and --seed set the fuzz phase; name the phase too: npm run bench -- fuzz --frames N\n');
  process.exit(2);
}
const SOAK_SECONDS = ARGS.soakSeconds ?? envInt('BENCH_SOAK_S', 600);
const FUZZ = fuzzConfig(ARGS.fuzzFrames, ARGS.fuzzSeed);
/** Phases that start their own servers: alone, they need neither the baseline nor the pair's Companion. */
const STANDALONE_PHASES = [...ON_REQUEST_PHASES, 'arrpc'];
/** The phases that measure the two servers (or start their own hosts beside them); the standalone ones alone need neither. */
const NEEDS_SERVER_PAIR = [...PHASES].some((phase) => !STANDALONE_PHASES.includes(phase));
const PLATFORM_PHASES = ['presence', 'fanout', 'embedded-rss', 'lobby-fanout'];

const TARGETS = {
  setActivityP50MaxRatio: 1.25,
  throughput100MinRatio: 0.85,
  cpuPerRequestMaxRatio: 1.4,
  idleRssMaxMiB: 60,
};

const t0Run = performance.now();
function progress(message: string): void {
  process.stderr.write(`[bench ${((performance.now() - t0Run) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function ratio(companion: number, baseline: number): number | null {
  if (!Number.isFinite(companion) || !Number.isFinite(baseline) || baseline === 0) return null;
  return Math.round((companion / baseline) * 1000) / 1000;
}

class LoadGenerator {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  readonly counters: Int32Array;

  constructor() {
    const shared = new SharedArrayBuffer(COUNTER_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.counters = new Int32Array(shared);
    this.worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { counters: shared } });
    this.worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (waiter === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new Error(`load worker: ${reply.error}`));
    });
    const failAll = (error: Error): void => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`load worker exited with code ${code}`)));
  }

  call<K extends WorkerRequest['op']>(request: Extract<WorkerRequest, { op: K }>): Promise<WorkerResults[K]> {
    const id = this.nextId++;
    return new Promise<WorkerResults[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, request } satisfies WorkerEnvelope);
    });
  }

  /** Event-loop utilisation of the worker, readable from this thread. */
  elu(): ReturnType<typeof performance.eventLoopUtilization> {
    return this.worker.performance.eventLoopUtilization();
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

type Kind = 'baseline' | 'companion';

interface Target {
  readonly kind: Kind;
  readonly server: ServerProcess;
  readonly expect: ReplyExpectation;
}

interface LoadFigures extends LoadStopResult {
  readonly windowS: number;
  readonly windowReplies: number;
  readonly requestsPerSec: number;
  readonly serverCpuMs: number;
  /** Fraction of one core the server used in the window. */
  readonly serverCpuUtil: number;
  readonly serverCpuUsPerRequest: number;
  /** The kernel (stime) share of the server's CPU in the window. */
  readonly serverSysShare: number;
  /** User-mode (utime) CPU per request: without the kernel's socket and wake-up costs. */
  readonly serverUserUsPerRequest: number;
  /** Event-loop utilisation of the load generator in the window (near 1: it may be the bottleneck). */
  readonly loadGenElu: number;
  readonly benchProcessCpuUtil: number;
  /** CPU (in cores) used by everything else on the machine in the window: noise from other processes. */
  readonly otherProcessesCpuUtil: number;
  readonly serverRssMiBAfter: number;
}

async function runLoad(gen: LoadGenerator, target: Target, clients: number, inFlight: number): Promise<LoadFigures> {
  const { server } = target;
  const prepared = await gen.call({ op: 'loadPrepare', path: server.socketPath, clients, inFlight, expect: target.expect });
  if (prepared.failed > 0) progress(`  ${server.name}: ${prepared.failed} of ${clients} clients failed to connect: ${prepared.firstFailure}`);
  await sleep(100);
  await gen.call({ op: 'loadStart', warmupMs: CONFIG.warmupMs });
  await sleep(CONFIG.warmupMs);
  const r0 = Atomics.load(gen.counters, COUNTER.Replies);
  const cpu0 = cpuSample(server.pid);
  const elu0 = gen.elu();
  const self0 = process.cpuUsage();
  const machine0 = machineSample();
  const t0 = performance.now();
  await sleep(CONFIG.durationMs);
  const r1 = Atomics.load(gen.counters, COUNTER.Replies);
  const cpu1 = cpuSample(server.pid);
  const t1 = performance.now();
  const elu = gen.elu();
  const self = process.cpuUsage(self0);
  const machine1 = machineSample();
  const stopped = await gen.call({ op: 'loadStop', drainTimeoutMs: 10_000 });
  const windowMs = t1 - t0;
  const replies = r1 - r0;
  const cpuMs = cpu1.ms - cpu0.ms;
  const selfMs = (self.user + self.system) / 1000;
  return {
    ...stopped,
    windowS: round2(windowMs / 1000),
    windowReplies: replies,
    requestsPerSec: Math.round((replies * 1000) / windowMs),
    serverCpuMs: round2(cpuMs),
    serverCpuUtil: round2(cpuMs / windowMs),
    serverCpuUsPerRequest: replies > 0 ? round2((cpuMs * 1000) / replies) : NaN,
    serverSysShare: cpuMs > 0 ? round2((cpu1.sysMs - cpu0.sysMs) / cpuMs) : NaN,
    serverUserUsPerRequest: replies > 0 ? round2(((cpuMs - (cpu1.sysMs - cpu0.sysMs)) * 1000) / replies) : NaN,
    loadGenElu: round2(performance.eventLoopUtilization(elu, elu0).utilization),
    benchProcessCpuUtil: round2(selfMs / windowMs),
    otherProcessesCpuUtil: round2(Math.max(0, machine1.busyMs - machine0.busyMs - cpuMs - selfMs) / windowMs),
    serverRssMiBAfter: memorySample(server.pid).rssMiB,
  };
}

interface Best {
  readonly requestsPerSec: number;
  readonly serverCpuUsPerRequest: number;
  readonly serverUserUsPerRequest: number;
  /** The load generator's event loop was nearly saturated in the fastest run: the figure may be client-bound. */
  readonly loadGeneratorSaturated: boolean;
}

/** Best of the rounds: highest throughput, lowest CPU per request (noise only ever makes them worse). */
function bestOf(runs: readonly LoadFigures[]): Best {
  const fastest = runs.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
  return {
    requestsPerSec: fastest.requestsPerSec,
    serverCpuUsPerRequest: Math.min(...runs.map((r) => r.serverCpuUsPerRequest)),
    serverUserUsPerRequest: Math.min(...runs.map((r) => r.serverUserUsPerRequest)),
    loadGeneratorSaturated: fastest.loadGenElu >= 0.9,
  };
}

/** One run, on one line of the output (details such as validation counts are summed in nonceMatching). */
function compactRun(run: LoadFigures): Record<string, unknown> {
  return {
    requestsPerSec: run.requestsPerSec,
    serverCpuUsPerRequest: run.serverCpuUsPerRequest,
    serverUserUsPerRequest: run.serverUserUsPerRequest,
    serverCpuUtil: run.serverCpuUtil,
    loadGenElu: run.loadGenElu,
    otherProcessesCpuUtil: run.otherProcessesCpuUtil,
    rttUnderLoadP50P99Us: run.rttUnderLoad === null ? undefined : [run.rttUnderLoad.p50Us, run.rttUnderLoad.p99Us],
    replies: run.replies,
    lost: run.lost,
    mismatched: run.mismatched,
    droppedConnections: run.droppedConnections,
    firstProblem: run.firstProblem ?? undefined,
    serverRssMiBAfter: run.serverRssMiBAfter,
  };
}

/** How much other processes ran during the load windows (they share the 2 CPUs with the bench). */
function noiseReport(runs: readonly LoadFigures[]): Record<string, unknown> {
  const disturbed = runs.filter((run) => run.otherProcessesCpuUtil > 0.2).length;
  return {
    maxOtherProcessesCpuUtil: runs.length > 0 ? Math.max(...runs.map((run) => run.otherProcessesCpuUtil)) : null,
    loadRunsDisturbed: disturbed,
    loadRuns: runs.length,
    warning:
      disturbed > 0
        ? `${disturbed} of ${runs.length} load runs shared the CPUs with other processes (> 0.2 core): absolute figures are noisy; ratios are per round`
        : undefined,
  };
}

interface Comparison {
  readonly baseline: Best | undefined;
  readonly companion: Best | undefined;
  /** Median over rounds of companion/baseline, each round's pair measured back to back. */
  readonly ratioRequestsPerSec: number | null;
  readonly ratioCpuPerRequest: number | null;
  readonly ratioUserCpuPerRequest: number | null;
  readonly ratiosByRound: { readonly requestsPerSec: number | null; readonly cpuPerRequest: number | null }[];
  readonly runs: { readonly baseline: Record<string, unknown>[]; readonly companion: Record<string, unknown>[] };
}

function median(values: readonly (number | null)[]): number | null {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : round2(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/**
 * Ratios are taken per round (the two servers ran one after the other, seconds apart) and the
 * median is reported: drift of the machine's speed between rounds then cancels out.
 */
function compareLoad(runs: Record<Kind, LoadFigures[]>): Comparison {
  const pairs = Math.min(runs.baseline.length, runs.companion.length);
  const byRound = Array.from({ length: pairs }, (_, i) => {
    const b = runs.baseline[i] as LoadFigures;
    const c = runs.companion[i] as LoadFigures;
    return {
      requestsPerSec: ratio(c.requestsPerSec, b.requestsPerSec),
      cpuPerRequest: ratio(c.serverCpuUsPerRequest, b.serverCpuUsPerRequest),
      userCpuPerRequest: ratio(c.serverUserUsPerRequest, b.serverUserUsPerRequest),
    };
  });
  return {
    baseline: runs.baseline.length > 0 ? bestOf(runs.baseline) : undefined,
    companion: runs.companion.length > 0 ? bestOf(runs.companion) : undefined,
    ratioRequestsPerSec: median(byRound.map((r) => r.requestsPerSec)),
    ratioCpuPerRequest: median(byRound.map((r) => r.cpuPerRequest)),
    ratioUserCpuPerRequest: median(byRound.map((r) => r.userCpuPerRequest)),
    ratiosByRound: byRound.map((r) => ({ requestsPerSec: r.requestsPerSec, cpuPerRequest: r.cpuPerRequest })),
    runs: { baseline: runs.baseline.map(compactRun), companion: runs.companion.map(compactRun) },
  };
}

/** Extra node flags for the server children: BENCH_SERVER_NODE_FLAGS, and --cpu-prof into <dir>/<name>/ with BENCH_CPU_PROF. */
async function profileFlags(name: string): Promise<string[]> {
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
  const profDir = process.env.BENCH_CPU_PROF;
  if (profDir === undefined || profDir === '') return extra;
  const dir = path.resolve(profDir, name);
  await mkdir(dir, { recursive: true });
  return [...extra, '--cpu-prof', `--cpu-prof-dir=${dir}`];
}

interface CompanionLaunch {
  readonly server: ServerProcess;
  readonly mode: 'bin' | 'fallback-runner';
  readonly attempts: readonly string[];
}

async function launchCompanion(dir: string, logDir: string): Promise<CompanionLaunch> {
  const attempts: string[] = [];
  const nodeFlags = await profileFlags('companion');
  // `companion serve` starts the embedded emulator and keeps its state in the data dir: never the real home.
  const xdg = path.join(logDir, 'companion-xdg');
  const dataDir = path.join(logDir, 'companion-data');
  await mkdir(xdg, { mode: 0o700 });
  await mkdir(dataDir, { mode: 0o700 });
  const serveArgs = ['serve', '--runtime-dir', dir, '--data-dir', dataDir, ...ONE_PROCESS_MANY_GAMES];
  const candidates: { mode: CompanionLaunch['mode']; script: string; args: string[] }[] = [];
  if (process.env.BENCH_FORCE_FALLBACK !== '1') {
    candidates.push({ mode: 'bin', script: path.join(ROOT, 'bin/companion.js'), args: serveArgs });
  }
  candidates.push({ mode: 'fallback-runner', script: path.join(HERE, 'fallback-server.js'), args: [dir] });
  for (const candidate of candidates) {
    if (!existsSync(candidate.script)) {
      attempts.push(`${candidate.mode}: ${path.relative(ROOT, candidate.script)} does not exist`);
      continue;
    }
    try {
      const server = await startServer(
        'companion',
        [...nodeFlags, candidate.script, ...candidate.args],
        path.join(logDir, `companion-${candidate.mode}.log`),
        { cpus: PINNING?.servers, env: { XDG_CONFIG_HOME: xdg } },
      );
      attempts.push(`${candidate.mode}: listening`);
      return { server, mode: candidate.mode, attempts };
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
      attempts.push(`${candidate.mode}: ${message}`);
      progress(`companion via ${candidate.mode} failed: ${message}`);
    }
  }
  throw new Error(`could not start Companion: ${attempts.join('; ')}`);
}

function describeArgv(argv: readonly string[]): string {
  return ['node', ...argv.map((arg) => (path.isAbsolute(arg) && arg.startsWith(ROOT) ? path.relative(ROOT, arg) : arg))].join(' ');
}

/** Pretty JSON that keeps small objects and arrays on one line (the result stays readable at a glance). */
function formatJson(value: unknown, indent = ''): string {
  const oneLine = inlineJson(value);
  if (value === null || typeof value !== 'object') return oneLine;
  // Small values on one line; a flat record (no nested objects) may take a long line.
  const flat = !Array.isArray(value) && Object.values(value).every((v) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => typeof x !== 'object')));
  if (oneLine.length + indent.length <= (flat ? 360 : 110)) return oneLine;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item: unknown) => `${inner}${formatJson(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => inlineJson(item)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** On SIGINT / SIGTERM: the servers are killed and the temp dir removed. */
function cleanUpOnSignal(tmpRoot: string): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    progress(`${signal}: killing servers`);
    killAllNow();
    rmSync(tmpRoot, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

function machineDescription(): Record<string, unknown> {
  return {
    date: new Date().toISOString(),
    platform: `${process.platform} ${os.release()} (Linux-only: server CPU from /proc/<pid>/stat utime+stime, RSS from /proc/<pid>/status VmRSS)`,
    node: process.version,
    cpus: os.cpus().length,
  };
}

/** The ui-bridge phase, its failure recorded in `errors`. */
async function runUiBridge(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  progress('ui-bridge: bytes and host CPU for one open UI');
  try {
    const out = await uiBridgePhase(ctx);
    const inspector = out.inspector as Record<string, unknown>;
    progress(
      `ui-bridge: host CPU ${String(out.hostCpuWithoutUi)} cores without a UI; with one on another screen ${String(out.hostCpuWithUi)} ` +
        `(ratio ${String(out.cpuRatio)}, ${String(out.kiBPerSec)} KiB/s to it); showing the inspector ${String(inspector.hostCpuWithUi)} ` +
        `(ratio ${String(inspector.cpuRatio)}, ${String(inspector.kiBPerSec)} KiB/s)`,
    );
    return out;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`ui-bridge: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The soak phase, its failure recorded in `errors`. */
async function runSoak(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  try {
    return await soakPhase(ctx, soakConfig(SOAK_SECONDS));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`soak: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The inspector-ring phase, its failure (or a missed target) recorded in `errors`. */
async function runInspectorRing(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  try {
    const out = await inspectorRingPhase(ctx);
    progress(`inspector-ring: host RSS without a UI minus with one: ${String(out.rssDifferenceMiB)} MiB`);
    if (out.meetsTarget !== true) errors.push(`inspector-ring: the hosts' RSS differ by ${String(out.rssDifferenceMiB)} MiB (target ${JSON.stringify(out.target)})`);
    return out;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`inspector-ring: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The registration phase, its failure recorded in `errors`. */
async function runRegistration(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  try {
    return await registrationPhase(ctx, registrationConfig());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`registration: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The arrpc phase when BENCH_ARRPC is set; named without it, an error. */
async function runArrpc(ctx: PlatformBenchContext, gen: LoadGenerator, errors: string[]): Promise<Record<string, unknown> | undefined> {
  const dir = process.env.BENCH_ARRPC ?? '';
  if (dir === '') {
    const named = (ARGS.phases ?? (process.env.BENCH_PHASES ?? '').split(',')).includes('arrpc');
    if (named) errors.push('arrpc: BENCH_ARRPC is not set (the folder of a copy of arRPC: bench/src/arrpc-peer.ts says how to fetch it)');
    else progress('arrpc: skipped (BENCH_ARRPC is not set)');
    return undefined;
  }
  const problem = arrpcProblem(path.resolve(dir));
  if (problem !== null) {
    errors.push(`arrpc: ${problem}`);
    progress(`arrpc: ${problem}`);
    return undefined;
  }
  try {
    return await arrpcPhase({
      ctx,
      dir: path.resolve(dir),
      call: gen.call.bind(gen),
      load: (server, expect, clients, inFlight) => runLoad(gen, { kind: 'companion', server, expect }, clients, inFlight),
      nodeFlags: { companion: [...(await profileFlags('arrpc-companion')), ...COMPANION_ONLY_FLAGS], arrpc: await profileFlags('arrpc') },
      handshakeSamples: CONFIG.handshakeSamples,
      rttSamples: CONFIG.rttSamples,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`arrpc: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The detection phase; without BENCH_ARRPC, Companion alone and an error saying so. */
async function runDetection(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  const dir = process.env.BENCH_ARRPC ?? '';
  const problem = dir === '' ? 'BENCH_ARRPC is not set (the folder of a copy of arRPC: bench/src/arrpc-peer.ts says how to fetch it); Companion measured alone' : arrpcScannerProblem(path.resolve(dir));
  if (problem !== null) {
    errors.push(`detection: ${problem}`);
    progress(`detection: ${problem}`);
  }
  try {
    const out = await detectionPhase(ctx, problem === null ? path.resolve(dir) : null);
    const targets = out.targets as Record<string, { pass: boolean | null }>;
    for (const [name, target] of Object.entries(targets)) if (target.pass === false) errors.push(`detection: target ${name} not met`);
    return out;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`detection: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The social-load phase, its failure recorded in `errors`. */
async function runSocialLoad(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  try {
    return await socialLoadPhase(ctx);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`social-load: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** The fuzz phase, its failure (or a finding) recorded in `errors`. */
async function runFuzzPhase(ctx: PlatformBenchContext, errors: string[]): Promise<Record<string, unknown> | undefined> {
  try {
    const result = await fuzzPhase(ctx, FUZZ);
    if (result.pass !== true) errors.push(`fuzz: findings or error-level log lines (see fuzz.examples and fuzz.hostLog; seed ${FUZZ.seed})`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`fuzz: ${message}`);
    progress(`  failed: ${message}`);
    return undefined;
  }
}

/** `soak`, `registration`, `fuzz` and/or `arrpc` alone: the servers they start and nothing else (no baseline). */
async function standaloneOnly(): Promise<number> {
  const errors: string[] = [];
  const tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'companion-bench-'));
  const loadavgStart = os.loadavg().map(round2);
  cleanUpOnSignal(tmpRoot);
  progress(`temp dir ${tmpRoot}`);
  const ctx: PlatformBenchContext = { root: ROOT, here: HERE, tmpRoot, serverCpus: PINNING?.servers, progress };
  const registration = PHASES.has('registration') ? await runRegistration(ctx, errors) : undefined;
  let arrpc: Record<string, unknown> | undefined;
  if (PHASES.has('arrpc')) {
    const gen = new LoadGenerator();
    arrpc = await runArrpc(ctx, gen, errors).finally(() => gen.terminate());
  }
  const soak = PHASES.has('soak') ? await runSoak(ctx, errors) : undefined;
  const fuzz = PHASES.has('fuzz') ? await runFuzzPhase(ctx, errors) : undefined;
  const inspectorRing = PHASES.has('inspector-ring') ? await runInspectorRing(ctx, errors) : undefined;
  const socialLoad = PHASES.has('social-load') ? await runSocialLoad(ctx, errors) : undefined;
  const detection = PHASES.has('detection') ? await runDetection(ctx, errors) : undefined;
  killAllNow();
  const keep = errors.length > 0 || process.env.BENCH_KEEP === '1';
  if (keep) progress(`server logs kept in ${tmpRoot}`);
  else await rm(tmpRoot, { recursive: true, force: true });
  const out = {
    bench: PHASES.has('soak') ? 'companion-soak' : PHASES.has('fuzz') ? 'companion-fuzz' : PHASES.has('arrpc') ? 'companion-vs-arrpc' : PHASES.has('inspector-ring') ? 'companion-inspector-ring' : PHASES.has('social-load') ? 'companion-social-load' : PHASES.has('detection') ? 'companion-detection' : 'companion-registration',
    ...machineDescription(),
    config: {
      phases: [...PHASES],
      ...(PHASES.has('soak') ? { soakSeconds: SOAK_SECONDS } : {}),
      ...(PHASES.has('fuzz') ? { fuzz: FUZZ } : {}),
      pinning: PINNING ?? 'off',
    },
    registration,
    arrpc,
    soak,
    fuzz,
    inspectorRing,
    socialLoad,
    detection,
    loadavg: { start: loadavgStart, end: os.loadavg().map(round2) },
    durationS: round2((performance.now() - t0Run) / 1000),
    errors,
    logs: keep ? tmpRoot : undefined,
  };
  process.stdout.write(`${formatJson(out)}\n`);
  return errors.length > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  if (!NEEDS_SERVER_PAIR) return standaloneOnly();
  const errors: string[] = [];
  const tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'companion-bench-'));
  const baselineDir = path.join(tmpRoot, 'baseline');
  const companionDir = path.join(tmpRoot, 'companion');
  await mkdir(baselineDir, { mode: 0o700 });
  await mkdir(companionDir, { mode: 0o700 });
  const loadavgStart = os.loadavg().map(round2);
  let gen: LoadGenerator | undefined;
  let baseline: ServerProcess | undefined;
  let companion: CompanionLaunch | undefined;
  const stops: Partial<Record<Kind, StopResult>> = {};
  let keep = process.env.BENCH_KEEP === '1';
  const platformCtx: PlatformBenchContext = { root: ROOT, here: HERE, tmpRoot, serverCpus: PINNING?.servers, progress };
  type ExternalPair = Awaited<ReturnType<typeof startExternalPlatformHost>>;
  let externalPair: ExternalPair | undefined;

  cleanUpOnSignal(tmpRoot);

  const out: Record<string, unknown> = {};
  try {
    progress(`temp dir ${tmpRoot}`);
    const startExternal = async (): Promise<ExternalPair | undefined> => {
      if (!PHASES.has('rss') || process.env.BENCH_FORCE_FALLBACK === '1') return undefined;
      try {
        return await startExternalPlatformHost(platformCtx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(`idle RSS/companion --platform: ${message}`);
        progress(`companion --platform failed: ${message}`);
        return undefined;
      }
    };
    [baseline, companion, externalPair] = await Promise.all([
      profileFlags('baseline').then((flags) =>
        startServer(
          'baseline',
          [...flags, path.join(HERE, 'baseline-server.js'), baselineDir, ...(BASELINE_ECHO_ACTIVITY ? ['--echo-activity'] : [])],
          path.join(tmpRoot, 'baseline.log'),
          { cpus: PINNING?.servers, env: { XDG_CONFIG_HOME: path.join(tmpRoot, 'baseline') } },
        ),
      ),
      launchCompanion(companionDir, tmpRoot),
      startExternal(),
    ]);
    progress(`baseline pid ${baseline.pid} at ${baseline.socketPath}`);
    progress(`companion (${companion.mode}) pid ${companion.server.pid} at ${companion.server.socketPath}`);
    if (companion.mode === 'fallback-runner') progress('WARNING: measuring the fallback runner, not `companion serve`');
    gen = new LoadGenerator();
    const g = gen;

    const targets: Record<Kind, Target> = {
      baseline: { kind: 'baseline', server: baseline, expect: BASELINE_ECHO_ACTIVITY ? 'echo-activity' : 'echo' },
      companion: { kind: 'companion', server: companion.server, expect: 'activity' },
    };
    let phaseNo = 0;
    /** Runs `fn` for both servers, alternating which goes first from one phase to the next. */
    const both = async <T>(label: string, fn: (target: Target) => Promise<T>): Promise<Partial<Record<Kind, T>>> => {
      const order: Kind[] = phaseNo % 2 === 0 ? ['baseline', 'companion'] : ['companion', 'baseline'];
      phaseNo += 1;
      const result: Partial<Record<Kind, T>> = {};
      for (const kind of order) {
        const target = targets[kind];
        if (!target.server.alive) {
          errors.push(`${label}/${kind}: server is not running (${JSON.stringify(target.server.exit)})`);
          continue;
        }
        progress(`${label}: ${kind}`);
        try {
          result[kind] = await fn(target);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          errors.push(`${label}/${kind}: ${message}`);
          progress(`  failed: ${message}`);
        }
      }
      return result;
    };

    /** Runs `fn` once for both servers together (the worker interleaves them). */
    const paired = async <T>(label: string, fn: (list: Target[]) => Promise<T[]>): Promise<Partial<Record<Kind, T>>> => {
      const list: Target[] = [];
      for (const kind of ['baseline', 'companion'] as const) {
        if (targets[kind].server.alive) list.push(targets[kind]);
        else errors.push(`${label}/${kind}: server is not running (${JSON.stringify(targets[kind].server.exit)})`);
      }
      progress(`${label}: ${list.map((t) => t.kind).join(' + ')}, interleaved`);
      const result: Partial<Record<Kind, T>> = {};
      try {
        const values = await fn(list);
        list.forEach((target, i) => {
          const value = values[i];
          if (value !== undefined) result[target.kind] = value;
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(`${label}: ${message}`);
        progress(`  failed: ${message}`);
      }
      return result;
    };

    const gated = async <T>(phase: string, fn: () => Promise<Partial<Record<Kind, T>>>): Promise<Partial<Record<Kind, T>>> =>
      PHASES.has(phase) ? fn() : {};

    // 6a. idle RSS: after start, with one client that completed the handshake.
    const idle = await gated('rss', () => both('idle RSS', async (target) => {
      const held: HoldResult = await g.call({ op: 'hold', key: 'idle', path: target.server.socketPath, count: 1, concurrency: 1 });
      await sleep(CONFIG.settleMs);
      const memory = memorySample(target.server.pid);
      await g.call({ op: 'releaseHeld', key: 'idle' });
      return { ...memory, clientReady: held.ready === 1 };
    }));

    // 6a'. the same host without the embedded emulator (`companion serve --platform <external> --user alice`),
    // started together with the servers above so that it is as old as they are when measured.
    const idleExternal = await (async (): Promise<(MemorySample & { clientReady: boolean }) | undefined> => {
      if (externalPair === undefined) return undefined;
      progress('idle RSS: companion --platform <external emulator>');
      try {
        const held: HoldResult = await g.call({ op: 'hold', key: 'idle-external', path: externalPair.host.socketPath, count: 1, concurrency: 1 });
        await sleep(CONFIG.settleMs);
        const memory = memorySample(externalPair.host.pid);
        await g.call({ op: 'releaseHeld', key: 'idle-external' });
        return { ...memory, clientReady: held.ready === 1 };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(`idle RSS/companion --platform: ${message}`);
        progress(`  failed: ${message}`);
        return undefined;
      } finally {
        await externalPair.stop();
        externalPair = undefined;
      }
    })();

    // 6b. RSS with N open connections that all completed the handshake, and proof they are held.
    const heldPhase = await gated('rss', () => both(`${CONFIG.heldConnections} connections`, async (target) => {
      const n = CONFIG.heldConnections;
      const held: HoldResult = await g.call({ op: 'hold', key: 'many', path: target.server.socketPath, count: n, concurrency: 50 });
      await sleep(CONFIG.settleMs);
      const memory: MemorySample = memorySample(target.server.pid);
      const ping: PingResult = await g.call({ op: 'pingHeld', key: 'many', timeoutMs: 10_000 });
      const released = await g.call({ op: 'releaseHeld', key: 'many' });
      return {
        rssMiB: memory.rssMiB,
        readyConnections: held.ready,
        failedConnections: held.failed,
        firstFailure: held.firstFailure ?? undefined,
        openAfterSettle: ping.open,
        answeredPing: ping.ponged,
        connectMs: held.ms,
        closed: released.closed,
        allHeld: held.ready === n && ping.open === n && ping.ponged === n,
      };
    }));

    // 1. handshake -> READY, fresh connection each (servers interleaved sample by sample).
    const handshakes = await gated('latency', () => paired('handshake latency', (list) =>
      g.call({
        op: 'handshakeLatency',
        paths: list.map((t) => t.server.socketPath),
        warmup: CONFIG.handshakeWarmup,
        samples: CONFIG.handshakeSamples,
      }),
    ));

    // 2. sequential SET_ACTIVITY round trips on one connection (servers interleaved in blocks).
    const rtt = await gated('latency', () => paired('SET_ACTIVITY round trip', (list) =>
      g.call({
        op: 'activityLatency',
        targets: list.map((t) => ({ path: t.server.socketPath, expect: t.expect })),
        warmup: CONFIG.rttWarmup,
        samples: CONFIG.rttSamples,
      }),
    ));

    // 3 + 5. closed-loop throughput and server CPU per request; 4. pipelined.
    const closedLoop = new Map<number, Record<Kind, LoadFigures[]>>();
    for (const clients of CONFIG.closedLoopClients) closedLoop.set(clients, { baseline: [], companion: [] });
    const pipelined: Record<Kind, LoadFigures[]> = { baseline: [], companion: [] };
    for (let round = 0; round < CONFIG.rounds; round += 1) {
      for (const clients of PHASES.has('closed') ? CONFIG.closedLoopClients : []) {
        const runs = await both(`round ${round + 1}: closed loop, ${clients} clients`, (target) => runLoad(g, target, clients, 1));
        const slot = closedLoop.get(clients) as Record<Kind, LoadFigures[]>;
        for (const kind of ['baseline', 'companion'] as const) {
          const run = runs[kind];
          if (run !== undefined) {
            slot[kind].push(run);
            progress(`  ${kind}: ${run.requestsPerSec} req/s, ${run.serverCpuUsPerRequest} us CPU/req, loadgen ELU ${run.loadGenElu}`);
          }
        }
      }
      if (!PHASES.has('pipelined')) continue;
      const { clients, inFlight } = CONFIG.pipeline;
      const runs = await both(`round ${round + 1}: pipelined ${clients}x${inFlight}`, (target) => runLoad(g, target, clients, inFlight));
      for (const kind of ['baseline', 'companion'] as const) {
        const run = runs[kind];
        if (run !== undefined) {
          pipelined[kind].push(run);
          progress(`  ${kind}: ${run.requestsPerSec} req/s, lost ${run.lost}, mismatched ${run.mismatched}, dropped ${run.droppedConnections}`);
        }
      }
    }

    const finalMemory = {
      baseline: baseline.alive ? memorySample(baseline.pid) : null,
      companion: companion.server.alive ? memorySample(companion.server.pid) : null,
    };
    const companionChildren = companion.server.alive ? childPids(companion.server.pid) : [];

    // 13. Recording overhead: SET_ACTIVITY at 100 clients on `serve --record` vs plain `serve`, bytes per frame.
    const recordOut = await (async (): Promise<Record<string, unknown> | undefined> => {
      if (!PHASES.has('record')) return undefined;
      try {
        return await recordPhase({
          ctx: platformCtx,
          // Its rounds spread more than the others (two hosts, a file growing by 100 MB/s): five, unless set.
          rounds: envInt('BENCH_RECORD_ROUNDS', Math.max(5, CONFIG.rounds)),
          load: async (server, clients) => {
            const run = await runLoad(g, { kind: 'companion', server, expect: 'activity' }, clients, 1);
            return { requestsPerSec: run.requestsPerSec, serverCpuUsPerRequest: run.serverCpuUsPerRequest, serverCpuUtil: run.serverCpuUtil, lost: run.lost, mismatched: run.mismatched };
          },
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(`record: ${message}`);
        progress(`  failed: ${message}`);
        return undefined;
      }
    })();

    // 8-10. The platform side: presence latency, gateway fan-out, idle RSS with the embedded emulator.
    const platformOut = PLATFORM_PHASES.some((phase) => PHASES.has(phase)) ? await runPlatformPhases(platformCtx, PHASES, errors, { 'lobby-fanout': ['lobbyFanout', lobbyFanoutPhase] }) : undefined;

    // 11-12. The web UI in headless Chromium: inspector frame rate under load, AUTHORIZE to the consent prompt.
    const uiOut = UI_PHASES.some((phase) => PHASES.has(phase)) ? await runUiPhases(platformCtx, PHASES, errors) : undefined;

    // 13. What one open UI costs the host: bytes pushed to it, host CPU with and without it.
    const uiBridgeOut = PHASES.has('ui-bridge') ? await runUiBridge(platformCtx, errors) : undefined;

    // Companion against arRPC, fresh servers per round (when BENCH_ARRPC is set).
    const arrpcOut = PHASES.has('arrpc') ? await runArrpc(platformCtx, g, errors) : undefined;

    // 14. Memory and fd drift over a long run of churn (only when named).
    const soakOut = PHASES.has('soak') ? await runSoak(platformCtx, errors) : undefined;
    // 15. 10,000 distinct client ids through the handshake (only when named).
    const registrationOut = PHASES.has('registration') ? await runRegistration(platformCtx, errors) : undefined;
    // 16. The fuzz at scale (only when named).
    const fuzzOut = PHASES.has('fuzz') ? await runFuzzPhase(platformCtx, errors) : undefined;
    // 17. Every connection's conversation kept with and without a UI (only when named).
    const inspectorRingOut = PHASES.has('inspector-ring') ? await runInspectorRing(platformCtx, errors) : undefined;
    // 18. Game detection against arRPC's scanner (only when named).
    const detectionOut = PHASES.has('detection') ? await runDetection(platformCtx, errors) : undefined;

    // Assemble.
    const latencyBlock = <T>(
      values: Partial<Record<Kind, T>>,
      pick: (value: T) => { p50Us: number; p99Us: number },
    ): Record<string, unknown> => {
      const b = values.baseline === undefined ? undefined : pick(values.baseline);
      const c = values.companion === undefined ? undefined : pick(values.companion);
      return {
        baseline: b,
        companion: c,
        ratioP50: b && c ? ratio(c.p50Us, b.p50Us) : null,
        ratioP99: b && c ? ratio(c.p99Us, b.p99Us) : null,
      };
    };
    const hs = handshakes as Partial<Record<Kind, HandshakeLatencyResult>>;
    const rt = rtt as Partial<Record<Kind, RttResult>>;

    const throughput: Record<string, Comparison> = {};
    for (const [clients, runs] of closedLoop) throughput[`clients${clients}`] = compareLoad(runs);
    const pipe = compareLoad(pipelined);
    const pipelineIntegrity = (runs: LoadFigures[]): Record<string, number> => ({
      runs: runs.length,
      sent: runs.reduce((s, r) => s + r.sent, 0),
      replies: runs.reduce((s, r) => s + r.replies, 0),
      lost: runs.reduce((s, r) => s + r.lost, 0),
      mismatched: runs.reduce((s, r) => s + r.mismatched, 0),
      droppedConnections: runs.reduce((s, r) => s + r.droppedConnections, 0),
      errorReplies: runs.reduce((s, r) => s + r.errorReplies, 0),
    });

    // 7. every reply matched, everywhere.
    const allRuns = (kind: Kind): { lost: number; mismatched: number; errorReplies: number; invalid: number; droppedConnections: number }[] => [
      ...(rt[kind] ? [rt[kind]] : []),
      ...[...closedLoop.values()].flatMap((runs) => runs[kind]),
      ...pipelined[kind],
    ];
    const matching = (kind: Kind): Record<string, number> => {
      const runs = allRuns(kind);
      return {
        lost: runs.reduce((s, r) => s + r.lost, 0),
        mismatched: runs.reduce((s, r) => s + r.mismatched, 0),
        errorReplies: runs.reduce((s, r) => s + r.errorReplies, 0),
        invalid: runs.reduce((s, r) => s + r.invalid, 0),
        droppedConnections: runs.reduce((s, r) => s + r.droppedConnections, 0),
      };
    };
    const matchBaseline = matching('baseline');
    const matchCompanion = matching('companion');

    const c100 = throughput.clients100;
    const pipeRatioCpu = pipe.ratioCpuPerRequest;
    const pipeCompanion = pipelineIntegrity(pipelined.companion);
    const setActivityRatio = rt.baseline && rt.companion ? ratio(rt.companion.rtt.p50Us, rt.baseline.rtt.p50Us) : null;
    const idleCompanion = idle.companion?.rssMiB ?? null;
    const heldCompanion = heldPhase.companion;
    const targetsOut = {
      setActivityP50: { ratio: setActivityRatio, max: TARGETS.setActivityP50MaxRatio, pass: setActivityRatio !== null && setActivityRatio <= TARGETS.setActivityP50MaxRatio },
      throughput100Clients: {
        ratio: c100?.ratioRequestsPerSec ?? null,
        min: TARGETS.throughput100MinRatio,
        pass: c100 !== undefined && c100.ratioRequestsPerSec !== null && c100.ratioRequestsPerSec >= TARGETS.throughput100MinRatio,
      },
      cpuPerRequest100Clients: {
        ratio: c100?.ratioCpuPerRequest ?? null,
        max: TARGETS.cpuPerRequestMaxRatio,
        pass: c100 !== undefined && c100.ratioCpuPerRequest !== null && c100.ratioCpuPerRequest <= TARGETS.cpuPerRequestMaxRatio,
      },
      cpuPerRequestPipelined: { ratio: pipeRatioCpu, max: TARGETS.cpuPerRequestMaxRatio, pass: pipeRatioCpu !== null && pipeRatioCpu <= TARGETS.cpuPerRequestMaxRatio },
      pipelinedNoLossNoDrop: {
        ...pipeCompanion,
        pass: pipeCompanion.runs === CONFIG.rounds && pipeCompanion.lost === 0 && pipeCompanion.mismatched === 0 && pipeCompanion.droppedConnections === 0,
      },
      idleRss: { companionMiB: idleCompanion, maxMiB: TARGETS.idleRssMaxMiB, pass: idleCompanion !== null && idleCompanion <= TARGETS.idleRssMaxMiB },
      connectionsHeld: { count: CONFIG.heldConnections, pass: heldCompanion?.allHeld === true },
      allRepliesMatched: {
        pass: Object.values(matchCompanion).every((v) => v === 0) && Object.values(matchBaseline).every((v) => v === 0),
      },
    };

    Object.assign(out, {
      bench: 'companion-rpc-vs-baseline',
      ...machineDescription(),
      clkTck: clockTicks(),
      config: { ...CONFIG, phases: [...PHASES], ...(PHASES.has('soak') ? { soakSeconds: SOAK_SECONDS } : {}), ...(PHASES.has('fuzz') ? { fuzz: FUZZ } : {}), pinning: PINNING ?? 'off', activityBytes: Buffer.byteLength(JSON.stringify(ACTIVITY)), requestFrameBytes: setActivityTemplate(1).frame.length },
      servers: {
        baseline: {
          variant: BASELINE_ECHO_ACTIVITY ? 'echo-activity (diagnostic: replies carry the activity sent)' : 'standard',
          command: describeArgv(baseline.argv),
          pid: baseline.pid,
        },
        companion: {
          mode: companion.mode,
          fallbackUsed: companion.mode === 'fallback-runner',
          command: describeArgv(companion.server.argv),
          pid: companion.server.pid,
          childProcesses: companionChildren.length,
          attempts: companion.attempts,
        },
      },
      targets: targetsOut,
      allTargetsPass: Object.values(targetsOut).every((t) => t.pass),
      handshakeToReady: latencyBlock(hs, (r) => r.handshakeToReady),
      connectToReady: latencyBlock(hs, (r) => r.connectToReady),
      handshakeFailures: { baseline: hs.baseline?.failures, companion: hs.companion?.failures },
      setActivityRoundTrip: {
        ...latencyBlock(rt, (r) => r.rtt),
        checks: {
          baseline: rt.baseline === undefined ? undefined : { ...rt.baseline, rtt: undefined },
          companion: rt.companion === undefined ? undefined : { ...rt.companion, rtt: undefined },
        },
      },
      throughput,
      pipelined: {
        clients: CONFIG.pipeline.clients,
        inFlightPerClient: CONFIG.pipeline.inFlight,
        integrity: { baseline: pipelineIntegrity(pipelined.baseline), companion: pipeCompanion },
        ...pipe,
      },
      cpuPerRequestUs: {
        note: 'server CPU (utime+stime of all its threads) in the window / replies in the window; figures: best of rounds; ratio: median of per-round ratios',
        clients100: {
          baseline: c100?.baseline?.serverCpuUsPerRequest,
          companion: c100?.companion?.serverCpuUsPerRequest,
          ratio: c100?.ratioCpuPerRequest ?? null,
        },
        pipelined: { baseline: pipe.baseline?.serverCpuUsPerRequest, companion: pipe.companion?.serverCpuUsPerRequest, ratio: pipeRatioCpu },
      },
      rss: {
        idleMiB: {
          baseline: idle.baseline?.rssMiB,
          companion: idle.companion?.rssMiB,
          ratio: idle.baseline && idle.companion ? ratio(idle.companion.rssMiB, idle.baseline.rssMiB) : null,
          companionExternalPlatform: idleExternal?.rssMiB,
          note: idle.companion === undefined ? undefined : 'companion: `companion serve` with its embedded emulator (signed in as alice); companionExternalPlatform: the same with --platform <external emulator> --user alice (emulator not loaded); both with one client',
        },
        connections: { count: CONFIG.heldConnections, baseline: heldPhase.baseline, companion: heldPhase.companion },
        perConnectionKiB: {
          baseline: idle.baseline && heldPhase.baseline ? round2(((heldPhase.baseline.rssMiB - idle.baseline.rssMiB) * 1024) / CONFIG.heldConnections) : null,
          companion: idle.companion && heldPhase.companion ? round2(((heldPhase.companion.rssMiB - idle.companion.rssMiB) * 1024) / CONFIG.heldConnections) : null,
        },
        afterRun: finalMemory,
      },
      nonceMatching: { baseline: matchBaseline, companion: matchCompanion },
      // Not `platform`: that key already holds the OS description, kept unchanged.
      platformSide: platformOut,
      record: recordOut,
      ui: uiOut,
      uiBridge: uiBridgeOut,
      arrpc: arrpcOut,
      soak: soakOut,
      registration: registrationOut,
      fuzz: fuzzOut,
      inspectorRing: inspectorRingOut,
      detection: detectionOut,
      noise: noiseReport([...closedLoop.values()].flatMap((runs) => [...runs.baseline, ...runs.companion]).concat(pipelined.baseline, pipelined.companion)),
    });
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    errors.push(message);
    progress(`fatal: ${message}`);
  } finally {
    if (gen !== undefined) await gen.terminate().catch(() => undefined);
    await externalPair?.stop();
    const stopping: Promise<void>[] = [];
    if (baseline !== undefined) stopping.push(baseline.stop().then((r) => void (stops.baseline = r)));
    if (companion !== undefined) stopping.push(companion.server.stop().then((r) => void (stops.companion = r)));
    await Promise.all(stopping);
    killAllNow();
  }
  if (errors.length > 0) keep = true;
  out.shutdown = {
    baseline: stops.baseline,
    companion: stops.companion,
    companionCleanExitOnSigterm: stops.companion ? stops.companion.code === 0 && !stops.companion.killed : null,
  };
  out.loadavg = { start: loadavgStart, end: os.loadavg().map(round2) };
  out.durationS = round2((performance.now() - t0Run) / 1000);
  out.errors = errors;
  if (keep) {
    out.logs = tmpRoot;
    progress(`server logs kept in ${tmpRoot}`);
  } else {
    await rm(tmpRoot, { recursive: true, force: true });
  }
  process.stdout.write(`${formatJson(out)}\n`);
  return errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    killAllNow();
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
