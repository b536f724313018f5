/**
 * The platform emulator in a process of its own with chosen limits (what `companion platform
 * serve` runs, minus the CLI, plus a `limits` argument): the fan-out phase needs 200 dev logins,
 * over the emulator's 10 per 60 s. Every gateway limit stays at its real value unless given.
 *
 * Usage: node out/bench/src/platform-runner.js <dataDir> [limitsJSON]
 * Prints `Platform emulator listening on <url>` on stdout; SIGTERM/SIGINT close it.
 */
import { startPlatform, type PlatformLimitsInput } from '../../platform/src/index.js';
import { endWithParent } from './child-lifetime.js';

const [dataDir, limitsJson] = process.argv.slice(2);
if (dataDir === undefined || dataDir === '') {
  process.stderr.write('usage: platform-runner <dataDir> [limitsJSON]\n');
  process.exit(2);
}
const limits = limitsJson === undefined ? undefined : (JSON.parse(limitsJson) as PlatformLimitsInput);

const platform = await startPlatform({ port: 0, dataDir, ...(limits === undefined ? {} : { limits }) });
process.stdout.write(`Platform emulator listening on ${platform.url}\n`);

endWithParent(() => platform.close());
