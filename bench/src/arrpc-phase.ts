/**
 * The `arrpc` phase (output key `arrpc`; runs when BENCH_ARRPC names an arRPC folder, see
 * arrpc-peer.ts): `companion serve` against arRPC, side by side in one run.
 *
 * Every round starts both servers afresh (which one first alternates from round to round, and
 * so does the order of every measurement in the round) and measures, on the same realistic
 * ~570-byte activity: start RSS (one client connected, BENCH_ARRPC_SETTLE_MS after start),
 * handshake to READY (fresh connections, the two servers interleaved), the SET_ACTIVITY round
 * trip p50/p99 (one client, closed loop, interleaved in blocks), closed-loop throughput with 1
 * and 100 clients, the server's CPU per request at 100 clients (/proc utime+stime of the
 * child), BENCH_ARRPC_PIPELINE (10x16) clients x requests in flight, and peak RSS (VmHWM) at
 * the end of the round. Ratios are Companion / arRPC, taken per round; the medians of the
 * figures and of the ratios are reported, with the ratios' spread.
 *
 * Footprint (issue 27 §4, footprint.ts): the time from each server's spawn until its socket
 * accepts a connection, and, at the end of the first BENCH_ARRPC_IDLE_ROUNDS rounds, once the
 * clients have gone, an idle window of BENCH_ARRPC_IDLE_S seconds watched side by side: the
 * threads' context switches (wake-ups), CPU, and RSS at its end.
 *
 * Companion's platform: BENCH_ARRPC_PLATFORM=embedded (the default, `companion serve` as a player
 * starts it, the emulator in the same process) or external (a `companion platform serve` of its
 * own per round, pinned with the servers, and `serve --platform URL`: the host alone, as beside
 * a remote platform; arRPC has no platform at all).
 *
 * BENCH_ARRPC=<dir>  BENCH_ARRPC_ROUNDS (7; at least 5 for a comparison)  BENCH_ARRPC_SETTLE_MS (5000)
 * BENCH_ARRPC_PIPELINE (10x16)  BENCH_ARRPC_IDLE_S (60)  BENCH_ARRPC_IDLE_ROUNDS (3)  BENCH_ARRPC_PLATFORM (embedded)
 */
import path from 'node:path';
import { startArrpc } from './arrpc-peer.js';
import { arrpcTable, FIGURES, summarizeRounds, type Figures, type Peer } from './arrpc-summary.js';
import type { RttResult, WorkerRequest, WorkerResults } from './messages.js';
import { idleWindow, msUntilConnectable } from './footprint.js';
import { startEmulator, startHost, type Emulator, type PlatformBenchContext } from './platform-phases.js';
import { memorySample } from './proc.js';
import type { ServerProcess } from './servers.js';
import { envInt, type ReplyExpectation } from './shared.js';

/** What one load run measured (bench.ts's runLoad). */
export interface PeerLoadRun {
  readonly requestsPerSec: number;
  readonly serverCpuUsPerRequest: number;
  readonly otherProcessesCpuUtil: number;
  readonly lost: number;
  readonly mismatched: number;
  readonly errorReplies: number;
  readonly invalid: number;
  readonly droppedConnections: number;
  readonly firstProblem: string | null;
}

export type WorkerCall = <K extends WorkerRequest['op']>(request: Extract<WorkerRequest, { op: K }>) => Promise<WorkerResults[K]>;

export interface ArrpcPhaseDeps {
  readonly ctx: PlatformBenchContext;
  /** The arRPC folder (BENCH_ARRPC). */
  readonly dir: string;
  readonly call: WorkerCall;
  readonly load: (server: ServerProcess, expect: ReplyExpectation, clients: number, inFlight: number) => Promise<PeerLoadRun>;
  /** Node flags for the children (BENCH_CPU_PROF, BENCH_SERVER_NODE_FLAGS). */
  readonly nodeFlags: Readonly<Record<Peer, readonly string[]>>;
  readonly handshakeSamples: number;
  readonly rttSamples: number;
}

export const ARRPC_CONFIG = {
  rounds: Math.max(1, envInt('BENCH_ARRPC_ROUNDS', 7)),
  settleMs: envInt('BENCH_ARRPC_SETTLE_MS', 5000),
  pipeline: (() => {
    const [clients, inFlight] = (process.env.BENCH_ARRPC_PIPELINE ?? '10x16').split('x').map(Number);
    return { clients: clients ?? 10, inFlight: inFlight ?? 16 };
  })(),
  idleSeconds: envInt('BENCH_ARRPC_IDLE_S', 60),
  idleRounds: envInt('BENCH_ARRPC_IDLE_ROUNDS', 3),
  platform: process.env.BENCH_ARRPC_PLATFORM === 'external' ? ('external' as const) : ('embedded' as const),
};

const EXPECT: Record<Peer, ReplyExpectation> = { companion: 'activity', arrpc: 'echo-activity' };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Problems with the replies (lost, mismatched, errors, invalid, dropped connections) over a round. */
interface Integrity {
  lost: number;
  mismatched: number;
  errorReplies: number;
  invalid: number;
  droppedConnections: number;
  firstProblem: string | null;
}

function tallyInto(into: Integrity, run: Omit<PeerLoadRun, 'requestsPerSec' | 'serverCpuUsPerRequest' | 'otherProcessesCpuUtil'>): void {
  into.lost += run.lost;
  into.mismatched += run.mismatched;
  into.errorReplies += run.errorReplies;
  into.invalid += run.invalid;
  into.droppedConnections += run.droppedConnections;
  into.firstProblem ??= run.firstProblem;
}

const emptyIntegrity = (): Integrity => ({ lost: 0, mismatched: 0, errorReplies: 0, invalid: 0, droppedConnections: 0, firstProblem: null });

interface RoundResult {
  readonly figures: Record<Peer, Figures>;
  readonly integrity: Record<Peer, Integrity>;
  readonly maxOtherProcessesCpuUtil: number;
}

/** One round: both servers fresh, every figure measured on both, in `order`. */
class Round {
  private readonly servers: Partial<Record<Peer, ServerProcess>> = {};
  private emulator: Emulator | undefined;
  private readonly figures: Record<Peer, Partial<Record<keyof Figures, number>>> = { companion: {}, arrpc: {} };
  private readonly integrity: Record<Peer, Integrity> = { companion: emptyIntegrity(), arrpc: emptyIntegrity() };
  private maxOther = 0;

  constructor(
    private readonly deps: ArrpcPhaseDeps,
    private readonly index: number,
    private readonly order: readonly Peer[],
  ) {}

  async run(): Promise<RoundResult> {
    try {
      for (const peer of this.order) this.servers[peer] = await this.start(peer);
      await this.startRss();
      await this.handshakes();
      await this.roundTrips();
      const { clients, inFlight } = ARRPC_CONFIG.pipeline;
      await this.throughput(1, 1, 'throughput1');
      await this.throughput(100, 1, 'throughput100', 'cpuUsPerRequest100');
      await this.throughput(clients, inFlight, 'throughputPipelined', 'cpuUsPerRequestPipelined');
      for (const peer of this.order) this.figures[peer].peakRssMiB = memorySample(this.server(peer).pid).hwmMiB;
      await this.idle();
      return { figures: this.figures as Record<Peer, Figures>, integrity: this.integrity, maxOtherProcessesCpuUtil: this.maxOther };
    } finally {
      await Promise.all(Object.values(this.servers).map((server) => server.stop().catch(() => undefined)));
      await this.emulator?.server.stop().catch(() => undefined);
    }
  }

  /** A fresh server, and how long after its spawn its socket accepted a connection. */
  private async start(peer: Peer): Promise<ServerProcess> {
    const { ctx } = this.deps;
    const name = `arrpc-round${this.index + 1}-${peer}`;
    const flags = this.deps.nodeFlags[peer];
    let platform: string[] = [];
    if (peer === 'companion' && ARRPC_CONFIG.platform === 'external') {
      this.emulator = await startEmulator(ctx, `${name}-platform`);
      platform = ['--platform', this.emulator.url, '--user', 'alice'];
    }
    // Both put discord-ipc-0 in <temp>/<name>/run, a directory of their own.
    const socketPath = path.join(ctx.tmpRoot, name, 'run', 'discord-ipc-0');
    const spawnedAt = performance.now();
    const bound = msUntilConnectable(socketPath, spawnedAt);
    bound.catch(() => undefined);
    // Like for like: arRPC runs with its process scanning off, Companion without game detection.
    const server = await (peer === 'arrpc' ? startArrpc(ctx, this.deps.dir, name, flags) : startHost(ctx, name, [...platform, '--no-game-detection'], flags));
    this.figures[peer].boundMs = await bound;
    return server;
  }

  /** The clients gone: both servers watched side by side while nothing happens. */
  private async idle(): Promise<void> {
    if (this.index >= ARRPC_CONFIG.idleRounds || ARRPC_CONFIG.idleSeconds <= 0) {
      for (const peer of this.order) Object.assign(this.figures[peer], { idleWakeups: NaN, idleCpuMs: NaN, idleRssMiB: NaN });
      return;
    }
    this.deps.ctx.progress(`  idle window: ${ARRPC_CONFIG.idleSeconds} s`);
    const figures = await idleWindow(this.order.map((peer) => this.server(peer).pid), ARRPC_CONFIG.idleSeconds);
    this.order.forEach((peer, i) => {
      const idle = figures[i];
      if (idle !== undefined) Object.assign(this.figures[peer], { idleWakeups: idle.wakeups, idleCpuMs: idle.cpuMs, idleRssMiB: idle.rssMiB });
    });
  }

  private server(peer: Peer): ServerProcess {
    const server = this.servers[peer];
    if (server === undefined || !server.alive) throw new Error(`${peer} is not running (${JSON.stringify(server?.exit ?? null)})`);
    return server;
  }

  /** RSS with one client that completed the handshake, a moment after start. */
  private async startRss(): Promise<void> {
    const { call } = this.deps;
    for (const peer of this.order) await call({ op: 'hold', key: `start-${peer}`, path: this.server(peer).socketPath, count: 1, concurrency: 1 });
    await sleep(ARRPC_CONFIG.settleMs);
    for (const peer of this.order) this.figures[peer].startRssMiB = memorySample(this.server(peer).pid).rssMiB;
    for (const peer of this.order) await call({ op: 'releaseHeld', key: `start-${peer}` });
  }

  private async handshakes(): Promise<void> {
    const results = await this.deps.call({
      op: 'handshakeLatency',
      paths: this.order.map((peer) => this.server(peer).socketPath),
      warmup: 50,
      samples: this.deps.handshakeSamples,
    });
    this.order.forEach((peer, i) => {
      const result = results[i];
      if (result === undefined) return;
      this.figures[peer].handshakeP50Us = result.handshakeToReady.p50Us;
      this.figures[peer].handshakeP99Us = result.handshakeToReady.p99Us;
      if (result.failures > 0) {
        this.integrity[peer].droppedConnections += result.failures;
        this.integrity[peer].firstProblem ??= result.firstFailure;
      }
    });
  }

  private async roundTrips(): Promise<void> {
    const results: RttResult[] = await this.deps.call({
      op: 'activityLatency',
      targets: this.order.map((peer) => ({ path: this.server(peer).socketPath, expect: EXPECT[peer] })),
      warmup: 1000,
      samples: this.deps.rttSamples,
    });
    this.order.forEach((peer, i) => {
      const result = results[i];
      if (result === undefined) return;
      this.figures[peer].rttP50Us = result.rtt.p50Us;
      this.figures[peer].rttP99Us = result.rtt.p99Us;
      tallyInto(this.integrity[peer], result);
    });
  }

  private async throughput(clients: number, inFlight: number, rate: keyof Figures, cpu?: keyof Figures): Promise<void> {
    for (const peer of this.order) {
      const run = await this.deps.load(this.server(peer), EXPECT[peer], clients, inFlight);
      this.figures[peer][rate] = run.requestsPerSec;
      if (cpu !== undefined) this.figures[peer][cpu] = run.serverCpuUsPerRequest;
      this.maxOther = Math.max(this.maxOther, run.otherProcessesCpuUtil);
      tallyInto(this.integrity[peer], run);
      this.deps.ctx.progress(`  ${peer}: ${clients}x${inFlight}: ${run.requestsPerSec} req/s, ${run.serverCpuUsPerRequest} us CPU/req`);
    }
  }
}

export async function arrpcPhase(deps: ArrpcPhaseDeps): Promise<Record<string, unknown>> {
  const rounds: RoundResult[] = [];
  const { clients, inFlight } = ARRPC_CONFIG.pipeline;
  for (let round = 0; round < ARRPC_CONFIG.rounds; round += 1) {
    const order: Peer[] = round % 2 === 0 ? ['companion', 'arrpc'] : ['arrpc', 'companion'];
    deps.ctx.progress(`arrpc: round ${round + 1} of ${ARRPC_CONFIG.rounds} (${order.join(' first, then ')})`);
    rounds.push(await new Round(deps, round, order).run());
  }
  const summary = summarizeRounds(rounds.map((r) => r.figures));
  const integrity = (peer: Peer): Integrity => {
    const total = emptyIntegrity();
    for (const round of rounds) tallyInto(total, round.integrity[peer]);
    return total;
  };
  process.stderr.write(`\nNode ${process.version}, Companion's platform ${ARRPC_CONFIG.platform}, servers ${deps.ctx.serverCpus === undefined ? 'unpinned' : `pinned to CPU ${deps.ctx.serverCpus}`}`);
  process.stderr.write(arrpcTable(summary, rounds.length, `${clients} x ${inFlight}`));
  return {
    rounds: rounds.length,
    note:
      'ratio: Companion / arRPC per round, median over rounds, [min, max]; better: which direction favours Companion; ahead: the median ratio is on the better side of 1 (p99: at most 1). ' +
      'Fresh servers every round, order alternating; arRPC with process scanning off and an empty game database, Companion with --no-game-detection; ' +
      `Companion's platform: ${ARRPC_CONFIG.platform}`,
    node: process.version,
    config: { ...ARRPC_CONFIG, handshakeSamples: deps.handshakeSamples, rttSamples: deps.rttSamples },
    enoughRounds: rounds.length >= 5,
    figures: summary,
    allAhead: FIGURES.every((figure) => figure.extra === true || summary[figure.key]?.ahead === true),
    integrity: { companion: integrity('companion'), arrpc: integrity('arrpc') },
    maxOtherProcessesCpuUtil: Math.max(0, ...rounds.map((r) => r.maxOtherProcessesCpuUtil)),
    byRound: rounds.map((r) => r.figures),
  };
}
