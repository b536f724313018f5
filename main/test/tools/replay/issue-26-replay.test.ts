/**
 * Issue 26 §9: `companion replay` of a recording with a PING (the host answers PONG) reports no
 * difference, and an inspector Export replays like a recording.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { readRecording } from '../../../src/host/record/record-reader.js';
import { FrameLog } from '../../../src/host/ui-bridge/frame-log.js';
import { planReplay } from '../../../src/tools/replay/replay-plan.js';
import { runReplay, type ReplayReport } from '../../../src/tools/replay/replay-runner.js';
import { formatReplayReport } from '../../../src/tools/replay/replay-report.js';
import { DEMO_APP_ID, eventually, World, type Player } from '../../e2e/support/world.js';
import { CliProcess } from '../../support/cli-process.js';
import { recordingWorld } from './support.js';

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

async function freshAlice(): Promise<{ world: World; player: Player }> {
  const world = await World.start();
  worlds.push(world);
  return { world, player: await world.player('alice', { consentPolicy: 'approve' }) };
}

async function replay(file: string): Promise<ReplayReport> {
  const target = await freshAlice();
  const plan = planReplay(await readRecording(file));
  return runReplay(plan, { ipcPath: target.player.host.ipcPath, platformUrl: target.world.platform.url }, { fast: true, timeoutMs: 2000 });
}

/** A game's session with a PING among its commands, on alice's host; it leaves, then the host closes. */
async function pingSession(alice: Player): Promise<void> {
  const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
  expect((await client.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Pinging' } })).evt).toBeNull();
  client.send(Opcode.Ping, { hello: 'ping' });
  expect((await client.waitFor((frame) => frame.opcode === Opcode.Pong, 'PONG')).payload).toEqual({ hello: 'ping' });
  expect((await client.request('SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN' })).evt).toBeNull();
  client.close();
  await eventually(() => [...alice.host.server.connections()].length === 0, 'the game to leave');
}

describe('issue 26 §9: replay and recordings', () => {
  it('a recording that contains a PING replays with no difference: the host answers PONG', async () => {
    const { world, alice, file } = await recordingWorld();
    worlds.push(world);
    await pingSession(alice);
    await alice.host.close();
    const recording = await readRecording(file);
    expect(recording.records.some((record) => record.kind === 'frame' && record.direction === 'out' && record.opcode === Opcode.Pong)).toBe(true);
    const report = await replay(file);
    expect(formatReplayReport(report)).toContain('No differences');
    expect(report.differenceCount).toBe(0);
  }, 30_000);

  it("an inspector Export replays with `companion replay` (it was \"not a recording\")", async () => {
    const world = await World.start();
    worlds.push(world);
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    // The inspector's rows as the host keeps them, exported as the UI's Export writes them.
    const log = new FrameLog();
    alice.host.server.on('frame', (trace) => log.record(trace));
    const unsubscribe = alice.host.hostEvents.subscribe((event) => {
      if (event.kind === 'close') {
        const { probe, ...close } = event;
        if (!probe) log.recordEvent(close, Date.now());
      } else log.recordEvent(event, Date.now());
    });
    await pingSession(alice);
    unsubscribe();
    // One JSON line per row, as renderer/src/store/frames.ts's exportRows writes them.
    const file = path.join(await world.tempDir('companion-export-'), 'session.jsonl');
    await writeFile(file, log.list().map((frame) => `${JSON.stringify({ ...frame, rtt_ms: null, reply_to: null })}\n`).join(''));

    const recording = await readRecording(file);
    expect(recording.header).toMatchObject({ companion: 'inspector export', redacted: true });
    expect(recording.records.map((record) => record.kind)).toEqual(expect.arrayContaining(['open', 'frame', 'ready', 'close']));
    const report = await replay(file);
    expect(formatReplayReport(report)).toContain('No differences');
    expect(report.connections).toEqual([expect.objectContaining({ skipped: null, sent: 4, received: 4 })]);

    // The command line takes it too.
    const fresh = await freshAlice();
    const cli = await CliProcess.complete(['replay', file, '--host', fresh.player.host.runtimeFile ?? '', '--fast']);
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toContain('No differences');
    expect(cli.code).toBe(0);
  }, 40_000);
});
