/**
 * Soak: the real `companion serve` under about two minutes of steady, realistic traffic
 * (traffic-cycle.ts: games on raw framing and on @xhayper/discord-rpc, the RPC WebSocket, the
 * UI bridge, the control API, protocol violations, clean and abrupt disconnects), one cycle
 * every CYCLE_PERIOD_MS. After warm-up and after every cycle, once every client has gone and
 * the count has settled, the host's open fds (/proc/<pid>/fd) and child processes (PPid in
 * /proc/<n>/status) are read; children also while the games are connected.
 *
 * The host's HTTP requests to its embedded emulator (signing in, registering the raw games'
 * application on first use) leave a keep-alive connection whose two ends are both in the
 * host: two fds until the emulator closes it after 5 s idle (Node's keepAliveTimeout). The
 * baseline is read once those are gone (KEEPALIVE_LAPSE_MS after warm-up), and FD_TOLERANCE
 * (4) lets two such connections be open at a reading without counting as a leak. A default
 * run has about 60 cycles: one fd kept every 12 cycles or more often ends above the
 * tolerance, and the last-third check catches a climb that a quiet last reading would hide.
 *
 * COMPANION_SOAK_MS sets the measured time (default 120000; 0 skips the test). Linux only:
 * it reads /proc.
 * Memory drift over hours is the bench's `soak` phase (`npm run bench -- soak --duration N`).
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { cliCleanup } from '../support/cli-process.js';
import { controlGet } from './control-get.js';
import { judgeFdDrift } from './fd-drift.js';
import { childProcesses, settledFdCount, type ChildProcessSighting } from './host-readings.js';
import { launchSoakHost, type SoakHost } from './soak-host.js';
import { runTrafficCycle } from './traffic-cycle.js';

const SOAK_MS = ((): number => {
  const raw = process.env['COMPANION_SOAK_MS'];
  const value = raw === undefined || raw === '' ? 120_000 : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`COMPANION_SOAK_MS must be a whole number of milliseconds, got '${raw}'`);
  return value;
})();
/** One cycle starts every this many ms (the CI machine has 2 cores and runs other tests beside this one). */
const CYCLE_PERIOD_MS = 2000;
/** Cycles before the baseline is read: modules loaded, caches filled, the raw games' app registered. */
const WARMUP_CYCLES = 3;
const FD_TOLERANCE = 4;
/** Longer than the 5 s after which the embedded emulator closes an idle keep-alive connection. */
const KEEPALIVE_LAPSE_MS = 6000;

const onLinux = process.platform === 'linux';
if (!onLinux) console.log(`soak: skipped on ${process.platform}: it reads the host's fds and children from /proc (Linux only)`);
else if (SOAK_MS === 0) console.log('soak: skipped: COMPANION_SOAK_MS=0');

const { track, dir } = cliCleanup('companion-soak-');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** After a cycle: no game left behind in the host's view, then its fds once they settle. */
async function idleReading(host: SoakHost): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [games, presence] = await Promise.all([controlGet(host.control, '/v1/games'), controlGet(host.control, '/v1/presence')]);
    if (games.body.games.length === 0 && presence.body.games.length === 0) break;
    if (Date.now() > deadline) throw new Error(`games still listed 10 s after every client left: ${JSON.stringify({ games: games.body, presence: presence.body.games })}`);
    await sleep(100);
  }
  return settledFdCount(host.pid);
}

function withHostOutput(host: SoakHost, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${message}\nhost exit: ${JSON.stringify(host.proc.child.exitCode)}; host stderr (last 2000 chars): ${host.proc.stderr.slice(-2000)}`);
}

describe.skipIf(!onLinux || SOAK_MS === 0)('soak: companion serve under steady traffic', () => {
  it(
    'keeps its idle fd count flat, starts no child process, still answers a new game and exits cleanly',
    async () => {
      const dirs = { runtime: await dir(), data: await dir(), config: await dir() };
      const host = await launchSoakHost(dirs, track);
      const children: ChildProcessSighting[] = [];
      const lookForChildren = (): void => void children.push(...childProcesses(host.pid));
      const samples: number[] = [];
      let baseline = 0;
      let requests = 0;
      let connections = 0;
      let cycle = 0;
      try {
        for (; cycle < WARMUP_CYCLES; cycle += 1) await runTrafficCycle(host, cycle);
        await sleep(KEEPALIVE_LAPSE_MS);
        baseline = await idleReading(host);
        lookForChildren();
        const end = Date.now() + SOAK_MS;
        while (Date.now() < end) {
          const started = Date.now();
          const tally = await runTrafficCycle(host, cycle, { whileConnected: lookForChildren });
          requests += tally.requests;
          connections += tally.connections;
          samples.push(await idleReading(host));
          lookForChildren();
          cycle += 1;
          await sleep(started + CYCLE_PERIOD_MS - Date.now());
        }
      } catch (error) {
        throw withHostOutput(host, error);
      }

      const drift = judgeFdDrift(baseline, samples, FD_TOLERANCE);
      console.log(
        `soak: ${samples.length} cycles in ${SOAK_MS / 1000} s after ${WARMUP_CYCLES} warm-up cycles, ${connections} connections, ${requests} RPC commands; ` +
          `fds after warm-up ${drift.baseline}, at the end ${drift.last}, range ${drift.min}-${drift.max} ` +
          `(first third max ${drift.firstThirdMax}, last third max ${drift.lastThirdMax}, tolerance ${FD_TOLERANCE}); ` +
          `child processes seen: ${children.length}; websocket: ${host.rpcWebSocketPort === null ? 'none (6463-6472 taken)' : `port ${host.rpcWebSocketPort}`}`,
      );
      expect(children).toEqual([]);
      expect(drift.problems, `idle fd counts: ${samples.join(' ')}`).toEqual([]);

      // Still serving: a new game gets READY with the signed-in user.
      const { client, ready } = await RawClient.ready(host.ipcPath);
      expect(ready).toMatchObject({ cmd: 'DISPATCH', evt: 'READY', data: { user: { username: 'alice' } } });

      host.proc.kill('SIGTERM');
      expect(await host.proc.exited).toEqual({ code: 0, signal: null });
      await client.closed;
      for (const socketPath of [...host.socketPaths, host.runtimeFile]) {
        await expect(lstat(socketPath), path.relative(dirs.runtime, socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
      }
    },
    SOAK_MS + 120_000,
  );
});
