/**
 * The platform side of `npm run bench` (phases `presence`, `fanout`, `embedded-rss`; the
 * `platformSide` key of the output: `platform` already holds the OS description):
 *
 * - presence: a game's SET_ACTIVITY on host A (`companion serve --platform URL --user NAME`,
 *   own process) to a friend's raw gateway client (bob) receiving PRESENCE_UPDATE. Real
 *   limits everywhere: each host sends at most one game-activity update per
 *   BENCH_PRESENCE_PERIOD_MS (4.2 s: 5 in 21 s, under the relay's 5 per 20.25 s and the
 *   emulator's 5 per 20 s), so the relay never holds one back; samples come from several
 *   host/game pairs at once (staggered), and a clear (SET_ACTIVITY null, not a game-activity
 *   update for the limit) is sampled half-way between two updates.
 * - fanout: one emulator with 200 users connected over the gateway; BENCH_FANOUT_BROADCASTERS
 *   of them are friends with everyone, the others only with the broadcasters. The broadcasters
 *   take turns sending op 3 (each one at most every 4.2 s: the real limit again); each update
 *   is timed from the send to the last of its 199 deliveries. Emulator CPU per delivered
 *   message, RSS with 200 sessions.
 * - embedded-rss: idle RSS of `companion serve` (embedded emulator, signed in as alice) against
 *   `companion serve --platform <external emulator> --user alice`, fresh processes per repeat,
 *   measured after BENCH_IDLE_SETTLE_MS without forcing gc; medians.
 *
 * Every process gets its own XDG_CONFIG_HOME and --data/--data-dir/--runtime-dir under the
 * bench's temp dir. Emulators and hosts run on the server CPU, the clients in the bench process.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PresenceUpdateCommand, WireActivity } from '../../platform/src/wire/index.js';
import { GatewayClient } from './gateway-client.js';
import { IpcGame } from './ipc-game.js';
import { cpuSample, machineSample, memorySample, round2, type MemorySample } from './proc.js';
import { startServer, type ServerProcess } from './servers.js';
import { ACTIVITY, CLIENT_ID, envInt } from './shared.js';

export interface PlatformBenchContext {
  /** The repository root. */
  readonly root: string;
  /** out/bench/src */
  readonly here: string;
  /** The bench's temp dir: every process gets its directories under it. */
  readonly tmpRoot: string;
  /** taskset CPU list for servers (emulators and hosts), undefined: no pinning. */
  readonly serverCpus: string | undefined;
  readonly progress: (message: string) => void;
}

export const PLATFORM_CONFIG = {
  presenceHosts: envInt('BENCH_PRESENCE_HOSTS', 8),
  presenceDurationMs: envInt('BENCH_PRESENCE_MS', 50_000),
  presencePeriodMs: envInt('BENCH_PRESENCE_PERIOD_MS', 4200),
  fanoutUsers: envInt('BENCH_FANOUT_USERS', 200),
  fanoutBroadcasters: envInt('BENCH_FANOUT_BROADCASTERS', 20),
  fanoutDurationMs: envInt('BENCH_FANOUT_MS', 30_000),
  fanoutPeriodMs: envInt('BENCH_PRESENCE_PERIOD_MS', 4200),
  idleRepeats: Math.max(1, envInt('BENCH_IDLE_REPEATS', 5)),
  idleSettleMs: envInt('BENCH_IDLE_SETTLE_MS', 5000),
};

export const PLATFORM_TARGETS = { presenceP50MaxMs: 5, embeddedIdleRssMaxExtraMiB: 30 };

/** The emulator's dev login allows 10 per 60 s per IP: bob plus one per host. */
const DEV_LOGIN_LIMIT = 10;
/** The limits the fan-out emulator runs with: only the dev login is raised (200 sign-ins), off the measured path. */
export const FANOUT_EMULATOR_LIMITS = { http: { devLogin: { count: 100_000, windowMs: 60_000 } } };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const sleepUntil = (at: number): Promise<void> => sleep(at - performance.now());

// ---- processes

interface Dirs {
  readonly xdg: string;
  readonly data: string;
  readonly run: string;
  readonly log: string;
}

/** A private XDG_CONFIG_HOME, data dir and runtime dir for one process. */
async function dirsFor(ctx: PlatformBenchContext, name: string): Promise<Dirs> {
  const base = path.join(ctx.tmpRoot, name);
  const dirs = { xdg: path.join(base, 'xdg'), data: path.join(base, 'data'), run: path.join(base, 'run'), log: path.join(base, 'out.log') };
  for (const dir of [dirs.xdg, dirs.data, dirs.run]) await mkdir(dir, { recursive: true, mode: 0o700 });
  return dirs;
}

export interface Emulator {
  readonly server: ServerProcess;
  readonly url: string;
  readonly gatewayUrl: string;
  readonly adminToken: string;
  readonly how: string;
}

/** `companion platform serve` (real limits), or the bench's runner with `limits`. */
export async function startEmulator(ctx: PlatformBenchContext, name: string, limits?: Readonly<Record<string, unknown>>): Promise<Emulator> {
  const dirs = await dirsFor(ctx, name);
  const argv =
    limits === undefined
      ? [path.join(ctx.root, 'bin/companion.js'), 'platform', 'serve', '--port', '0', '--data', dirs.data]
      : [path.join(ctx.here, 'platform-runner.js'), dirs.data, JSON.stringify(limits)];
  const server = await startServer(name, argv, dirs.log, { cpus: ctx.serverCpus, env: { XDG_CONFIG_HOME: dirs.xdg } });
  const url = server.socketPath;
  const runtime = JSON.parse(await readFile(path.join(dirs.data, 'platform.json'), 'utf8')) as { adminToken: string };
  return {
    server,
    url,
    gatewayUrl: `${url.replace(/^http/, 'ws')}/gateway`,
    adminToken: runtime.adminToken,
    how: limits === undefined ? 'companion platform serve (default limits)' : `bench/src/platform-runner.ts, limits ${JSON.stringify(limits)}`,
  };
}

/**
 * The bench's games all run in its own process (worker threads), where the real ones are one
 * program each: the host lets one program hold as many connections as it takes in all.
 */
export const ONE_PROCESS_MANY_GAMES = ['--max-connections-per-program', '1024'] as const;

/** `companion serve` with its own dirs; `extra` e.g. ['--platform', url, '--user', name]; `nodeFlags` go to node itself. */
export async function startHost(ctx: PlatformBenchContext, name: string, extra: readonly string[] = [], nodeFlags: readonly string[] = []): Promise<ServerProcess> {
  const dirs = await dirsFor(ctx, name);
  return startServer(
    name,
    [...nodeFlags, path.join(ctx.root, 'bin/companion.js'), 'serve', '--runtime-dir', dirs.run, '--data-dir', dirs.data, ...ONE_PROCESS_MANY_GAMES, ...extra],
    dirs.log,
    { cpus: ctx.serverCpus, env: { XDG_CONFIG_HOME: dirs.xdg } },
  );
}

async function stopAll(servers: readonly (ServerProcess | undefined)[]): Promise<void> {
  await Promise.all(servers.map((server) => server?.stop().catch(() => undefined)));
}

// ---- HTTP

async function http<T>(base: string, method: string, route: string, body?: unknown, auth?: string): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(auth === undefined ? {} : { authorization: auth }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 200)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export const devLogin = async (emulator: Emulator, login: string): Promise<string> =>
  (await http<{ token: string }>(emulator.url, 'POST', '/api/v10/auth/login', { login })).token;

export const admin = <T>(emulator: Emulator, method: string, route: string, body?: unknown): Promise<T> =>
  http<T>(emulator.url, method, route, body, `Admin ${emulator.adminToken}`);

export async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return results;
}

// ---- figures

export interface MsSummary {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

export function summarizeMs(values: readonly number[]): MsSummary | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => round2(sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))] as number);
  return {
    samples: n,
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    meanMs: round2(values.reduce((a, b) => a + b, 0) / n),
    minMs: round2(sorted[0] as number),
    maxMs: round2(sorted[n - 1] as number),
  };
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return round2(sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

/** CPU of the given processes and of the bench, and of everything else on the machine, over a window. */
class NoiseWindow {
  private readonly machine0 = machineSample();
  private readonly self0 = process.cpuUsage();
  private readonly cpu0: number[];
  private readonly t0 = performance.now();

  constructor(private readonly pids: readonly number[]) {
    this.cpu0 = pids.map((pid) => cpuSample(pid).ms);
  }

  end(): { windowS: number; serversCpuUtil: number; benchProcessCpuUtil: number; otherProcessesCpuUtil: number } {
    const windowMs = performance.now() - this.t0;
    const servers = this.pids.reduce((sum, pid, i) => sum + cpuSample(pid).ms - (this.cpu0[i] as number), 0);
    const self = process.cpuUsage(this.self0);
    const selfMs = (self.user + self.system) / 1000;
    const busy = machineSample().busyMs - this.machine0.busyMs;
    return {
      windowS: round2(windowMs / 1000),
      serversCpuUtil: round2(servers / windowMs),
      benchProcessCpuUtil: round2(selfMs / windowMs),
      otherProcessesCpuUtil: round2(Math.max(0, busy - servers - selfMs) / windowMs),
    };
  }
}

/** A game activity as the relay sends it (application_id set: counts against the game-activity limit). */
function gatewayActivity(state: string): WireActivity {
  return {
    name: 'Companion Bench Game',
    type: 0,
    application_id: CLIENT_ID,
    state,
    details: ACTIVITY.details,
    timestamps: { start: ACTIVITY.timestamps.start },
    assets: { ...ACTIVITY.assets },
    party: { id: ACTIVITY.party.id, size: [1, 4] },
    buttons: ACTIVITY.buttons.map((button) => ({ ...button })),
  };
}

// ---- 1. presence latency

interface PresenceUpdate {
  readonly user: { readonly id: string };
  readonly status: string;
  readonly activities: readonly { readonly state?: string }[];
}

interface Waiter {
  readonly match: (update: PresenceUpdate) => boolean;
  readonly resolve: (at: number) => void;
}

export async function presencePhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const { presenceHosts: hostCount, presenceDurationMs: durationMs, presencePeriodMs: periodMs } = PLATFORM_CONFIG;
  if (hostCount < 1 || hostCount > DEV_LOGIN_LIMIT - 1) {
    throw new Error(`BENCH_PRESENCE_HOSTS must be 1..${DEV_LOGIN_LIMIT - 1}: each host signs in with the dev login (10 per 60 s), bob too`);
  }
  let emulator: Emulator | undefined;
  const hosts: ServerProcess[] = [];
  const games: IpcGame[] = [];
  let bob: GatewayClient | undefined;
  try {
    emulator = await startEmulator(ctx, 'presence-emulator');
    const em = emulator;
    ctx.progress(`presence: emulator pid ${em.server.pid} at ${em.url}`);
    // Host users: alice (host A, seeded friend of bob) and created users, each a friend of bob only.
    const names = ['alice', ...Array.from({ length: hostCount - 1 }, (_, i) => `bench_host_${i + 1}`)];
    for (const name of names.slice(1)) {
      await admin(em, 'POST', '/_emulator/users', { username: name });
      await admin(em, 'POST', '/_emulator/friends', { a: name, b: 'bob' });
    }
    const users = await admin<{ id: string; username: string }[]>(em, 'GET', '/_emulator/users');
    const idOf = new Map(users.map((user) => [user.username, user.id]));
    const hostIds = names.map((name) => {
      const id = idOf.get(name);
      if (id === undefined) throw new Error(`user ${name} not found on the emulator`);
      return id;
    });

    // B: bob's raw gateway session.
    const online = new Set<string>();
    const waiters = new Map<string, Waiter>();
    let unmatched = 0;
    bob = new GatewayClient({
      url: em.gatewayUrl,
      token: await devLogin(em, 'bob'),
      onPresence: (text, at) => {
        const update = JSON.parse(text) as { d: PresenceUpdate };
        const d = update.d;
        if (d.status === 'offline') online.delete(d.user.id);
        else online.add(d.user.id);
        const waiter = waiters.get(d.user.id);
        if (waiter !== undefined && waiter.match(d)) {
          waiters.delete(d.user.id);
          waiter.resolve(at);
        } else if (waiter !== undefined) unmatched += 1;
      },
    });
    for (const id of (await bob.ready).onlineFriends) online.add(id);

    // Hosts, each signed in as its user through the dev login, each with one game.
    hosts.push(
      ...(await pool(names, 4, (name, i) => startHost(ctx, `presence-host-${i}`, ['--platform', em.url, '--user', name]))),
    );
    ctx.progress(`presence: ${hosts.length} hosts up (pids ${hosts.map((h) => h.pid).join(', ')}), waiting for them online at bob`);
    const onlineBy = performance.now() + 20_000;
    while (!hostIds.every((id) => online.has(id))) {
      if (performance.now() > onlineBy) throw new Error(`hosts not online at bob after 20 s: ${hostIds.filter((id) => !online.has(id)).length} missing`);
      await sleep(50);
    }
    games.push(...(await Promise.all(hosts.map((host) => IpcGame.connect(host.socketPath)))));

    const game: number[] = [];
    const clear: number[] = [];
    const rpcReply: number[] = [];
    let timeouts = 0;
    let lateOver1s = 0;
    let skippedSlots = 0;

    /** Sends one SET_ACTIVITY and resolves with the latency to bob's PRESENCE_UPDATE (null: timed out). */
    const sample = async (i: number, activity: Record<string, unknown> | null, match: (u: PresenceUpdate) => boolean): Promise<number | null> => {
      const hostId = hostIds[i] as string;
      let resolveArrival: (at: number) => void = () => undefined;
      const arrived = new Promise<number>((resolve) => (resolveArrival = resolve));
      waiters.set(hostId, { match, resolve: resolveArrival });
      const { sentAt, replied } = (games[i] as IpcGame).setActivity(activity);
      let timer: NodeJS.Timeout | undefined;
      const at = await Promise.race([arrived, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 10_000)))]);
      clearTimeout(timer);
      waiters.delete(hostId);
      void replied.then((t) => rpcReply.push(t - sentAt));
      if (at === null) {
        timeouts += 1;
        return null;
      }
      const ms = at - sentAt;
      if (ms > 1000) lateOver1s += 1;
      return ms;
    };

    ctx.progress(`presence: sampling for ${durationMs / 1000} s (${hostCount} hosts, one game-activity update per host every ${periodMs} ms)`);
    const noise = new NoiseWindow([em.server.pid, ...hosts.map((h) => h.pid)]);
    const start = performance.now() + 200;
    const end = start + durationMs;
    await Promise.all(
      hostIds.map(async (_id, i) => {
        const offset = (periodMs * i) / hostCount;
        let lastGameSend = -Infinity;
        for (let k = 0; ; k += 1) {
          const slot = start + offset + k * periodMs;
          if (slot >= end) break;
          const now = performance.now();
          // A slot missed (an earlier sample waited long) is skipped: never faster than the period
          // (less 100 ms for timer jitter; slots are absolute, so the jitter does not add up).
          if (now > slot + periodMs / 4 || slot - lastGameSend < periodMs - 100) {
            skippedSlots += 1;
            continue;
          }
          await sleepUntil(slot);
          lastGameSend = performance.now();
          const state = `presence h${i} #${k}`;
          const g = await sample(i, { ...ACTIVITY, state }, (u) => u.activities.some((a) => a.state === state));
          if (g !== null) game.push(g);
          await sleepUntil(slot + periodMs / 2);
          const c = await sample(i, null, (u) => u.status !== 'offline' && u.activities.length === 0);
          if (c !== null) clear.push(c);
        }
      }),
    );
    const window = noise.end();
    await sleep(100);
    const gameSummary = summarizeMs(game);
    return {
      setup:
        `emulator: ${em.how}, own process; ${hostCount} hosts \`companion serve --platform URL --user NAME\` (alice + bench_host_N, each a friend of bob), ` +
        'own processes, each with one game over discord-ipc (raw framing); B = bob as a raw gateway client in the bench process. ' +
        'Servers pinned to the server CPU, games and B on the other.',
      limits:
        `real: emulator 5 game-activity updates per 20 s per session, host relay 5 per 20.25 s; each host sends one game-activity ` +
        `update every ${periodMs} ms (hosts staggered by ${round2(periodMs / hostCount)} ms), and a clear half-way (not limited), so the relay never delays one`,
      measured: 'performance.now() before the SET_ACTIVITY frame is written to bob receiving the matching PRESENCE_UPDATE (same process, same clock)',
      gameActivity: gameSummary,
      clear: summarizeMs(clear),
      rpcReply: summarizeMs(rpcReply),
      timeouts,
      lateOver1s,
      skippedSlots,
      unmatchedPresenceUpdates: unmatched,
      noise: window,
    };
  } finally {
    for (const g of games) g.close();
    await bob?.close();
    await stopAll(hosts);
    await stopAll([emulator?.server]);
  }
}

// ---- 2. gateway fan-out

interface Pending {
  sentAt: number;
  readonly expected: number;
  count: number;
  first: number;
  last: number;
  readonly done: () => void;
}

export async function fanoutPhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const { fanoutUsers: n, fanoutBroadcasters: k, fanoutDurationMs: durationMs, fanoutPeriodMs: periodMs } = PLATFORM_CONFIG;
  if (n < 2 || k < 1 || k > n) throw new Error('BENCH_FANOUT_USERS must be >= 2 and BENCH_FANOUT_BROADCASTERS 1..users');
  let emulator: Emulator | undefined;
  const clients: GatewayClient[] = [];
  try {
    emulator = await startEmulator(ctx, 'fanout-emulator', FANOUT_EMULATOR_LIMITS);
    const em = emulator;
    ctx.progress(`fanout: emulator pid ${em.server.pid}; creating ${n} users, ${k} broadcasters friends with everyone`);
    const names = Array.from({ length: n }, (_, i) => `fan${String(i).padStart(3, '0')}`);
    await pool(names, 8, (name) => admin(em, 'POST', '/_emulator/users', { username: name }));
    const pairs: [string, string][] = [];
    for (let b = 0; b < k; b += 1) {
      for (let u = b + 1; u < n; u += 1) pairs.push([names[b] as string, names[u] as string]);
    }
    await pool(pairs, 8, ([a, b]) => admin(em, 'POST', '/_emulator/friends', { a, b }));
    const tokens = await pool(names, 8, (name) => devLogin(em, name));
    await sleep(500);
    const rssNoSessions = memorySample(em.server.pid);

    const pending = new Map<number, Pending>();
    let stray = 0;
    const onPresence = (text: string, at: number): void => {
      const marker = text.indexOf('"state":"fanout #');
      if (marker < 0) return;
      const j = Number.parseInt(text.slice(marker + 17, marker + 27), 10);
      const p = pending.get(j);
      if (p === undefined) {
        stray += 1;
        return;
      }
      p.count += 1;
      if (p.count === 1) p.first = at;
      p.last = at;
      if (p.count === p.expected) p.done();
    };
    ctx.progress(`fanout: connecting ${n} gateway sessions`);
    const tConnect = performance.now();
    clients.push(...names.map((_, i) => new GatewayClient({ url: em.gatewayUrl, token: tokens[i] as string, onPresence, timeoutMs: 30_000 })));
    await pool(clients, 20, (client) => client.ready);
    const connectMs = performance.now() - tConnect;
    await sleep(2000);
    const rssWithSessions = memorySample(em.server.pid);
    const sessions = await admin<unknown[]>(em, 'GET', '/_emulator/sessions');

    ctx.progress(`fanout: ${sessions.length} sessions, ${rssWithSessions.rssMiB} MiB; sampling for ${durationMs / 1000} s`);
    const toLast: number[] = [];
    const toFirst: number[] = [];
    let incomplete = 0;
    let delivered = 0;
    let updates = 0;
    const interval = periodMs / k;
    const noise = new NoiseWindow([em.server.pid]);
    const cpu0 = cpuSample(em.server.pid);
    const elu0 = performance.eventLoopUtilization();
    const start = performance.now() + 100;
    for (let j = 0; ; j += 1) {
      const slot = start + j * interval;
      if (slot >= start + durationMs) break;
      await sleepUntil(slot);
      const broadcaster = clients[j % k] as GatewayClient;
      if (!broadcaster.open) throw new Error(`broadcaster ${j % k} disconnected (close ${String(broadcaster.closeCode)})`);
      let done: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const presence: PresenceUpdateCommand = { since: null, activities: [gatewayActivity(`fanout #${j}`)], status: 'online', afk: false };
      const entry: Pending = { sentAt: 0, expected: n - 1, count: 0, first: 0, last: 0, done };
      pending.set(j, entry);
      entry.sentAt = broadcaster.sendPresence(presence);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      pending.delete(j);
      updates += 1;
      delivered += entry.count;
      if (entry.count < entry.expected) {
        incomplete += 1;
        continue;
      }
      toLast.push(entry.last - entry.sentAt);
      toFirst.push(entry.first - entry.sentAt);
    }
    const cpuMs = cpuSample(em.server.pid).ms - cpu0.ms;
    const elu = performance.eventLoopUtilization(elu0);
    const window = noise.end();
    const rssAfter = memorySample(em.server.pid);
    const dropped = clients.filter((client) => !client.open).length;
    const friendships = pairs.length;
    return {
      setup:
        `emulator: ${em.how}, own process, server CPU; ${n} users connected over the gateway from the bench process ` +
        `(raw ws clients, one thread, other CPU)`,
      friendshipGraph: `${k} broadcasters, each a friend of all ${n - 1} other users (${friendships} friendships; others have ${k} friends each); every update reaches ${n - 1} sessions`,
      limits: `real gateway limits (5 game-activity updates per 20 s per session, 120 payloads per 60 s): the ${k} broadcasters take turns, each at most every ${periodMs} ms (one update every ${round2(interval)} ms); only the dev login limit is raised, for the ${n} sign-ins`,
      measured: 'performance.now() before op 3 is sent to the last (and first) of the deliveries of its PRESENCE_UPDATE; updates do not overlap',
      users: n,
      sessions: sessions.length,
      connectMs: round2(connectMs),
      updates,
      deliveriesPerUpdate: n - 1,
      toLastDelivery: summarizeMs(toLast),
      toFirstDelivery: summarizeMs(toFirst),
      incompleteUpdates: incomplete,
      strayDeliveries: stray,
      droppedConnections: dropped,
      emulatorCpuMs: round2(cpuMs),
      emulatorCpuUsPerDeliveredMessage: delivered > 0 ? round2((cpuMs * 1000) / delivered) : null,
      emulatorCpuMsPerUpdate: updates > 0 ? round2(cpuMs / updates) : null,
      clientsEventLoopUtilization: round2(elu.utilization),
      emulatorRssMiB: {
        usersNoSessions: rssNoSessions.rssMiB,
        withSessions: rssWithSessions.rssMiB,
        afterRun: rssAfter.rssMiB,
        peak: rssAfter.hwmMiB,
        perSessionKiB: round2(((rssWithSessions.rssMiB - rssNoSessions.rssMiB) * 1024) / n),
      },
      noise: window,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await stopAll([emulator?.server]);
  }
}

// ---- 3. idle RSS: embedded emulator vs --platform

export async function embeddedRssPhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const { idleRepeats: repeats, idleSettleMs: settleMs } = PLATFORM_CONFIG;
  if (repeats > DEV_LOGIN_LIMIT) throw new Error(`BENCH_IDLE_REPEATS must be at most ${DEV_LOGIN_LIMIT} (dev login limit of the external emulator)`);
  let emulator: Emulator | undefined;
  try {
    emulator = await startEmulator(ctx, 'idle-emulator');
    const em = emulator;
    const embedded: MemorySample[] = [];
    const external: MemorySample[] = [];
    const diffs: number[] = [];
    for (let r = 0; r < repeats; r += 1) {
      let a: ServerProcess | undefined;
      let b: ServerProcess | undefined;
      try {
        [a, b] = await Promise.all([
          startHost(ctx, `idle-embedded-${r}`),
          startHost(ctx, `idle-external-${r}`, ['--platform', em.url, '--user', 'alice']),
        ]);
        await sleep(settleMs);
        const ma = memorySample(a.pid);
        const mb = memorySample(b.pid);
        embedded.push(ma);
        external.push(mb);
        diffs.push(round2(ma.rssMiB - mb.rssMiB));
        ctx.progress(`  repeat ${r + 1}: embedded ${ma.rssMiB} MiB, --platform ${mb.rssMiB} MiB`);
      } finally {
        await stopAll([a, b]);
      }
    }
    const medEmbedded = median(embedded.map((m) => m.rssMiB));
    const medExternal = median(external.map((m) => m.rssMiB));
    const diff = medEmbedded !== null && medExternal !== null ? round2(medEmbedded - medExternal) : null;
    return {
      setup:
        `\`companion serve\` (embedded emulator, signed in as alice) and \`companion serve --platform <${em.how}> --user alice\`, ` +
        `both started fresh side by side for each of ${repeats} repeats, own dirs, server CPU, no game connected; ` +
        `VmRSS ${settleMs} ms after "listening", gc not forced`,
      embeddedMiB: { median: medEmbedded, runs: embedded.map((m) => m.rssMiB), hwm: embedded.map((m) => m.hwmMiB) },
      externalPlatformMiB: { median: medExternal, runs: external.map((m) => m.rssMiB), hwm: external.map((m) => m.hwmMiB) },
      differenceMiB: { ofMedians: diff, medianOfPairs: median(diffs), pairs: diffs },
    };
  } finally {
    await stopAll([emulator?.server]);
  }
}

/** For the `rss` phase: a `companion serve --platform` host against its own external emulator. */
export async function startExternalPlatformHost(ctx: PlatformBenchContext): Promise<{ host: ServerProcess; emulator: Emulator; stop: () => Promise<void> }> {
  const emulator = await startEmulator(ctx, 'rss-emulator');
  try {
    const host = await startHost(ctx, 'rss-companion-external', ['--platform', emulator.url, '--user', 'alice']);
    return { host, emulator, stop: () => stopAll([host]).then(() => stopAll([emulator.server])) };
  } catch (error) {
    await stopAll([emulator.server]);
    throw error;
  }
}

/** Runs the selected platform phases; each one's failure is recorded and the others still run. */
/** A phase run with the platform ones, defined in its own module: phase name → [output key, phase]. */
export type ExtraPlatformPhases = Readonly<Record<string, readonly [string, (ctx: PlatformBenchContext) => Promise<Record<string, unknown>>]>>;

export async function runPlatformPhases(ctx: PlatformBenchContext, phases: ReadonlySet<string>, errors: string[], more: ExtraPlatformPhases = {}): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const run = async (phase: string, key: string, fn: (c: PlatformBenchContext) => Promise<Record<string, unknown>>): Promise<void> => {
    if (!phases.has(phase)) return;
    ctx.progress(`platform: ${phase}`);
    try {
      out[key] = await fn(ctx);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      errors.push(`platform/${phase}: ${message}`);
      ctx.progress(`  failed: ${message}`);
    }
  };
  await run('presence', 'presenceLatency', presencePhase);
  await run('fanout', 'fanout', fanoutPhase);
  await run('embedded-rss', 'idleRss', embeddedRssPhase);
  for (const [phase, [key, fn]] of Object.entries(more)) await run(phase, key, fn);
  const presenceP50 = (out.presenceLatency as { gameActivity?: MsSummary | null } | undefined)?.gameActivity?.p50Ms ?? null;
  const extra = ((out.idleRss as { differenceMiB?: { ofMedians: number | null } } | undefined)?.differenceMiB?.ofMedians) ?? null;
  return {
    config: PLATFORM_CONFIG,
    targets: {
      presenceP50: { p50Ms: presenceP50, maxMs: PLATFORM_TARGETS.presenceP50MaxMs, pass: presenceP50 !== null && presenceP50 < PLATFORM_TARGETS.presenceP50MaxMs },
      embeddedIdleRssExtra: {
        differenceMiB: extra,
        maxMiB: PLATFORM_TARGETS.embeddedIdleRssMaxExtraMiB,
        pass: extra !== null && extra <= PLATFORM_TARGETS.embeddedIdleRssMaxExtraMiB,
      },
    },
    ...out,
  };
}
