/**
 * The `ui-bridge` phase (output key `uiBridge`): what one open UI costs the host. A game sends
 * SET_ACTIVITY at BENCH_UI_BRIDGE_RATE (50) per second over discord-ipc, BENCH_UI_BRIDGE_FRIENDS
 * (5) friends each change their presence once a second through the emulator's gateway; the host
 * is `companion serve --platform <emulator> --user alice`. After a warm-up (BENCH_UI_BRIDGE_WARM_MS
 * without a UI, as long with one, as long without), BENCH_UI_BRIDGE_ROUNDS (3) rounds of: a
 * window of BENCH_UI_BRIDGE_MS (10000) without a UI; a UI opens on a screen other than the
 * inspector and, once it has been open BENCH_UI_BRIDGE_OPEN_MS (15000), a window with it; the UI
 * then shows the inspector (it renews its frame lease, so every frame is pushed) and, after
 * BENCH_UI_BRIDGE_SETTLE_MS, a window; the UI closes and the host settles as long as it took to
 * open before the next round. A last window without a UI ends the rounds. A UI is a raw WebSocket
 * bridge client (cookie, `companion:ready`, then every push counted in bytes). Reported for each
 * screen: bytes/s sent to the UI, host CPU with it (every window and the mean), its ratio to the
 * mean without; and the host's CPU in the first BENCH_UI_BRIDGE_OPEN_MS of each UI (`opening`).
 *
 * Why a UI is measured once it has been open a while: V8 drops optimised code that held objects
 * of a UI that went away ("weak objects") and the host's code for a UI is compiled again when the
 * next one opens. With perf on the host (2026-11-26), TurboFan's compiles were about 4 ms of CPU a
 * second over the first 30 s after a UI opened, against about 1 without one. A player's window
 * stays open for minutes; that one-time cost is reported apart, as `opening`.
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { BRIDGE_DEFLATE_PROTOCOL, INSPECTOR_RENEW_MS } from '../../preload/src/contract.js';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { PresenceUpdateCommand } from '../../platform/src/wire/index.js';
import { GatewayClient } from './gateway-client.js';
import { IpcGame } from './ipc-game.js';
import { startEmulator, startHost, type Emulator, type PlatformBenchContext } from './platform-phases.js';
import { cpuSample, round2 } from './proc.js';
import type { ServerProcess } from './servers.js';
import { ACTIVITY, envInt } from './shared.js';

export const UI_BRIDGE_CONFIG = {
  durationMs: envInt('BENCH_UI_BRIDGE_MS', 10_000),
  activityPerSec: envInt('BENCH_UI_BRIDGE_RATE', 50),
  friends: envInt('BENCH_UI_BRIDGE_FRIENDS', 5),
  settleMs: envInt('BENCH_UI_BRIDGE_SETTLE_MS', 2000),
  /** How long a UI is open before its window is measured, and how long the host settles after it closes. */
  openMs: envInt('BENCH_UI_BRIDGE_OPEN_MS', 15_000),
  /** Warm-up before measuring: this long without a UI, this long with one (on the inspector), and this long without again. */
  warmMs: envInt('BENCH_UI_BRIDGE_WARM_MS', 10_000),
  /** Rounds of a window without a UI and one with each screen (a last window without ends them). */
  rounds: envInt('BENCH_UI_BRIDGE_ROUNDS', 3),
};

export const UI_BRIDGE_TARGETS = { maxBytesPerSec: 50 * 1024, maxCpuRatio: 1.2 };

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function http<T>(base: string, method: string, route: string, body: unknown, auth: string): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 200)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A steady load: the game's SET_ACTIVITY stream and the friends' presence changes. */
class Load {
  private timers: NodeJS.Timeout[] = [];
  updates = 0;
  presences = 0;

  constructor(
    private readonly game: IpcGame,
    private readonly friends: readonly GatewayClient[],
  ) {}

  start(): void {
    this.timers.push(
      setInterval(() => {
        this.updates += 1;
        void this.game.setActivity({ ...ACTIVITY, state: `Score ${this.updates}` }).replied.catch(() => undefined);
      }, 1000 / UI_BRIDGE_CONFIG.activityPerSec),
    );
    this.friends.forEach((friend, i) => {
      const send = (): void => {
        this.presences += 1;
        const presence: PresenceUpdateCommand = {
          since: null,
          activities: [{ name: 'Friend Game', type: 0, state: `Round ${this.presences}` }],
          status: 'online',
          afk: false,
        };
        friend.sendPresence(presence);
      };
      // Staggered: one friend every 1000/n ms, each once a second.
      this.timers.push(setTimeout(() => this.timers.push(setInterval(send, 1000)), (1000 / this.friends.length) * i));
    });
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }
}

/**
 * What the UI shows: any screen but the inspector (frames stay in the host's ring), or the
 * inspector (it renews its `companion:watch-inspector` lease, as the page does, and every frame is pushed).
 */
type Screen = 'other' | 'inspector';

/** One UI: the web bridge as a page uses it (session cookie, `companion:ready`), counting what it receives. */
export class BridgeCounter {
  private watchTimer: NodeJS.Timeout | undefined;
  private nextId = 2;
  private lastSeq = 0;
  /** Bytes of the messages (JSON text). */
  textBytes = 0;
  pushes = 0;
  /** WebSocket messages that carried pushes (the pushes of one turn of the host's loop come as one). */
  messages = 0;
  readonly byChannel: Record<string, number> = {};
  private wire0 = 0;
  private constructor(
    private readonly ws: WebSocket,
    private readonly socket: { readonly bytesRead: number },
  ) {
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      const raw = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      // A binary message is the JSON text in raw DEFLATE (BRIDGE_DEFLATE_PROTOCOL), as the page gets it.
      const text = isBinary ? inflateRawSync(raw) : raw;
      this.textBytes += text.length;
      const message = JSON.parse(text.toString('utf8')) as { push?: string; payload?: unknown; pushes?: { push: string; payload: unknown }[] };
      const pushes = message.pushes ?? (message.push === undefined ? [] : [{ push: message.push, payload: message.payload }]);
      for (const push of pushes) {
        this.pushes += 1;
        // Per channel: the push's share of the text (as if it had come alone).
        this.byChannel[push.push] = (this.byChannel[push.push] ?? 0) + (pushes.length === 1 ? text.length : JSON.stringify(push).length);
        // As the page does: asks again from the newest frame it has.
        if (push.push === 'companion:frames') this.lastSeq = (push.payload as { seq: number }[]).at(-1)?.seq ?? this.lastSeq;
      }
      if (pushes.length > 0) this.messages += 1;
    });
  }

  static async open(baseUrl: string, token: string, screen: Screen = 'other'): Promise<{ counter: BridgeCounter; readyBytes: number }> {
    const opened = await fetch(`${baseUrl}?token=${token}`, { redirect: 'manual' });
    const cookie = opened.headers.get('set-cookie')?.split(';')[0];
    if (cookie === undefined) throw new Error(`no session cookie (${opened.status})`);
    const url = new URL(baseUrl);
    // Offers compressed messages, as the UI's page does.
    let socket: net.Socket | undefined;
    const ws = new WebSocket(`ws://${url.host}/bridge`, [BRIDGE_DEFLATE_PROTOCOL], {
      headers: { Cookie: cookie, Origin: `http://${url.host}` },
      createConnection: (options: object) => (socket = net.connect(options as net.NetConnectOpts)),
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (socket === undefined) throw new Error('no socket');
    const counter = new BridgeCounter(ws, socket);
    const answered = new Promise<number>((resolve) => ws.once('message', (data: WebSocket.RawData, isBinary: boolean) => resolve(isBinary ? inflateRawSync(data as Buffer).length : (data as Buffer).length)));
    ws.send(JSON.stringify({ id: 1, channel: 'companion:ready', args: [] }));
    const readyBytes = await answered;
    if (screen === 'inspector') counter.showInspector();
    counter.reset();
    return { counter, readyBytes };
  }

  /** Bytes read from the socket since the last reset. */
  wireBytes(): number {
    return this.socketBytes() - this.wire0;
  }

  private socketBytes(): number {
    return this.socket.bytesRead;
  }

  /** The UI shows the inspector: it asks for the frame lease now, and again every INSPECTOR_RENEW_MS. */
  showInspector(): void {
    const watch = (): void => this.ws.send(JSON.stringify({ id: this.nextId++, channel: 'companion:watch-inspector', args: [this.lastSeq] }));
    watch();
    this.watchTimer = setInterval(watch, INSPECTOR_RENEW_MS);
  }

  reset(): void {
    this.wire0 = this.socketBytes();
    this.textBytes = 0;
    this.pushes = 0;
    this.messages = 0;
    for (const key of Object.keys(this.byChannel)) delete this.byChannel[key];
  }

  close(): void {
    clearInterval(this.watchTimer);
    this.ws.close();
  }
}

/** One measured window with `ui` open: its CPU, bytes and pushes go to `windows`. */
async function measureUi(host: ServerProcess, ui: BridgeCounter, windows: UiWindows, readyBytes: number): Promise<void> {
  ui.reset();
  const t0 = performance.now();
  const cpu = await cpuWindow(host, UI_BRIDGE_CONFIG.durationMs);
  windows.add(cpu, (performance.now() - t0) / 1000, ui, readyBytes);
}

/** Host CPU (cores) over one window of the load. */
async function cpuWindow(host: ServerProcess, ms: number): Promise<number> {
  const t0 = performance.now();
  const cpu0 = cpuSample(host.pid).ms;
  await sleep(ms);
  return (cpuSample(host.pid).ms - cpu0) / (performance.now() - t0);
}

async function setUp(ctx: PlatformBenchContext, emulator: Emulator): Promise<{ friends: GatewayClient[] }> {
  const admin = (route: string, body: unknown): Promise<unknown> => http(emulator.url, 'POST', route, body, `Admin ${emulator.adminToken}`);
  const friends: GatewayClient[] = [];
  for (let i = 1; i <= UI_BRIDGE_CONFIG.friends; i += 1) {
    const name = `bench_friend_${i}`;
    await admin('/_emulator/users', { username: name });
    await admin('/_emulator/friends', { a: name, b: 'alice' });
    const login = await fetch(`${emulator.url}/api/v10/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: name }) });
    const { token } = (await login.json()) as { token: string };
    friends.push(new GatewayClient({ url: emulator.gatewayUrl, token }));
  }
  await Promise.all(friends.map((friend) => friend.ready));
  ctx.progress(`ui-bridge: ${friends.length} friends online`);
  return { friends };
}

/** The windows with one UI open on one screen: CPU, bytes and pushes, summed over the rounds. */
class UiWindows {
  private readonly cpu: number[] = [];
  private seconds = 0;
  private wireBytes = 0;
  private textBytes = 0;
  private pushes = 0;
  private messages = 0;
  private readyBytes = 0;
  private readonly byChannel: Record<string, number> = {};

  add(cpu: number, seconds: number, ui: BridgeCounter, readyBytes: number): void {
    this.cpu.push(cpu);
    this.seconds += seconds;
    this.wireBytes += ui.wireBytes();
    this.textBytes += ui.textBytes;
    this.pushes += ui.pushes;
    this.messages += ui.messages;
    this.readyBytes = readyBytes;
    for (const [channel, bytes] of Object.entries(ui.byChannel)) this.byChannel[channel] = (this.byChannel[channel] ?? 0) + bytes;
  }

  figures(meanWithout: number): Record<string, unknown> & { meetsTargets: boolean } {
    const bytesPerSec = this.wireBytes / this.seconds;
    const withUi = mean(this.cpu);
    const ratio = meanWithout > 0 ? withUi / meanWithout : null;
    return {
      bytesPerSec: Math.round(bytesPerSec),
      kiBPerSec: round2(bytesPerSec / 1024),
      /** Before compression (the JSON text of every push). */
      textBytesPerSec: Math.round(this.textBytes / this.seconds),
      textBytesPerSecByChannel: Object.fromEntries(Object.entries(this.byChannel).map(([channel, bytes]) => [channel, Math.round(bytes / this.seconds)])),
      pushesPerSec: round2(this.pushes / this.seconds),
      messagesPerSec: round2(this.messages / this.seconds),
      readyAnswerBytes: this.readyBytes,
      hostCpuWithUi: round4(withUi),
      hostCpuWithUiWindows: this.cpu.map(round4),
      cpuRatio: ratio === null ? null : round2(ratio),
      meetsTargets: bytesPerSec < UI_BRIDGE_TARGETS.maxBytesPerSec && ratio !== null && ratio <= UI_BRIDGE_TARGETS.maxCpuRatio,
    };
  }
}

export async function uiBridgePhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const { durationMs, settleMs, openMs, warmMs, rounds } = UI_BRIDGE_CONFIG;
  let emulator: Emulator | undefined;
  let host: ServerProcess | undefined;
  let game: IpcGame | undefined;
  let friends: GatewayClient[] = [];
  let load: Load | undefined;
  let ui: BridgeCounter | undefined;
  try {
    emulator = await startEmulator(ctx, 'ui-bridge-emulator');
    ({ friends } = await setUp(ctx, emulator));
    // BENCH_CPU_PROF=<dir>: the host under --cpu-prof into <dir>/ui-bridge-host (both windows, with and without the UI).
    const profDir = process.env.BENCH_CPU_PROF;
    const flags = profDir === undefined || profDir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.join(profDir, 'ui-bridge-host')}`];
    host = await startHost(ctx, 'ui-bridge-host', ['--platform', emulator.url, '--user', 'alice'], flags);
    const info = JSON.parse(await readFile(path.join(ctx.tmpRoot, 'ui-bridge-host', 'run', 'companion', 'host.json'), 'utf8')) as { webUi?: { url: string; token: string } };
    if (info.webUi === undefined) throw new Error('host.json has no webUi');
    game = await IpcGame.connect(host.socketPath);
    load = new Load(game, friends);
    load.start();
    ctx.progress(`ui-bridge: host pid ${host.pid}; ${UI_BRIDGE_CONFIG.activityPerSec} SET_ACTIVITY/s, ${friends.length} friends once a second`);
    // Warm-up: the host's code paths, with and without a UI, are compiled and its heap has
    // settled before anything is measured (the first windows of a fresh host measured 1.3-1.9x
    // its later ones, 2026-11-25, from tier-up compiles and heap growth).
    await sleep(settleMs);
    await sleep(warmMs);
    ui = (await BridgeCounter.open(info.webUi.url, info.webUi.token, 'inspector')).counter;
    await sleep(warmMs);
    ui.close();
    ui = undefined;
    // And without it again: the first measured window without a UI came out 20-50 % above the
    // later ones when it followed the UI's warm-up at once.
    await sleep(warmMs);
    // Measured: rounds of a window without a UI, one with a UI open on another screen, one with
    // the same UI showing the inspector; a last window without.
    const without: number[] = [];
    const opening: number[] = [];
    const other = new UiWindows();
    const inspector = new UiWindows();
    for (let round = 0; round < rounds; round += 1) {
      without.push(await cpuWindow(host, durationMs));
      const opened = await BridgeCounter.open(info.webUi.url, info.webUi.token, 'other');
      ui = opened.counter;
      opening.push(await cpuWindow(host, openMs));
      await measureUi(host, ui, other, opened.readyBytes);
      ui.showInspector();
      await sleep(settleMs);
      await measureUi(host, ui, inspector, opened.readyBytes);
      ui.close();
      ui = undefined;
      await sleep(openMs);
    }
    without.push(await cpuWindow(host, durationMs));
    const meanWithout = mean(without);
    const figures = { other: other.figures(meanWithout), inspector: inspector.figures(meanWithout) };
    return {
      config: UI_BRIDGE_CONFIG,
      targets: UI_BRIDGE_TARGETS,
      hostCpuWithoutUi: round4(meanWithout),
      hostCpuWithoutUiWindows: without.map(round4),
      /** The host's CPU over the first openMs of each UI (its code for a UI compiled again). */
      opening: { hostCpuWindows: opening.map(round4), cpuRatio: round2(mean(opening) / meanWithout) },
      /** The UI open on any screen but the inspector. */
      ...figures.other,
      /** The UI showing the inspector (every frame pushed). */
      inspector: figures.inspector,
      meetsTargets: figures.other.meetsTargets && figures.inspector.meetsTargets,
      load: { activityUpdates: load.updates, friendPresences: load.presences },
    };
  } finally {
    load?.stop();
    ui?.close();
    game?.close();
    for (const friend of friends) friend.close();
    await host?.stop().catch(() => undefined);
    await emulator?.server.stop().catch(() => undefined);
  }
}
