/**
 * The platform emulator in a process of its own with chosen limits (what `companion platform
 * serve` runs, minus the CLI, plus a `limits` argument): the fan-out phase needs 200 dev logins,
 * over the emulator's 10 per 60 s. Every gateway limit stays at its real value unless given.
 *
 * Usage: node out/bench/src/platform-runner.js <dataDir> [limitsJSON]
 * Prints `Platform emulator listening on <url>` on stdout; SIGTERM/SIGINT close it.
 */
import { startPlatform, type PlatformLimitsInput } from '../../platform/src/index.js';

const [dataDir, limitsJson] = process.argv.slice(2);
if (dataDir === undefined || dataDir === '') {
  process.stderr.write('usage: platform-runner <dataDir> [limitsJSON]\n');
  process.exit(2);
}
const limits = limitsJson === undefined ? undefined : (JSON.parse(limitsJson) as PlatformLimitsInput);

const platform = await startPlatform({ port: 0, dataDir, ...(limits === undefined ? {} : { limits }) });
process.stdout.write(`Platform emulator listening on ${platform.url}\n`);

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => process.exit(1), 5000);
  timer.unref();
  await platform.close();
  process.exit(0);
}
// Die with the bench even if it is killed without a chance to stop us.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutdown();
}, 500).unref();

process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
