/** `companion record show`: the timeline, its filters, and --json, on a recording of two games. */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { CliProcess } from '../../support/cli-process.js';
import { eventually, type World } from '../../e2e/support/world.js';
import { recordingWorld } from '../../tools/replay/support.js';

let world: World;
let file: string;

beforeAll(async () => {
  const made = await recordingWorld();
  world = made.world;
  file = made.file;
  const host = made.alice.host;
  const first = (await RawClient.ready(host.ipcPath, '111111111111111111')).client;
  const second = (await RawClient.ready(host.ipcPath, '222222222222222222')).client;
  await first.request('SET_ACTIVITY', { pid: 11, activity: { state: 'first game' } }, { nonce: 'n-first-1' });
  await first.request('SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN', nonce: 'n-first-2' });
  await new Promise((resolve) => setTimeout(resolve, 150));
  await second.request('SET_ACTIVITY', { pid: 22, activity: { state: 'second game' } }, { nonce: 'n-second-1' });
  first.close();
  second.close();
  await eventually(() => [...host.server.connections()].length === 0, 'both games to leave');
  await host.close();
}, 20_000);

afterAll(async () => world?.close());

async function show(...args: string[]): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const proc = await CliProcess.complete(['record', 'show', file, ...args]);
  return { code: proc.code, lines: proc.stdout.trimEnd().split('\n'), stderr: proc.stderr };
}

describe('companion record show', () => {
  it('prints a header line and one line per record: time, connection, arrow, command and event, nonce, payload', async () => {
    const { code, lines, stderr } = await show();
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(lines[0]).toMatch(/^Recording by Companion 0\.0\.0-test, started \d{4}-\d\d-\d\dT.*Z, secrets redacted$/);
    expect(lines).toContainEqual(expect.stringMatching(/^ +\d+\.\d ms {2}c1 {3}→ HANDSHAKE \{"v":1,"client_id":"111111111111111111"\}$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +\d+\.\d ms {2}c1 {3}← DISPATCH READY \{"v":1,"config":/));
    expect(lines).toContainEqual(expect.stringMatching(/ c1 {3}→ SET_ACTIVITY nonce=n-first-1 \{"pid":11,"activity":\{"state":"first game"\}\}$/));
    expect(lines).toContainEqual(expect.stringMatching(/ c1 {3}← SET_ACTIVITY nonce=n-first-1 \{.*"state":"first game"/));
    expect(lines).toContainEqual(expect.stringMatching(/ c1 {3}→ SUBSCRIBE ACTIVITY_JOIN nonce=n-first-2 \{\}$/));
    expect(lines).toContainEqual(expect.stringMatching(/ c2 {3}· ready, client 222222222222222222$/));
    expect(lines).toContainEqual(expect.stringMatching(/ c2 {3}· closed: peer-closed, client 222222222222222222, pid 22$/));
  });

  it('--connection, --cmd and --evt filter; filters combine', async () => {
    const byConnection = (await show('--connection', 'c2')).lines.slice(1);
    expect(byConnection.length).toBeGreaterThan(3);
    expect(byConnection.every((line) => / c2 {3}/.test(line))).toBe(true);

    const byCmd = (await show('--cmd', 'set_activity')).lines.slice(1);
    expect(byCmd).toHaveLength(4);
    expect(byCmd.every((line) => line.includes('SET_ACTIVITY'))).toBe(true);

    const both = (await show('--cmd', 'SET_ACTIVITY', '--connection', 'c1')).lines.slice(1);
    expect(both).toHaveLength(2);

    const byEvt = (await show('--evt', 'READY')).lines.slice(1);
    expect(byEvt).toHaveLength(3); // two READY dispatches to games and the gateway's READY
    expect(byEvt.filter((line) => line.includes('DISPATCH READY'))).toHaveLength(2);
    expect(byEvt.filter((line) => line.includes('· gateway READY'))).toHaveLength(1);
  });

  it('--from and --to keep a time range (ms since the start); a reversed range is a usage error', async () => {
    const all = (await show('--json')).lines.slice(1).map((line) => JSON.parse(line) as { t: number; connection?: string });
    const second = all.find((record) => record.connection === 'c2' && record.t > (all.find((r) => r.connection === 'c1')?.t ?? 0) + 100);
    expect(second).toBeDefined();
    const from = Math.floor(second!.t);
    const ranged = (await show('--from', String(from), '--json')).lines.slice(1).map((line) => JSON.parse(line) as { t: number });
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.every((record) => record.t >= from)).toBe(true);
    expect(ranged.length).toBe(all.filter((record) => record.t >= from).length);
    const until = (await show('--to', String(from), '--json')).lines.slice(1).map((line) => JSON.parse(line) as { t: number });
    expect(until.length + ranged.length).toBeGreaterThanOrEqual(all.length);
    const reversed = await show('--from', '10', '--to', '5');
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('--from (10) is after --to (5)');
    const notNumber = await show('--from', 'soon');
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain("--from must be a number of milliseconds, got 'soon'");
  });

  it('--json: one JSON object per line, the header first, each record as written', async () => {
    const { lines } = await show('--json', '--cmd', 'SET_ACTIVITY', '--connection', 'c1');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ kind: 'header', format: 'companion-recording', version: 2, redacted: true });
    expect(parsed.slice(1)).toEqual([
      { kind: 'frame', t: expect.any(Number), connection: 'c1', transport: 'ipc', direction: 'in', opcode: 1, payload: { cmd: 'SET_ACTIVITY', args: { pid: 11, activity: { state: 'first game' } }, nonce: 'n-first-1' } },
      expect.objectContaining({ kind: 'frame', connection: 'c1', direction: 'out', payload: expect.objectContaining({ cmd: 'SET_ACTIVITY', nonce: 'n-first-1', evt: null }) }),
    ]);
  });

  it('usage errors: no action, an unknown one, no file', async () => {
    const none = await CliProcess.complete(['record']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing action: 'companion record show FILE'");
    const unknown = await CliProcess.complete(['record', 'play', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown action 'play'");
    const noFile = await CliProcess.complete(['record', 'show']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('record show needs the recording FILE');
  });
});
