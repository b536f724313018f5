/**
 * The `registration` phase (output key `registration`): BENCH_REG_IDS (10,000) handshakes over
 * IPC with distinct client ids on a real `companion serve` (embedded emulator), each admitted
 * game setting one activity. Reported: how the handshakes ended (READY, CLOSE 4000 "Invalid
 * Client ID", other), and the state files' sizes (the emulator's state.db, the host's
 * presence.json) and the host's RSS at idle before, at the peak and BENCH_REG_AFTER_MS
 * (60,000) after the last handshake. Not in the default phase list: `npm run bench --
 * registration` or BENCH_PHASES=registration; alone, it starts no other server.
 *
 * Last, the host's JS heap after a forced full GC and its RSS then (through --inspect), which
 * tells memory still held from garbage V8 had no reason to collect on an idle host.
 *
 * BENCH_REG_IDS (10000)  BENCH_REG_CONCURRENCY (16)  BENCH_REG_AFTER_MS (60000)  BENCH_REG_SETTLE_MS (5000)
 */
import { statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeFrame, FrameDecoder } from '../../rpc/src/framing/frame-codec.js';
import { freeLoopbackPort, InspectorHeap } from './inspector-heap.js';
import { startHost, type PlatformBenchContext } from './platform-phases.js';
import { memorySample, round2 } from './proc.js';
import type { ServerProcess } from './servers.js';
import { envInt, OP } from './shared.js';

export interface RegistrationConfig {
  readonly ids: number;
  readonly concurrency: number;
  readonly afterMs: number;
  readonly settleMs: number;
}

export function registrationConfig(): RegistrationConfig {
  return {
    ids: envInt('BENCH_REG_IDS', 10_000),
    concurrency: Math.max(1, envInt('BENCH_REG_CONCURRENCY', 16)),
    afterMs: envInt('BENCH_REG_AFTER_MS', 60_000),
    settleMs: envInt('BENCH_REG_SETTLE_MS', 5000),
  };
}

type Outcome = 'ready' | 'invalidClientId' | 'other';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const sizeKiB = (file: string): number | null => {
  try {
    return round2(statSync(file).size / 1024);
  } catch {
    return null;
  }
};

/**
 * One game: HANDSHAKE with `clientId`; when READY comes, one SET_ACTIVITY and its reply; then
 * it leaves. Resolves with how the handshake ended.
 */
function oneGame(socketPath: string, clientId: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ path: socketPath });
    const decoder = new FrameDecoder(1 << 20);
    let outcome: Outcome | undefined;
    const done = (result: Outcome): void => {
      socket.destroy();
      resolve(outcome ?? result);
    };
    const timer = setTimeout(() => done('other'), 20_000);
    socket.on('error', () => done('other'));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(outcome ?? 'other');
    });
    socket.once('connect', () => socket.write(encodeFrame(OP.Handshake, { v: 1, client_id: clientId })));
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        const message = JSON.parse(frame.body.toString('utf8')) as { evt?: unknown; code?: unknown; nonce?: unknown };
        if (outcome === undefined) {
          if (frame.opcode === OP.Close) return done(message.code === 4000 ? 'invalidClientId' : 'other');
          if (message.evt !== 'READY') return done('other');
          outcome = 'ready';
          socket.write(encodeFrame(OP.Frame, { cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity: { state: 'Registering', details: clientId } }, nonce: 'a' }));
        } else if (message.nonce === 'a') {
          return done('ready');
        }
      }
    });
  });
}

/** The files a flood of ids grew before registration was bounded. */
function readFiles(host: ServerProcess, dataDir: string): Record<string, number | null> {
  return {
    rssMiB: memorySample(host.pid).rssMiB,
    stateDbKiB: sizeKiB(path.join(dataDir, 'platform', 'state.db')),
    presenceJsonKiB: sizeKiB(path.join(dataDir, 'presence.json')),
  };
}

/** Waits until a game with the demo app gets READY (the host has signed in). */
async function signedIn(socketPath: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while ((await oneGame(socketPath, '1234567890123456789')) !== 'ready') {
    if (performance.now() > deadline) throw new Error('registration: the host never admitted the demo app');
    await sleep(250);
  }
}

export async function registrationPhase(ctx: PlatformBenchContext, config: RegistrationConfig): Promise<Record<string, unknown>> {
  const inspectPort = await freeLoopbackPort();
  const host = await startHost(ctx, 'registration', [], [`--inspect=127.0.0.1:${inspectPort}`]);
  const dataDir = path.join(ctx.tmpRoot, 'registration', 'data');
  try {
    await signedIn(host.socketPath);
    await sleep(config.settleMs);
    const idle = readFiles(host, dataDir);
    const heap = await InspectorHeap.connect(inspectPort);
    const idleHeapAfterGcMiB = round2(await heap.usedAfterGcMiB());
    ctx.progress(`registration: host pid ${host.pid}, idle RSS ${idle.rssMiB} MiB; ${config.ids} handshakes with distinct ids`);
    const outcomes: Record<Outcome, number> = { ready: 0, invalidClientId: 0, other: 0 };
    let peakRss = idle.rssMiB ?? 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, memorySample(host.pid).rssMiB)), 200);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: config.concurrency }, async () => {
        while (next < config.ids) {
          const id = String(900_000_000_000_000_000n + BigInt(next++));
          outcomes[await oneGame(host.socketPath, id)] += 1;
        }
      }),
    );
    const floodS = round2((performance.now() - t0) / 1000);
    clearInterval(sampler);
    const atEnd = readFiles(host, dataDir);
    const peak = { ...atEnd, rssMiB: Math.max(peakRss, atEnd.rssMiB ?? 0) };
    ctx.progress(`registration: ${floodS} s, ${JSON.stringify(outcomes)}; peak RSS ${peak.rssMiB} MiB; waiting ${config.afterMs / 1000} s`);
    await sleep(config.afterMs);
    const after = readFiles(host, dataDir);
    const heapAfterGcMiB = round2(await heap.usedAfterGcMiB());
    const afterGc = { idleHeapAfterGcMiB, heapAfterGcMiB, rssMiB: memorySample(host.pid).rssMiB };
    heap.close();
    return {
      ids: config.ids,
      concurrency: config.concurrency,
      floodS,
      outcomes,
      idle,
      peak,
      after: { ...after, afterMs: config.afterMs },
      rssAboveIdleAfterMiB: round2((after.rssMiB ?? NaN) - (idle.rssMiB ?? NaN)),
      afterForcedGc: afterGc,
    };
  } finally {
    await host.stop().catch(() => undefined);
  }
}
