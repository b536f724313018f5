/**
 * The `inspector-ring` phase (output key `inspectorRing`, run only when named): what keeping every
 * connection's conversation costs the host (issue 26 §4). The host keeps each connection's frames
 * from its first byte in a bounded ring whether or not a UI is open (main/src/host/ui-bridge/
 * frame-log.ts); this phase checks that its memory stays bounded and that a host with no UI open
 * is within BENCH_RING_MAX_DIFF_MIB (15) of one with a UI (no more than that above it).
 *
 * Two `companion serve` hosts side by side (each its embedded emulator, own dirs, server CPU),
 * each with BENCH_RING_GAMES (50) games over discord-ipc sending SET_ACTIVITY at
 * BENCH_RING_RATE (250) updates a second in all (round robin), for BENCH_RING_S (300) seconds.
 * One host has no UI; the other has a UI open on the inspector from the start (a WebSocket
 * bridge client: `companion:ready`, then the inspector's lease renewed, every frame pushed to
 * it). Host RSS and its high-water mark are read every BENCH_RING_SAMPLE_S (10) seconds.
 * Reported: each host's RSS at the end and its peak, the highest reading of each half (the
 * rings are full long before the second half: it should not be higher), and the end RSS's
 * difference (no UI minus UI).
 *
 *   npm run bench -- inspector-ring                   (the full 5 minutes)
 *   BENCH_RING_S=30 npm run bench -- inspector-ring   (shortened)
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { IpcGame } from './ipc-game.js';
import { startHost, type PlatformBenchContext } from './platform-phases.js';
import { memorySample, round2, type MemorySample } from './proc.js';
import type { ServerProcess } from './servers.js';
import { ACTIVITY, envInt } from './shared.js';
import { BridgeCounter } from './ui-bridge-phase.js';

export const INSPECTOR_RING_CONFIG = {
  games: envInt('BENCH_RING_GAMES', 50),
  updatesPerSec: envInt('BENCH_RING_RATE', 250),
  seconds: envInt('BENCH_RING_S', 300),
  sampleSeconds: envInt('BENCH_RING_SAMPLE_S', 10),
  maxDiffMiB: envInt('BENCH_RING_MAX_DIFF_MIB', 15),
};

const TICK_MS = 20;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One host under the load: its games, and its RSS over time. */
class LoadedHost {
  readonly samples: MemorySample[] = [];
  private next = 0;
  sent = 0;

  constructor(
    readonly name: string,
    readonly host: ServerProcess,
    private readonly games: readonly IpcGame[],
  ) {}

  /** One tick's share of the updates, round robin over the games. */
  send(count: number): void {
    for (let i = 0; i < count; i += 1) {
      const game = this.games[this.next % this.games.length] as IpcGame;
      this.next += 1;
      this.sent += 1;
      void game.setActivity({ ...ACTIVITY, state: `Update ${this.sent}` }).replied.catch(() => undefined);
    }
  }

  sample(): void {
    this.samples.push(memorySample(this.host.pid));
  }

  figures(): Record<string, unknown> {
    const end = this.samples.at(-1);
    const half = Math.floor(this.samples.length / 2);
    // Highest reading of each half: RSS saws with the collections, so two single readings mislead.
    const max = (samples: readonly MemorySample[]): number | null => (samples.length === 0 ? null : Math.max(...samples.map((sample) => sample.rssMiB)));
    return {
      updatesSent: this.sent,
      rssEndMiB: end?.rssMiB ?? null,
      rssPeakMiB: end?.hwmMiB ?? null,
      rssMaxFirstHalfMiB: max(this.samples.slice(0, half)),
      rssMaxLastHalfMiB: max(this.samples.slice(half)),
      rssMiB: this.samples.map((sample) => sample.rssMiB),
    };
  }

  close(): void {
    for (const game of this.games) game.close();
  }
}

async function loadedHost(ctx: PlatformBenchContext, name: string): Promise<LoadedHost> {
  const host = await startHost(ctx, name);
  const games: IpcGame[] = [];
  for (let i = 0; i < INSPECTOR_RING_CONFIG.games; i += 1) games.push(await IpcGame.connect(host.socketPath));
  return new LoadedHost(name, host, games);
}

/** A UI on the inspector, from the start, on the host started as `name`. */
async function openInspector(ctx: PlatformBenchContext, name: string): Promise<BridgeCounter> {
  const info = JSON.parse(await readFile(path.join(ctx.tmpRoot, name, 'run', 'companion', 'host.json'), 'utf8')) as { webUi?: { url: string; token: string } };
  if (info.webUi === undefined) throw new Error(`${name}: host.json has no webUi`);
  return (await BridgeCounter.open(info.webUi.url, info.webUi.token, 'inspector')).counter;
}

export async function inspectorRingPhase(ctx: PlatformBenchContext): Promise<Record<string, unknown>> {
  const config = INSPECTOR_RING_CONFIG;
  const hosts: LoadedHost[] = [];
  let ui: BridgeCounter | undefined;
  try {
    const noUi = await loadedHost(ctx, 'ring-no-ui');
    hosts.push(noUi);
    const withUi = await loadedHost(ctx, 'ring-with-ui');
    hosts.push(withUi);
    ui = await openInspector(ctx, 'ring-with-ui');
    ctx.progress(`inspector-ring: ${config.games} games on each host, ${config.updatesPerSec} updates/s each, ${config.seconds} s`);
    const perTick = (config.updatesPerSec * TICK_MS) / 1000;
    let owed = 0;
    const ticker = setInterval(() => {
      owed += perTick;
      const count = Math.floor(owed);
      owed -= count;
      for (const host of hosts) host.send(count);
    }, TICK_MS);
    try {
      for (let elapsed = 0; elapsed < config.seconds; elapsed += config.sampleSeconds) {
        await sleep(Math.min(config.sampleSeconds, config.seconds - elapsed) * 1000);
        for (const host of hosts) host.sample();
        ctx.progress(`  ${Math.min(elapsed + config.sampleSeconds, config.seconds)} s: RSS no UI ${noUi.samples.at(-1)?.rssMiB} MiB, with a UI ${withUi.samples.at(-1)?.rssMiB} MiB`);
      }
    } finally {
      clearInterval(ticker);
    }
    const a = noUi.samples.at(-1)?.rssMiB ?? NaN;
    const b = withUi.samples.at(-1)?.rssMiB ?? NaN;
    const diff = round2(a - b);
    return {
      setup:
        `two \`companion serve\` hosts side by side (embedded emulator, own dirs), ${config.games} discord-ipc games each sending SET_ACTIVITY ` +
        `at ${config.updatesPerSec}/s in all for ${config.seconds} s; one with no UI, one with a UI bridge client on the inspector from the start; VmRSS every ${config.sampleSeconds} s`,
      noUi: noUi.figures(),
      withUi: { ...withUi.figures(), kiBPushedToUi: round2(ui.textBytes / 1024) },
      rssDifferenceMiB: diff,
      target: { maxDifferenceMiB: config.maxDiffMiB },
      // One-sided: keeping every conversation with no UI open must not cost more than a UI does (plus the margin).
      meetsTarget: Number.isFinite(diff) && diff <= config.maxDiffMiB,
    };
  } finally {
    ui?.close();
    for (const host of hosts) host.close();
    await Promise.all(hosts.map((host) => host.host.stop().catch(() => undefined)));
  }
}
