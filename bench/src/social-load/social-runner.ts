/**
 * The emulator for the `social-load` phase, in a process of its own: `new` is the product
 * (`startPlatform`, the state in SQLite); `old` is the same emulator on the design before issue 25
 * §3 (bench/src/social-load/json-state-backend.ts: the whole state in memory, written as one JSON
 * file 100 ms after a change).
 *
 * Usage: node out/bench/src/social-load/social-runner.js new|old <dataDir> <limitsJSON>
 * Prints `Platform emulator listening on <url>`; SIGTERM/SIGINT close it.
 */
import path from 'node:path';
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

const platform = design === 'new' ? await startPlatform({ port: 0, dataDir, limits }) : await startOld();
process.stdout.write(`Platform emulator listening on ${platform.url}\n`);

endWithParent(() => platform.close());
