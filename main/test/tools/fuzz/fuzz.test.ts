/**
 * The bounded fuzz: 20,000 generated frames of every command (valid, with fields of the wrong
 * type, damaged JSON, wrong opcodes, HANDSHAKE and PING variants) against an in-process host
 * with its embedded emulator, over real IPC sockets. FUZZ_SEED=<n> repeats a run; a failure
 * names the seed and the frame index (fuzzFrame(seed, index, targets) gives the frame again).
 * At any scale: `npm run bench -- fuzz --frames N`.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/base/logger.js';
import type { Host } from '../../../src/host/compose/host.js';
import { runFuzz, type FuzzReport } from '../../../src/tools/fuzz/fuzz-run.js';
import { randomSeed } from '../../../src/tools/fuzz/seeded-random.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import { DEMO_APP_ID, eventually, startTestHost } from '../../e2e/support/world.js';

const FRAMES = 20_000;
const SEED = process.env['FUZZ_SEED'] === undefined ? randomSeed() : Number(process.env['FUZZ_SEED']);
const RSS_GROWTH_MAX_MIB = 150;

interface LogLine {
  readonly level: number;
  readonly msg?: string;
}

const logLines: LogLine[] = [];
const dirs: string[] = [];
let host: Host;

beforeAll(async () => {
  const runtimeDir = await makeTempDir('companion-fuzz-rt-');
  const dataDir = await makeTempDir('companion-fuzz-data-');
  dirs.push(runtimeDir, dataDir);
  // Every warning and error the host (and its embedded emulator) logs, as the JSON lines pino writes.
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void logLines.push(JSON.parse(line) as LogLine) } });
  // The embedded emulator, and AUTHORIZE approved without a prompt so that it answers at once.
  host = await startTestHost({ runtimeDir, dataDir, logger, consentPolicy: 'approve', webUi: false });
  await eventually(() => host.session.status.status === 'ready', "the host's gateway READY", 10_000);
});

afterAll(async () => {
  await host?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe(`fuzz (seed ${SEED}; repeat with FUZZ_SEED=${SEED})`, () => {
  let report: FuzzReport;

  it(`${FRAMES} mutated frames: no internal error, every code known, no close where the connection stays, no hang`, async () => {
    report = await runFuzz({
      socketPath: host.ipcPath,
      platformUrl: host.platform.url,
      clientId: DEMO_APP_ID,
      frames: FRAMES,
      seed: SEED,
      rssMiB: () => process.memoryUsage.rss() / 2 ** 20,
    });
    process.stdout.write(`fuzz seed ${SEED}: ${JSON.stringify({ ...report, examples: undefined, hostWarnings: logLines.length })}\n`);
    expect(report.frames).toBe(FRAMES);
    expect(report.examples).toEqual([]);
    expect(report.internalErrors).toBe(0);
    // Violations (bad JSON, wrong opcodes) are allowed and do occur; commands are answered.
    expect(report.protocolViolations).toBeGreaterThan(0);
    expect(report.replies['ok']).toBeGreaterThan(0);
  }, 60_000);

  it('no log line at error level or above', () => {
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('the bystander game got every reply within 500 ms', () => {
    expect(report.bystander.failures).toEqual([]);
    expect(report.bystander.replies).toBeGreaterThan(0);
    expect(report.bystander.late).toBe(0);
  });

  it(`RSS grew by less than ${RSS_GROWTH_MAX_MIB} MiB`, () => {
    expect(report.rssMiB.peak - report.rssMiB.start).toBeLessThan(RSS_GROWTH_MAX_MIB);
  });
});
