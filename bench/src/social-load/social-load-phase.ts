/**
 * The `social-load` phase (output key `socialLoad`; run only when named: `npm run bench --
 * social-load`): issue 25 §3's targets, the state's design before (`old`: the whole state in
 * memory, written as one JSON file 100 ms after a change) and now (`new`: SQLite, each change
 * committed on its own), side by side in one run, each on an emulator process of its own with
 * the rate limits raised.
 *
 * Each emulator gets BENCH_SOCIAL_DMS (100,000) DMs over BENCH_SOCIAL_USERS (100) DM channels
 * and BENCH_SOCIAL_LOBBY_MESSAGES (100,000) lobby messages over BENCH_SOCIAL_LOBBIES (10) server
 * lobbies, interleaved, through the HTTP API at a steady BENCH_SOCIAL_RATE (800) messages a
 * second (open loop: a send is not held back by the answers before it, up to
 * BENCH_SOCIAL_MAX_IN_FLIGHT (64) in flight; a design that cannot keep up falls behind the rate).
 * Reported: the emulator's RSS (peak, and BENCH_SOCIAL_AFTER_S (20) s after the sending), the
 * write cost per message (the emulator's CPU per message over the 1,000 DMs after the 1,000th
 * and over the 1,000 up to the 100,000th, with the DM latency there), and the DM send latency
 * under that load (p50/p99). A design whose RSS passes BENCH_SOCIAL_RSS_CEILING_MIB (2048) or
 * that runs longer than BENCH_SOCIAL_MAX_S (300) is stopped there, and the output says so.
 */
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gameToken } from '../lobby-phase.js';
import { admin, devLogin, pool, summarizeMs, type Emulator, type PlatformBenchContext } from '../platform-phases.js';
import { cpuSample, memorySample, round2 } from '../proc.js';
import { startServer } from '../servers.js';
import { envInt } from '../shared.js';

export const SOCIAL_CONFIG = {
  dms: envInt('BENCH_SOCIAL_DMS', 100_000),
  lobbyMessages: envInt('BENCH_SOCIAL_LOBBY_MESSAGES', 100_000),
  users: envInt('BENCH_SOCIAL_USERS', 100),
  lobbies: envInt('BENCH_SOCIAL_LOBBIES', 10),
  rate: envInt('BENCH_SOCIAL_RATE', 800),
  maxInFlight: envInt('BENCH_SOCIAL_MAX_IN_FLIGHT', 64),
  afterS: envInt('BENCH_SOCIAL_AFTER_S', 20),
  rssCeilingMiB: envInt('BENCH_SOCIAL_RSS_CEILING_MIB', 2048),
  maxSeconds: envInt('BENCH_SOCIAL_MAX_S', 300),
};

/** Issue 25 §3's targets for the new design. */
export const SOCIAL_TARGETS = { peakRssMiB: 250, afterRssMiB: 150, writeCostRatioMax: 1.5, dmP99Ms: 5 };

/** The rate limits raised (--limits) so the load is not refused; the caps stay as they are. */
const RAISED = { count: 1_000_000_000, windowMs: 1000 };
const SOCIAL_LIMITS = { http: { messageCreate: RAISED, lobbyMessage: RAISED, devLogin: RAISED, lobbyJoin: RAISED, botRequests: RAISED } };
const APP_ID = '1234567890123456789';
const MARK_EVERY = 1000;

type Design = 'old' | 'new';

interface Target {
  readonly url: string;
  readonly auth: string;
}

interface Workload {
  readonly dms: readonly Target[];
  readonly lobbies: readonly Target[];
}

/** The emulator's CPU, RSS and the time when the n-th DM was answered. */
interface Mark {
  readonly dms: number;
  readonly messages: number;
  readonly cpuMs: number;
  readonly rssMiB: number;
  readonly atMs: number;
}

async function startSocialEmulator(ctx: PlatformBenchContext, design: Design): Promise<Emulator> {
  const base = path.join(ctx.tmpRoot, `social-${design}`);
  const data = path.join(base, 'data');
  await mkdir(data, { recursive: true, mode: 0o700 });
  const argv = [path.join(ctx.here, 'social-load', 'social-runner.js'), design, data, JSON.stringify(SOCIAL_LIMITS)];
  const server = await startServer(`social-${design}`, argv, path.join(base, 'out.log'), { cpus: ctx.serverCpus });
  const runtime = JSON.parse(await readFile(path.join(data, 'platform.json'), 'utf8')) as { adminToken: string };
  const url = server.socketPath;
  return { server, url, gatewayUrl: `${url.replace(/^http/, 'ws')}/gateway`, adminToken: runtime.adminToken, how: `bench/src/social-load/social-runner.ts ${design}, limits ${JSON.stringify(SOCIAL_LIMITS)}` };
}

async function post<T>(url: string, auth: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 200)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Users in a ring of DM channels (each user and the next), and server lobbies whose first member's game sends. */
async function prepare(emulator: Emulator): Promise<Workload> {
  const names = Array.from({ length: SOCIAL_CONFIG.users }, (_, i) => `social_${i}`);
  const ids = await pool(names, 8, async (name) => (await admin<{ id: string }>(emulator, 'POST', '/_emulator/users', { username: name })).id);
  const tokens = await pool(names, 8, (name) => devLogin(emulator, name));
  const dms = await pool(names, 8, async (_, i) => {
    const token = tokens[i] as string;
    const channel = await post<{ id: string }>(`${emulator.url}/api/v10/users/@me/channels`, token, { recipient_id: ids[(i + 1) % ids.length] });
    return { url: `${emulator.url}/api/v10/channels/${channel.id}/messages`, auth: token };
  });
  const apps = await admin<{ id: string; bot_token: string }[]>(emulator, 'GET', '/_emulator/apps');
  const bot = `Bot ${apps.find((app) => app.id === APP_ID)?.bot_token ?? ''}`;
  const perLobby = Math.max(1, Math.floor(ids.length / SOCIAL_CONFIG.lobbies));
  const lobbies = await pool(
    Array.from({ length: SOCIAL_CONFIG.lobbies }, (_, i) => i),
    4,
    async (n) => {
      const members = ids.slice(n * perLobby, n * perLobby + Math.min(perLobby, 25)).map((id) => ({ id }));
      const lobby = await post<{ id: string }>(`${emulator.url}/api/v10/lobbies`, bot, { members });
      const sender = `Bearer ${await gameToken(emulator, tokens[n * perLobby] as string)}`;
      return { url: `${emulator.url}/api/v10/lobbies/${lobby.id}/messages`, auth: sender };
    },
  );
  return { dms, lobbies };
}

/** One design's run: the load, the marks taken on the way, and why it stopped early if it did. */
class SocialRun {
  readonly latencies: number[] = [];
  readonly marks: Mark[] = [];
  dmsSent = 0;
  lobbySent = 0;
  dmsAnswered = 0;
  lobbyAnswered = 0;
  failures = 0;
  stopped: string | null = null;
  private readonly t0 = performance.now();

  constructor(
    private readonly pid: number,
    private readonly workload: Workload,
  ) {}

  get done(): boolean {
    return this.stopped !== null || (this.dmsSent >= SOCIAL_CONFIG.dms && this.lobbySent >= SOCIAL_CONFIG.lobbyMessages);
  }

  /** Sends at the configured rate until done, at most `maxInFlight` unanswered. */
  async drive(): Promise<void> {
    this.mark();
    const watch = setInterval(() => this.watch(), 250);
    const inFlight = new Set<Promise<void>>();
    try {
      while (!this.done) {
        const due = Math.floor((this.elapsedMs() / 1000) * SOCIAL_CONFIG.rate);
        while (this.dmsSent + this.lobbySent < due && !this.done && inFlight.size < SOCIAL_CONFIG.maxInFlight) {
          const sending: Promise<void> = this.sendNext().finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await Promise.all(inFlight);
    } finally {
      clearInterval(watch);
    }
  }

  elapsedMs(): number {
    return performance.now() - this.t0;
  }

  /** A DM or a lobby message, keeping the two in proportion. */
  private sendNext(): Promise<void> {
    const dmTurn = this.lobbySent >= SOCIAL_CONFIG.lobbyMessages || (this.dmsSent < SOCIAL_CONFIG.dms && this.dmsSent * SOCIAL_CONFIG.lobbyMessages <= this.lobbySent * SOCIAL_CONFIG.dms);
    return dmTurn ? this.sendDm() : this.sendLobbyMessage();
  }

  private async sendDm(): Promise<void> {
    const n = this.dmsSent++;
    const target = this.workload.dms[n % this.workload.dms.length] as Target;
    const started = performance.now();
    if (!(await send(target, `dm ${n} from the social-load bench`))) return void (this.failures += 1);
    this.latencies.push(performance.now() - started);
    this.dmsAnswered += 1;
    if (this.dmsAnswered % MARK_EVERY === 0) this.mark();
  }

  private async sendLobbyMessage(): Promise<void> {
    const n = this.lobbySent++;
    const target = this.workload.lobbies[n % this.workload.lobbies.length] as Target;
    if (await send(target, `lobby message ${n} from the social-load bench`)) this.lobbyAnswered += 1;
    else this.failures += 1;
  }

  private mark(): void {
    const sample = this.sample();
    if (sample !== undefined) this.marks.push({ dms: this.dmsAnswered, messages: this.dmsAnswered + this.lobbyAnswered, ...sample, atMs: this.elapsedMs() });
  }

  /** The emulator's CPU and RSS, or undefined (and the run stopped) when it is gone. */
  private sample(): { cpuMs: number; rssMiB: number } | undefined {
    try {
      return { cpuMs: cpuSample(this.pid).ms, rssMiB: memorySample(this.pid).rssMiB };
    } catch {
      this.stopped ??= `the emulator exited after ${this.dmsAnswered} DMs`;
      return undefined;
    }
  }

  private watch(): void {
    const rss = this.sample()?.rssMiB;
    if (rss === undefined) return;
    if (rss > SOCIAL_CONFIG.rssCeilingMiB) this.stopped ??= `RSS ${rss} MiB passed the ceiling of ${SOCIAL_CONFIG.rssCeilingMiB} MiB after ${this.dmsAnswered} DMs`;
    else if (this.elapsedMs() > SOCIAL_CONFIG.maxSeconds * 1000) this.stopped ??= `still sending after ${SOCIAL_CONFIG.maxSeconds} s (${this.dmsAnswered} DMs answered)`;
  }
}

/**
 * The load generator's connections: kept alive, as many as may be in flight. `http.request` and
 * not `fetch`: with fetch, the generator's own work showed up in the sends it measured (2026-11-28,
 * 20,000 DMs + 20,000 lobby messages, new design: p50 0.60 / p99 12.65 ms with fetch, 0.42 / 2.36 ms
 * with http.request, while the emulator's own time for a DM stayed p99 0.5 ms).
 */
const AGENT = new Agent({ keepAlive: true, maxSockets: SOCIAL_CONFIG.maxInFlight });

function send(target: Target, content: string): Promise<boolean> {
  const body = JSON.stringify({ content });
  return new Promise((resolve) => {
    const sending = request(target.url, { method: 'POST', agent: AGENT, headers: { authorization: target.auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode !== undefined && response.statusCode < 300));
      response.on('error', () => resolve(false));
    });
    sending.on('error', () => resolve(false));
    sending.end(body);
  });
}

/** The emulator's CPU per message (DMs and lobby messages) and the DM latency over the 1,000 DMs that end at `endDms`. */
function writeCostAt(run: SocialRun, endDms: number): Record<string, number> | null {
  const end = run.marks.find((mark) => mark.dms === endDms);
  const start = run.marks.find((mark) => mark.dms === endDms - MARK_EVERY);
  if (end === undefined || start === undefined || end.messages === start.messages) return null;
  const window = run.latencies.slice(endDms - MARK_EVERY, endDms);
  return {
    endDm: endDms,
    emulatorCpuUsPerMessage: round2(((end.cpuMs - start.cpuMs) * 1000) / (end.messages - start.messages)),
    dmMeanMs: round2(window.reduce((a, b) => a + b, 0) / Math.max(1, window.length)),
  };
}

/** The emulator's memory, NaN once it is gone. */
function safeMemory(pid: number): { rssMiB: number; hwmMiB: number } {
  try {
    return memorySample(pid);
  } catch {
    return { rssMiB: NaN, hwmMiB: NaN };
  }
}

async function dirMiB(dir: string): Promise<number> {
  let bytes = 0;
  for (const name of await readdir(dir)) bytes += (await stat(path.join(dir, name))).size;
  return round2(bytes / 1024 / 1024);
}

async function runDesign(ctx: PlatformBenchContext, design: Design): Promise<Record<string, unknown>> {
  const emulator = await startSocialEmulator(ctx, design);
  const pid = emulator.server.pid;
  try {
    const workload = await prepare(emulator);
    const idle = memorySample(pid).rssMiB;
    ctx.progress(`social-load ${design}: ${workload.dms.length} DM channels, ${workload.lobbies.length} lobbies; sending`);
    const run = new SocialRun(pid, workload);
    await run.drive();
    const sendingS = run.elapsedMs() / 1000;
    const peak = safeMemory(pid);
    ctx.progress(`social-load ${design}: ${run.dmsAnswered} DMs, ${run.lobbyAnswered} lobby messages in ${round2(sendingS)} s${run.stopped === null ? '' : ` (stopped: ${run.stopped})`}; waiting ${SOCIAL_CONFIG.afterS} s`);
    await new Promise((resolve) => setTimeout(resolve, SOCIAL_CONFIG.afterS * 1000));
    const after = safeMemory(pid).rssMiB;
    const lastWindow = Math.floor(run.dmsAnswered / MARK_EVERY) * MARK_EVERY;
    const early = writeCostAt(run, 2 * MARK_EVERY);
    const late = writeCostAt(run, lastWindow);
    return {
      emulator: emulator.how,
      stopped: run.stopped,
      answered: { dms: run.dmsAnswered, lobbyMessages: run.lobbyAnswered, failures: run.failures },
      sendingS: round2(sendingS),
      offeredPerS: SOCIAL_CONFIG.rate,
      messagesPerS: round2((run.dmsAnswered + run.lobbyAnswered) / sendingS),
      rssMiB: { idle, peak: peak.hwmMiB, atEnd: peak.rssMiB, [`after${SOCIAL_CONFIG.afterS}s`]: after },
      dmSend: summarizeMs(run.latencies),
      writeCost: { early, late, lateOverEarly: early === null || late === null ? null : round2((late.emulatorCpuUsPerMessage ?? 0) / (early.emulatorCpuUsPerMessage ?? 1)) },
      rssEvery10kDms: run.marks.filter((mark) => mark.dms % 10_000 === 0).map((mark) => [mark.dms, mark.rssMiB]),
      stateOnDiskMiB: await dirMiB(path.join(ctx.tmpRoot, `social-${design}`, 'data')),
    };
  } finally {
    await emulator.server.stop().catch(() => undefined);
  }
}

/** What the emulator measured itself (social-runner.ts), or null if it could not write it. */
async function serverTiming(ctx: PlatformBenchContext, design: Design): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path.join(ctx.tmpRoot, `social-${design}`, 'server-timing.json'), 'utf8')) as unknown;
  } catch {
    return null;
  }
}

function verdict(result: Record<string, unknown>): Record<string, boolean | null> {
  const rss = result.rssMiB as Record<string, number>;
  const cost = result.writeCost as { lateOverEarly: number | null };
  const dm = result.dmSend as { p99Ms: number } | null;
  return {
    complete: result.stopped === null,
    peakRss: (rss.peak ?? Infinity) <= SOCIAL_TARGETS.peakRssMiB,
    rssAfter: (rss[`after${SOCIAL_CONFIG.afterS}s`] ?? Infinity) <= SOCIAL_TARGETS.afterRssMiB,
    writeCostFlat: cost.lateOverEarly === null ? null : cost.lateOverEarly <= SOCIAL_TARGETS.writeCostRatioMax,
    dmP99: dm === null ? null : dm.p99Ms <= SOCIAL_TARGETS.dmP99Ms,
  };
}

export async function socialLoadPhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const designs: Record<string, Record<string, unknown>> = {};
  for (const design of ['new', 'old'] as const) {
    designs[design] = await runDesign(ctx, design);
    designs[design].emulatorSide = await serverTiming(ctx, design);
    designs[design].targets = verdict(designs[design]);
  }
  return { config: SOCIAL_CONFIG, limits: SOCIAL_LIMITS, targets: SOCIAL_TARGETS, designs };
}
