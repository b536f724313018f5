/**
 * The emulator for the `social-load` phase, in a process of its own: `new` is the product
 * (`startPlatform`, the state in SQLite); `old` is the same emulator on the design before issue 25
 * §3 (bench/src/social-load/json-state-backend.ts: the whole state in memory, written as one JSON
 * file 100 ms after a change).
 *
 * Usage: node out/bench/src/social-load/social-runner.js new|old <dataDir> <limitsJSON>
 * Prints `Platform emulator listening on <url>`; SIGTERM/SIGINT close it.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startPlatform, type PlatformLimitsInput, type PlatformServer } from '../../../platform/src/index.js';
import { assemble } from '../../../platform/src/assembly/assemble.js';
import { Store } from '../../../platform/src/state/store.js';
import { SILENT_LOGGER } from '../../../platform/src/support/logger.js';
import { resolveLimits } from '../../../platform/src/support/limits.js';
import { JsonFileStateBackend } from './json-state-backend.js';
import { endWithParent } from '../child-lifetime.js';

const [design, dataDirArg, limitsJson] = process.argv.slice(2);
if ((design !== 'new' && design !== 'old') || dataDirArg === undefined || limitsJson === undefined) {
  process.stderr.write('usage: social-runner new|old <dataDir> <limitsJSON>\n');
  process.exit(2);
}
const dataDir = dataDirArg;
const limits = JSON.parse(limitsJson) as PlatformLimitsInput;

async function startOld(): Promise<PlatformServer> {
  const resolved = resolveLimits(limits);
  const options = { dataDir, now: Date.now, persistDebounceMs: 100, messagesPerChannel: resolved.messagesPerChannel, logger: SILENT_LOGGER };
  const store = await Store.openOn(new JsonFileStateBackend(path.join(dataDir, 'state.json')), options);
  return assemble(store, { host: '127.0.0.1', requestedPort: 0, limits: resolved, now: Date.now, logger: SILENT_LOGGER, dataDir, strictApps: false });
}

/**
 * What the emulator itself sees, to tell its own time from the load generator's: each DM send's
 * time from its request being parsed to its response being written (Node's `http.server.*`
 * diagnostics channels), and the event loop's delay. Written to `<dataDir>/../server-timing.json`
 * when the runner stops.
 */
class ServerTiming {
  private readonly started = new WeakMap<IncomingMessage, number>();
  private readonly dmMs: number[] = [];
  private readonly loop = monitorEventLoopDelay({ resolution: 1 });

  constructor() {
    this.loop.enable();
    subscribe('http.server.request.start', (message) => {
      const { request } = message as { request: IncomingMessage };
      if (request.method === 'POST' && /^\/api\/v10\/channels\/\d+\/messages$/.test(request.url ?? '')) this.started.set(request, performance.now());
    });
    subscribe('http.server.response.finish', (message) => {
      const { request } = message as { request: IncomingMessage; response: ServerResponse };
      const at = this.started.get(request);
      if (at !== undefined) this.dmMs.push(performance.now() - at);
    });
  }

  write(file: string): void {
    const sorted = [...this.dmMs].sort((a, b) => a - b);
    const at = (q: number): number => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN) * 100) / 100;
    const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
    const loop = { p50Ms: ms(this.loop.percentile(50)), p99Ms: ms(this.loop.percentile(99)), maxMs: ms(this.loop.max) };
    writeFileSync(file, JSON.stringify({ dmSend: { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) }, eventLoopDelay: loop }));
  }
}

const timing = new ServerTiming();
const platform = design === 'new' ? await startPlatform({ port: 0, dataDir, limits }) : await startOld();
process.stdout.write(`Platform emulator listening on ${platform.url}\n`);

endWithParent(async () => {
  timing.write(path.join(dataDir, '..', 'server-timing.json'));
  await platform.close();
});
