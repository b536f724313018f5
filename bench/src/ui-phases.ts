/**
 * The web UI side of `npm run bench` (phases `ui-inspector`, `ui-consent`; output key `ui`).
 * One `companion serve` host (own XDG_CONFIG_HOME, --runtime-dir, --data-dir; embedded
 * emulator, consent policy `prompt`), its web UI (`<runtime dir>/companion/host.json` →
 * webUi {url, token}) opened in headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium)
 * through Playwright. The renderer must be built (out/renderer/index.html); if it is not, the
 * bench builds it with `npx vite build --config renderer/vite.config.ts`.
 *
 * - ui-inspector: the page at `#inspector` while raw game clients (discord-ipc framing, in the
 *   bench process) send SET_ACTIVITY at BENCH_UI_FRAMES_PER_SEC / 2 requests/s (each request
 *   is two frames for the inspector: in and out), paced every 10 ms. After a warm-up the page
 *   counts requestAnimationFrame callbacks for BENCH_UI_INSPECTOR_MS (fps per 1 s bucket),
 *   observes long tasks (PerformanceObserver 'longtask'), and reads the inspector's counter
 *   (data-testid="inspector-count": rows held + oldest dropped = frames the UI received) and
 *   performance.memory (Chromium, --enable-precise-memory-info). CPU from /proc: the host, the
 *   Chromium process tree, the bench process (load generator) and everything else (noise).
 *   Before the page opens, the same load runs for BENCH_UI_BASELINE_MS with no UI connected
 *   (the host records no frames then), so the host's extra CPU for the inspector shows.
 * - ui-consent: a raw game (handshake with the demo app id) sends AUTHORIZE {scopes:['identify']};
 *   a MutationObserver in the page records `performance.timeOrigin + performance.now()` when
 *   data-testid="consent-prompt" enters the DOM (and the next requestAnimationFrame, i.e. the
 *   frame that paints it), against the bench's Date.now() just before the write (same machine
 *   clock, 1 ms resolution). The prompt is dismissed (data-testid="consent-dismiss"), the game's
 *   ERROR reply awaited, and it repeats BENCH_UI_CONSENT_SAMPLES times after 3 warm-up rounds.
 *
 * Pinning (as the other phases): the host on the server CPU; Chromium is started through
 * `taskset -c <all CPUs>` so that it is not squeezed onto the load generator's CPU. Every
 * process is stopped in `finally`; the browser's process group is SIGKILLed on exit as a last resort.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from '@playwright/test';
import type { PlatformBenchContext } from './platform-phases.js';
import { childPids, cpuSample, machineSample, memorySample, round2 } from './proc.js';
import { IpcGame } from './ipc-game.js';
import { startServer, type ServerProcess } from './servers.js';
import { setActivityTemplate, stampRequests, envInt } from './shared.js';

export const UI_CONFIG = {
  framesPerSec: envInt('BENCH_UI_FRAMES_PER_SEC', 5000),
  clients: Math.max(1, envInt('BENCH_UI_CLIENTS', 5)),
  warmupMs: envInt('BENCH_UI_WARMUP_MS', 3000),
  inspectorMs: Math.max(1000, envInt('BENCH_UI_INSPECTOR_MS', 10_000)),
  baselineMs: envInt('BENCH_UI_BASELINE_MS', 5000),
  consentSamples: Math.max(1, envInt('BENCH_UI_CONSENT_SAMPLES', 30)),
  consentWarmup: 3,
  viewport: { width: 1280, height: 800 },
};

export const UI_PHASES = ['ui-inspector', 'ui-consent'] as const;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PACE_MS = 10;
/** More requests than this without a reply: the host is not keeping up, the generator waits. */
const MAX_OUTSTANDING = 5000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

// ---- last-resort cleanup of the browser

const browserPids = new Set<number>();
process.on('exit', () => {
  for (const pid of browserPids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});

/** Every descendant of `pid` (Chromium: zygotes, renderers, GPU and utility processes). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of childPids(next)) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function treeCpuMs(pid: number): number {
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      total += cpuSample(p).ms;
    } catch {
      // exited in between
    }
  }
  return total;
}

function treeRssMiB(pid: number): number {
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      total += memorySample(p).rssMiB;
    } catch {
      // exited in between
    }
  }
  return round2(total);
}

/** Chromium processes on the machine that are not ours (other people's Playwright runs): noise. */
function foreignChromiumProcesses(ours: number | undefined): number {
  const mine = new Set(ours === undefined ? [] : [ours, ...descendants(ours)]);
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (mine.has(pid)) continue;
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (comm.startsWith('chrom') || comm === 'headless_shell') count += 1;
    } catch {
      // gone
    }
  }
  return count;
}

// ---- figures

interface Summary {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

function summarize(values: readonly number[]): Summary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    samples: values.length,
    p50Ms: round2(percentile(sorted, 0.5)),
    p90Ms: round2(percentile(sorted, 0.9)),
    p99Ms: round2(percentile(sorted, 0.99)),
    meanMs: round2(values.reduce((a, b) => a + b, 0) / values.length),
    minMs: round2(sorted[0] as number),
    maxMs: round2(sorted[sorted.length - 1] as number),
  };
}

// ---- the host

interface UiHost {
  readonly server: ServerProcess;
  readonly url: string;
  readonly token: string;
}

async function startUiHost(ctx: PlatformBenchContext): Promise<UiHost> {
  const base = path.join(ctx.tmpRoot, 'ui-host');
  const dirs = { xdg: path.join(base, 'xdg'), data: path.join(base, 'data'), run: path.join(base, 'run') };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true, mode: 0o700 });
  const server = await startServer(
    'ui-host',
    [path.join(ctx.root, 'bin/companion.js'), 'serve', '--runtime-dir', dirs.run, '--data-dir', dirs.data],
    path.join(base, 'out.log'),
    { cpus: ctx.serverCpus, env: { XDG_CONFIG_HOME: dirs.xdg } },
  );
  try {
    const info = JSON.parse(await readFile(path.join(dirs.run, 'companion', 'host.json'), 'utf8')) as { webUi?: { url: string; token: string } };
    if (info.webUi === undefined) throw new Error('host.json has no webUi (web UI turned off?)');
    return { server, url: info.webUi.url, token: info.webUi.token };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** out/renderer/index.html, built with vite if missing. */
function ensureRenderer(ctx: PlatformBenchContext): 'present' | 'built' {
  const index = path.join(ctx.root, 'out/renderer/index.html');
  if (existsSync(index)) return 'present';
  ctx.progress('ui: out/renderer missing, npx vite build --config renderer/vite.config.ts');
  const build = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts'], { cwd: ctx.root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0 || !existsSync(index)) throw new Error(`vite build failed (status ${String(build.status)})`);
  return 'built';
}

// ---- games

/** SET_ACTIVITY at a fixed rate from several games, paced every PACE_MS. */
class ActivityLoad {
  private timer: NodeJS.Timeout | undefined;
  private sent = 0;
  private nonce = 1;
  private next = 0;
  private startedAt = 0;
  /** Ticks at which the host was MAX_OUTSTANDING behind and nothing was sent. */
  stalledTicks = 0;
  private readonly template = setActivityTemplate(process.pid);

  private constructor(
    private readonly games: readonly IpcGame[],
    private readonly requestsPerSec: number,
  ) {}

  static async start(socketPath: string, clients: number, requestsPerSec: number): Promise<ActivityLoad> {
    const games: IpcGame[] = [];
    try {
      for (let i = 0; i < clients; i += 1) games.push(await IpcGame.connect(socketPath));
    } catch (error) {
      for (const game of games) game.close();
      throw error;
    }
    const load = new ActivityLoad(games, requestsPerSec);
    load.startedAt = performance.now();
    load.timer = setInterval(() => load.tick(), PACE_MS);
    return load;
  }

  get replies(): number {
    return this.games.reduce((sum, game) => sum + game.replies, 0);
  }

  get errorReplies(): number {
    return this.games.reduce((sum, game) => sum + game.errorReplies, 0);
  }

  get requestsSent(): number {
    return this.sent;
  }

  get droppedConnections(): number {
    return this.games.filter((game) => game.closed).length;
  }

  private tick(): void {
    const due = Math.floor(((performance.now() - this.startedAt) * this.requestsPerSec) / 1000) - this.sent;
    if (due <= 0) return;
    if (this.sent - this.replies > MAX_OUTSTANDING) {
      this.stalledTicks += 1;
      return;
    }
    // Spread over the games, one write per game per tick.
    const per = Math.floor(due / this.games.length);
    let extra = due - per * this.games.length;
    for (let i = 0; i < this.games.length; i += 1) {
      const game = this.games[(this.next + i) % this.games.length] as IpcGame;
      const count = per + (extra > 0 ? 1 : 0);
      if (extra > 0) extra -= 1;
      if (count === 0 || game.closed) continue;
      game.writeRaw(stampRequests(this.template, this.nonce, count));
      this.nonce += count;
      this.sent += count;
    }
    this.next = (this.next + 1) % this.games.length;
  }

  /** Stops sending and waits (up to `drainMs`) for the outstanding replies. */
  async stop(drainMs = 5000): Promise<void> {
    clearInterval(this.timer);
    const deadline = performance.now() + drainMs;
    while (this.replies < this.sent && performance.now() < deadline) await sleep(20);
    for (const game of this.games) game.close();
  }
}

// ---- the browser

interface BrowserHandle {
  readonly browser: Browser;
  readonly pid: number | undefined;
  readonly version: string;
  close(): Promise<void>;
}

async function launchBrowser(ctx: PlatformBenchContext): Promise<BrowserHandle> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const { chromium } = await import('@playwright/test');
  // The bench pins itself (and so its children) to the load generator's CPUs: a wrapper gives
  // Chromium every CPU back, as on a user's machine.
  let executablePath = CHROMIUM;
  if (ctx.serverCpus !== undefined) {
    const wrapper = path.join(ctx.tmpRoot, 'chromium-unpinned.sh');
    await writeFile(wrapper, `#!/bin/sh\nexec taskset -c 0-${os.cpus().length - 1} '${CHROMIUM.replace(/'/g, `'\\''`)}' "$@"\n`);
    await chmod(wrapper, 0o755);
    executablePath = wrapper;
  }
  // Playwright 1.65's new-headless argument; the GPU stays off as in CI. Precise heap figures.
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--enable-precise-memory-info'] });
  // The browser process (Playwright starts it in its own process group).
  const pid = childPids(process.pid).find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--remote-debugging-pipe');
    } catch {
      return false;
    }
  });
  if (pid !== undefined) browserPids.add(pid);
  return {
    browser,
    pid,
    version: browser.version(),
    async close(): Promise<void> {
      await Promise.race([browser.close().catch(() => undefined), sleep(10_000)]);
      if (pid !== undefined) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // closed normally: the group is gone
        }
        browserPids.delete(pid);
      }
    },
  };
}

async function openUi(browser: Browser, host: UiHost, hash: string): Promise<Page> {
  const context = await browser.newContext({ viewport: UI_CONFIG.viewport });
  const page = await context.newPage();
  // ?token sets the cookie and redirects to / (the fragment is kept across the redirect).
  await page.goto(`${host.url}?token=${encodeURIComponent(host.token)}${hash}`, { waitUntil: 'load', timeout: 20_000 });
  return page;
}

/** Rows held + oldest dropped: frames the inspector received since the page opened. */
async function inspectorReceived(page: Page): Promise<{ received: number; held: number; dropped: number; text: string }> {
  const text = (await page.locator('[data-testid="inspector-count"]').textContent()) ?? '';
  const match = /(\d+) of (\d+) frames/.exec(text);
  const dropped = /, ([\d,.\s\u202f]+) oldest dropped/.exec(text)?.[1];
  const held = match?.[2] === undefined ? 0 : Number(match[2]);
  const droppedN = dropped === undefined ? 0 : Number(dropped.replace(/\D/g, ''));
  return { received: held + droppedN, held, dropped: droppedN, text };
}

interface CpuWindow {
  readonly hostCpuUtil: number;
  readonly chromiumCpuUtil: number | null;
  readonly benchProcessCpuUtil: number;
  readonly otherProcessesCpuUtil: number;
}

/** Starts a CPU window; the returned function ends it (utilisation in cores). */
function cpuWindow(hostPid: number, browserPid: number | undefined): () => CpuWindow {
  const t0 = performance.now();
  const host0 = cpuSample(hostPid).ms;
  const browser0 = browserPid === undefined ? 0 : treeCpuMs(browserPid);
  const self0 = process.cpuUsage();
  const machine0 = machineSample().busyMs;
  return () => {
    const ms = performance.now() - t0;
    const host = cpuSample(hostPid).ms - host0;
    const browser = browserPid === undefined ? 0 : treeCpuMs(browserPid) - browser0;
    const selfUsage = process.cpuUsage(self0);
    const self = (selfUsage.user + selfUsage.system) / 1000;
    const machine = machineSample().busyMs - machine0;
    return {
      hostCpuUtil: round2(host / ms),
      chromiumCpuUtil: browserPid === undefined ? null : round2(browser / ms),
      benchProcessCpuUtil: round2(self / ms),
      otherProcessesCpuUtil: round2(Math.max(0, machine - host - browser - self) / ms),
    };
  };
}

// ---- page-side instruments (serialised into the page by page.evaluate: no closures)

interface PageWindow {
  readonly rafTimes: number[];
  readonly longTasks: { start: number; duration: number }[];
  readonly heapStart: number | null;
  readonly heapEnd: number | null;
  readonly heapLimit: number | null;
  readonly longTaskSupported: boolean;
}

interface BenchWindow {
  __uiBench?: { running: boolean; rafTimes: number[]; longTasks: { start: number; duration: number }[]; observer: PerformanceObserver | null; heapStart: number | null };
  __uiConsent?: { present: boolean; inDom: number[]; nextFrame: number[] };
}

type MemoryPerformance = { memory?: { usedJSHeapSize: number; jsHeapSizeLimit: number } };

// ---- phases

async function inspectorPhase(ctx: PlatformBenchContext, host: UiHost, handle: BrowserHandle): Promise<Record<string, unknown>> {
  const requestsPerSec = Math.round(UI_CONFIG.framesPerSec / 2);
  const socketPath = host.server.socketPath;

  // Without a UI: what the load costs the host when nobody watches (no frames are recorded then).
  let withoutUi: Record<string, unknown> | undefined;
  if (UI_CONFIG.baselineMs > 0) {
    ctx.progress(`ui-inspector: ${requestsPerSec} req/s, no UI connected, ${UI_CONFIG.baselineMs} ms`);
    const load = await ActivityLoad.start(socketPath, UI_CONFIG.clients, requestsPerSec);
    try {
      await sleep(Math.min(1000, UI_CONFIG.warmupMs));
      const r0 = load.replies;
      const end = cpuWindow(host.server.pid, undefined);
      const t0 = performance.now();
      await sleep(UI_CONFIG.baselineMs);
      const cpu = end();
      const replies = load.replies - r0;
      withoutUi = { repliesPerSec: Math.round((replies * 1000) / (performance.now() - t0)), hostCpuUtil: cpu.hostCpuUtil, otherProcessesCpuUtil: cpu.otherProcessesCpuUtil };
    } finally {
      await load.stop();
    }
  }

  ctx.progress(`ui-inspector: opening #inspector, ${UI_CONFIG.framesPerSec} frames/s for ${UI_CONFIG.warmupMs} + ${UI_CONFIG.inspectorMs} ms`);
  const page = await openUi(handle.browser, host, '#inspector');
  try {
    await page.locator('[data-testid="inspector-count"]').waitFor({ state: 'visible', timeout: 20_000 });
    const load = await ActivityLoad.start(socketPath, UI_CONFIG.clients, requestsPerSec);
    try {
      await sleep(UI_CONFIG.warmupMs);
      const before = await inspectorReceived(page);
      const r0 = load.replies;
      const sent0 = load.requestsSent;
      await page.evaluate(() => {
        const w = window as unknown as BenchWindow;
        const state = { running: true, rafTimes: [] as number[], longTasks: [] as { start: number; duration: number }[], observer: null as PerformanceObserver | null, heapStart: null as number | null };
        const memory = (performance as unknown as MemoryPerformance).memory;
        state.heapStart = memory === undefined ? null : memory.usedJSHeapSize;
        try {
          state.observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) state.longTasks.push({ start: entry.startTime, duration: entry.duration });
          });
          state.observer.observe({ type: 'longtask', buffered: false });
        } catch {
          state.observer = null;
        }
        const loop = (t: number): void => {
          state.rafTimes.push(t);
          if (state.running) requestAnimationFrame(loop);
        };
        requestAnimationFrame(loop);
        w.__uiBench = state;
      });
      const endCpu = cpuWindow(host.server.pid, handle.pid);
      const t0 = performance.now();
      await sleep(UI_CONFIG.inspectorMs);
      const pageWindow: PageWindow = await page.evaluate(() => {
        const w = window as unknown as BenchWindow;
        const state = w.__uiBench;
        if (state === undefined) throw new Error('instruments missing');
        state.running = false;
        state.observer?.disconnect();
        const memory = (performance as unknown as MemoryPerformance).memory;
        return {
          rafTimes: state.rafTimes,
          longTasks: state.longTasks,
          heapStart: state.heapStart,
          heapEnd: memory === undefined ? null : memory.usedJSHeapSize,
          heapLimit: memory === undefined ? null : memory.jsHeapSizeLimit,
          longTaskSupported: state.observer !== null,
        };
      });
      const windowMs = performance.now() - t0;
      const cpu = endCpu();
      const replies = load.replies - r0;
      const sent = load.requestsSent - sent0;
      const after = await inspectorReceived(page);
      const chromiumRssMiB = handle.pid === undefined ? null : treeRssMiB(handle.pid);

      // fps per whole 1 s bucket from the first callback.
      const times = pageWindow.rafTimes;
      const first = times[0] ?? 0;
      const buckets = Math.floor(((times.at(-1) ?? first) - first) / 1000);
      const perBucket = Array.from({ length: buckets }, () => 0);
      for (const t of times) {
        const b = Math.floor((t - first) / 1000);
        if (b < buckets) perBucket[b] = (perBucket[b] as number) + 1;
      }
      const sortedFps = [...perBucket].sort((a, b) => a - b);
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      const longTasks = pageWindow.longTasks.map((task) => task.duration);
      const frameRate = {
        p50: sortedFps.length === 0 ? null : percentile(sortedFps, 0.5),
        min: sortedFps.length === 0 ? null : sortedFps[0],
        mean: times.length < 2 ? null : round2(((times.length - 1) * 1000) / ((times.at(-1) as number) - first)),
        perSecond: perBucket,
        frameIntervalMs: summarize(gaps),
        framesOver50Ms: gaps.filter((g) => g > 50).length,
      };
      const delivered = after.received - before.received;
      return {
        framesPerSecTarget: UI_CONFIG.framesPerSec,
        requestsPerSecTarget: requestsPerSec,
        windowS: round2(windowMs / 1000),
        frameRate,
        longTasks: pageWindow.longTaskSupported
          ? { count: longTasks.length, totalMs: round2(longTasks.reduce((a, b) => a + b, 0)), maxMs: longTasks.length === 0 ? 0 : round2(Math.max(...longTasks)), busyShare: round2(longTasks.reduce((a, b) => a + b, 0) / windowMs) }
          : 'PerformanceObserver longtask not supported',
        frames: {
          note: 'sentToHostPerSec: the game requests in the window times 2 (request in + reply out, as the inspector lists them); deliveredToUi: the inspector counter (rows + oldest dropped) over the window',
          sentToHostPerSec: Math.round((2 * sent * 1000) / windowMs),
          repliedPerSec: Math.round((replies * 1000) / windowMs),
          deliveredToUi: delivered,
          deliveredToUiPerSec: Math.round((delivered * 1000) / windowMs),
          deliveredShare: sent > 0 ? round2(delivered / (2 * sent)) : null,
          inspectorCountAtEnd: after.text,
          rowsHeld: after.held,
          errorReplies: load.errorReplies,
          droppedConnections: load.droppedConnections,
          generatorStalledTicks: load.stalledTicks,
        },
        heapMiB: {
          start: pageWindow.heapStart === null ? null : round2(pageWindow.heapStart / 2 ** 20),
          end: pageWindow.heapEnd === null ? null : round2(pageWindow.heapEnd / 2 ** 20),
          limit: pageWindow.heapLimit === null ? null : round2(pageWindow.heapLimit / 2 ** 20),
        },
        chromiumRssMiB,
        cpu: { ...cpu, note: 'cores (1 = one CPU fully busy) over the window: the host process, the Chromium process tree, the bench process (load generator), everything else' },
        hostWithoutUi: withoutUi,
        hostRssMiB: memorySample(host.server.pid).rssMiB,
      };
    } finally {
      await load.stop();
    }
  } finally {
    await page.context().close().catch(() => undefined);
  }
}

async function consentPhase(ctx: PlatformBenchContext, host: UiHost, handle: BrowserHandle): Promise<Record<string, unknown>> {
  const page = await openUi(handle.browser, host, '');
  const game = await IpcGame.connect(host.server.socketPath);
  try {
    // The bridge is up once the app shows its screens.
    await page.locator('h1').first().waitFor({ state: 'visible', timeout: 20_000 });
    await sleep(500);
    await page.evaluate(() => {
      const w = window as unknown as BenchWindow;
      const state = { present: false, inDom: [] as number[], nextFrame: [] as number[] };
      w.__uiConsent = state;
      const check = (): void => {
        const element = document.querySelector('[data-testid="consent-prompt"]');
        if (element !== null && !state.present) {
          state.present = true;
          state.inDom.push(performance.timeOrigin + performance.now());
          // When the callback runs (its argument is the frame's start, which may precede the insertion).
          requestAnimationFrame(() => state.nextFrame.push(performance.timeOrigin + performance.now()));
        } else if (element === null) {
          state.present = false;
        }
      };
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
    });
    const total = UI_CONFIG.consentWarmup + UI_CONFIG.consentSamples;
    const inDom: number[] = [];
    const nextFrame: number[] = [];
    const replies: string[] = [];
    const cpu = cpuWindow(host.server.pid, handle.pid);
    ctx.progress(`ui-consent: ${UI_CONFIG.consentWarmup} + ${UI_CONFIG.consentSamples} AUTHORIZE → prompt → dismiss`);
    for (let i = 0; i < total; i += 1) {
      const { wroteAt, reply } = game.request('AUTHORIZE', { scopes: ['identify'] }, `authorize-${i}`);
      await page.waitForFunction((n) => ((window as unknown as BenchWindow).__uiConsent?.nextFrame.length ?? 0) >= n, i + 1, { timeout: 15_000, polling: 20 });
      const seen = await page.evaluate((n) => {
        const state = (window as unknown as BenchWindow).__uiConsent;
        return { inDom: state?.inDom[n] ?? null, nextFrame: state?.nextFrame[n] ?? null };
      }, i);
      await page.locator('[data-testid="consent-dismiss"]').click({ timeout: 10_000 });
      const answer = await Promise.race([reply, sleep(10_000).then(() => null)]);
      if (answer === null) throw new Error(`AUTHORIZE ${i}: no reply within 10 s of the dismissal`);
      await page.locator('[data-testid="consent-prompt"]').waitFor({ state: 'detached', timeout: 10_000 });
      if (i >= UI_CONFIG.consentWarmup) {
        if (seen.inDom !== null) inDom.push(seen.inDom - wroteAt);
        if (seen.nextFrame !== null) nextFrame.push(seen.nextFrame - wroteAt);
        replies.push(answer.evt === 'ERROR' ? `ERROR ${String((answer.data as { code?: unknown } | null)?.code)}` : String(answer.evt ?? answer.cmd));
      }
      await sleep(100);
    }
    const cpuUse = cpu();
    const replyKinds: Record<string, number> = {};
    for (const kind of replies) replyKinds[kind] = (replyKinds[kind] ?? 0) + 1;
    return {
      note: 'ms from Date.now() before writing AUTHORIZE to performance.timeOrigin + performance.now() in the page (same clock, 1 ms resolution); promptInDom: MutationObserver sees data-testid="consent-prompt"; promptNextFrame: the requestAnimationFrame after that (the frame that paints it)',
      promptInDom: summarize(inDom),
      promptNextFrame: summarize(nextFrame),
      repliesAfterDismiss: replyKinds,
      otherProcessesCpuUtil: cpuUse.otherProcessesCpuUtil,
      hostCpuUtil: cpuUse.hostCpuUtil,
    };
  } finally {
    game.close();
    await page.context().close().catch(() => undefined);
  }
}

export async function runUiPhases(ctx: PlatformBenchContext, phases: ReadonlySet<string>, errors: string[]): Promise<Record<string, unknown> | undefined> {
  if (!UI_PHASES.some((phase) => phases.has(phase))) return undefined;
  const out: Record<string, unknown> = { config: { ...UI_CONFIG, chromium: CHROMIUM } };
  let host: UiHost | undefined;
  let handle: BrowserHandle | undefined;
  const foreignBefore = foreignChromiumProcesses(undefined);
  try {
    out.renderer = ensureRenderer(ctx);
    host = await startUiHost(ctx);
    handle = await launchBrowser(ctx);
    out.browser = { version: handle.version, pid: handle.pid ?? null };
    ctx.progress(`ui: host pid ${host.server.pid}, Chromium ${handle.version}`);
    const run = async (phase: string, key: string, fn: (c: PlatformBenchContext, h: UiHost, b: BrowserHandle) => Promise<Record<string, unknown>>): Promise<void> => {
      if (!phases.has(phase) || host === undefined || handle === undefined) return;
      ctx.progress(`ui: ${phase}`);
      try {
        out[key] = await fn(ctx, host, handle);
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
        errors.push(`ui/${phase}: ${message}`);
        ctx.progress(`  failed: ${message}`);
      }
    };
    await run('ui-inspector', 'inspector', inspectorPhase);
    await run('ui-consent', 'consent', consentPhase);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
    errors.push(`ui: ${message}`);
    ctx.progress(`ui failed: ${message}`);
  } finally {
    const ourPid = handle?.pid;
    const foreignDuring = foreignChromiumProcesses(ourPid);
    await handle?.close();
    await host?.server.stop().catch(() => undefined);
    const inspectorOther = (out.inspector as { cpu?: CpuWindow } | undefined)?.cpu?.otherProcessesCpuUtil ?? null;
    const consentOther = (out.consent as { otherProcessesCpuUtil?: number } | undefined)?.otherProcessesCpuUtil ?? null;
    const baselineOther = (out.inspector as { hostWithoutUi?: { otherProcessesCpuUtil?: number } } | undefined)?.hostWithoutUi?.otherProcessesCpuUtil ?? null;
    const worst = Math.max(inspectorOther ?? 0, consentOther ?? 0, baselineOther ?? 0);
    out.noise = {
      otherProcessesCpuUtil: { inspectorWithoutUi: baselineOther, inspector: inspectorOther, consent: consentOther },
      foreignChromiumProcesses: { before: foreignBefore, atEnd: foreignDuring },
      warning:
        worst > 0.2 || foreignDuring > 0
          ? `other processes used up to ${worst} cores during the UI phases${foreignDuring > 0 ? ` and ${foreignDuring} other Chromium processes ran (other Playwright runs)` : ''}: UI figures are noisy`
          : undefined,
    };
  }
  return out;
}
