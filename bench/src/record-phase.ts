/**
 * The `record` phase: what recording costs. Two `companion serve` hosts started alike, one
 * with `--record FILE`; closed-loop SET_ACTIVITY at BENCH_RECORD_CLIENTS (100) clients on each,
 * alternating which goes first, BENCH_ROUNDS times; the ratio on/off is taken per round and
 * its median reported (target >= 0.8). Then the host with the recording stops (writing out
 * its buffer) and the file is read: bytes per recorded frame, and records lost to a disk
 * that did not keep up.
 * BENCH_RECORD_AA=1 (diagnostic): the second host does not record either, to see how far apart
 * two identical hosts measure on this machine.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { scanRecording } from '../../main/src/host/record/record-reader.js';
import { startHost, type PlatformBenchContext } from './platform-phases.js';
import type { ServerProcess } from './servers.js';
import { envInt } from './shared.js';

export const RECORD_TARGET_MIN_RATIO = 0.8;

/** What one closed-loop run on a host measured. */
export interface RecordLoadRun {
  readonly requestsPerSec: number;
  readonly serverCpuUsPerRequest: number;
  /** Fraction of one core the server used: near 1, the server is the bottleneck. */
  readonly serverCpuUtil: number;
  readonly lost: number;
  readonly mismatched: number;
}

export interface RecordPhaseDeps {
  readonly ctx: PlatformBenchContext;
  readonly rounds: number;
  /** One closed-loop run (one request in flight per client) of `clients` clients against `server`. */
  readonly load: (server: ServerProcess, clients: number) => Promise<RecordLoadRun>;
}

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** Frames, gaps and dropped records in a recording, counted without keeping the records. */
async function countRecording(file: string): Promise<{ bytes: number; recordBytes: number; frames: number; records: number; dropped: number }> {
  const bytes = (await stat(file)).size;
  let frames = 0;
  let records = 0;
  let dropped = 0;
  // A cut-off tail (the host was killed) is reported by the scan, not thrown: what is whole counts.
  const scan = scanRecording(await readFile(file), file, (value) => {
    records += 1;
    const record = value as { kind?: unknown; dropped?: unknown };
    if (record.kind === 'frame') frames += 1;
    else if (record.kind === 'gap' && typeof record.dropped === 'number') dropped += record.dropped;
  });
  return { bytes, recordBytes: scan.recordBytes, frames, records, dropped };
}

export async function recordPhase(deps: RecordPhaseDeps): Promise<Record<string, unknown>> {
  const { ctx } = deps;
  const clients = envInt('BENCH_RECORD_CLIENTS', 100);
  const file = path.join(ctx.tmpRoot, 'record-phase.rec');
  const aa = process.env.BENCH_RECORD_AA === '1';
  const off = await startHost(ctx, 'record-off');
  let on: ServerProcess | undefined;
  try {
    on = await startHost(ctx, 'record-on', aa ? [] : ['--record', file]);
    const runs: { off: RecordLoadRun; on: RecordLoadRun }[] = [];
    for (let round = 0; round < deps.rounds; round += 1) {
      const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      const result: Partial<Record<'off' | 'on', RecordLoadRun>> = {};
      for (const which of order) {
        ctx.progress(`record: round ${round + 1}, recording ${which}, ${clients} clients`);
        result[which] = await deps.load(which === 'on' ? on : off, clients);
        ctx.progress(`  ${which}: ${result[which]?.requestsPerSec} req/s, ${result[which]?.serverCpuUsPerRequest} us CPU/req`);
      }
      runs.push({ off: result.off as RecordLoadRun, on: result.on as RecordLoadRun });
    }
    await on.stop();
    const counted = aa ? { bytes: 0, recordBytes: 0, frames: 0, records: 0, dropped: 0 } : await countRecording(file);
    const ratios = runs.map((run) => (run.off.requestsPerSec > 0 ? run.on.requestsPerSec / run.off.requestsPerSec : 0));
    const ratio = median(ratios);
    // CPU per request does not depend on who is the bottleneck: the cost of recording itself.
    const cpuRatio = median(runs.map((run) => (run.off.serverCpuUsPerRequest > 0 ? run.on.serverCpuUsPerRequest / run.off.serverCpuUsPerRequest : 0)));
    return {
      ...(aa ? { diagnostic: 'BENCH_RECORD_AA=1: neither host records' } : {}),
      clients,
      rounds: deps.rounds,
      requestsPerSec: { off: runs.map((r) => r.off.requestsPerSec), on: runs.map((r) => r.on.requestsPerSec) },
      serverCpuUsPerRequest: { off: runs.map((r) => r.off.serverCpuUsPerRequest), on: runs.map((r) => r.on.serverCpuUsPerRequest) },
      serverCpuUtil: { off: runs.map((r) => r.off.serverCpuUtil), on: runs.map((r) => r.on.serverCpuUtil) },
      cpuPerRequestRatio: cpuRatio === null ? null : round3(cpuRatio),
      lostOrMismatched: runs.reduce((sum, r) => sum + r.off.lost + r.on.lost + r.off.mismatched + r.on.mismatched, 0),
      ratiosByRound: ratios.map(round3),
      recording: {
        ...counted,
        bytesPerFrame: counted.frames > 0 ? Math.round((counted.bytes / counted.frames) * 10) / 10 : null,
        recordBytesPerFrame: counted.frames > 0 ? Math.round((counted.recordBytes / counted.frames) * 10) / 10 : null,
        note:
          'bytesPerFrame: the whole file (compressed; header, connection and gateway records included) / frame records. ' +
          'recordBytesPerFrame: the same before compression. Every request here carries the same activity, which compresses ' +
          'far better than a real session would. dropped: records lost to the buffer limit',
      },
      target: { ratio: ratio === null ? null : round3(ratio), min: RECORD_TARGET_MIN_RATIO, pass: ratio !== null && ratio >= RECORD_TARGET_MIN_RATIO },
    };
  } finally {
    await Promise.all([off.stop().catch(() => undefined), on?.stop().catch(() => undefined)]);
  }
}
