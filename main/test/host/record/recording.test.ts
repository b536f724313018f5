/**
 * Recording: what a host writes (frames both ways, connection and consent events), secrets
 * redacted by default and kept with --record-secrets, a file cut off by a kill read up to its
 * last whole record, and the runtime start / stop a UI toggle uses.
 */
import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { RecorderBusyError } from '../../../src/host/record/host-recorder.js';
import type { FrameRecord } from '../../../../common/src/recording/recording-format.js';
import { RecordingError } from '../../../../common/src/recording/recording-error.js';
import { readRecording, scanRecording } from '../../../src/host/record/record-reader.js';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';
import { DEMO_APP_ID, eventually, World } from '../../e2e/support/world.js';
import { JOIN_SECRET, recordingWorld, recordXhayperSession } from '../../tools/replay/support.js';

const { track, dir } = cliCleanup('companion-record-');
const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

/** Every record of a recording as JSON text (decompressed and decoded), to look for secrets in. */
async function recordedText(file: string): Promise<string> {
  const parts: string[] = [];
  scanRecording(await readFile(file), file, (value) => parts.push(JSON.stringify(value)));
  return parts.join('\n');
}

function frames(records: readonly { kind: string }[]): FrameRecord[] {
  return records.filter((r): r is FrameRecord => r.kind === 'frame');
}

describe('a recording of a real client session', () => {
  it('holds every frame both ways with its connection, transport and opcode, plus connection and consent events; secrets redacted', async () => {
    const { file, issued } = await recordXhayperSession(worlds);

    const recording = await readRecording(file);
    expect(recording.header).toMatchObject({ kind: 'header', format: 'companion-recording', version: 2, companion: '0.0.0-test', redacted: true });
    expect(Date.parse(recording.header.started_at)).not.toBeNaN();
    expect(recording.tail).toBeNull();
    const times = recording.records.map((r) => r.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const all = frames(recording.records);
    expect(all.every((f) => f.connection === 'c1' && f.transport === 'ipc')).toBe(true);
    const describe = (f: FrameRecord): string => {
      const { cmd, evt } = (f.payload ?? {}) as { cmd?: string; evt?: string | null };
      return `${f.direction} ${f.opcode} ${cmd ?? ''}${typeof evt === 'string' ? `/${evt}` : ''}`;
    };
    expect(all.map(describe)).toEqual([
      'in 0 ',
      'out 1 DISPATCH/READY',
      'in 1 AUTHORIZE',
      'out 1 AUTHORIZE',
      'in 1 AUTHENTICATE',
      'out 1 AUTHENTICATE',
      'in 1 SET_ACTIVITY',
      'out 1 SET_ACTIVITY',
      'in 1 SUBSCRIBE/ACTIVITY_JOIN',
      'out 1 SUBSCRIBE',
    ]);
    const kinds = recording.records.filter((r) => r.kind !== 'frame' && r.kind !== 'gateway' && r.kind !== 'relay').map((r) => r.kind);
    expect(kinds).toEqual(['open', 'ready', 'consent', 'close']);
    // The relay's outcomes, as the live inspector lists them (issue 26 §9): the SET_ACTIVITY's, and the clear on close.
    expect(recording.records.filter((r) => r.kind === 'relay').map((r) => (r.kind === 'relay' ? r.connection : ''))).toEqual(['c1', 'c1']);
    expect(recording.records.find((r) => r.kind === 'consent')).toMatchObject({ connection: 'c1', application_id: DEMO_APP_ID, scopes: ['identify', 'rpc'], outcome: 'approved', by: 'policy' });
    expect(recording.records.find((r) => r.kind === 'close')).toMatchObject({ connection: 'c1', client_id: DEMO_APP_ID, pid: process.pid, reason: 'peer-closed' });
    expect(recording.records.some((r) => r.kind === 'gateway' && r.type === 'OAUTH2_GRANT_CREATE')).toBe(true);

    // Redacted: neither the code, nor the token, nor the join secret is anywhere in the file, compressed or not.
    const bytes = await readFile(file);
    const text = await recordedText(file);
    expect(issued.code.length).toBeGreaterThan(10);
    expect(issued.accessToken.length).toBeGreaterThan(10);
    expect(text).toContain('In a squad');
    for (const secret of [issued.code, issued.accessToken, JOIN_SECRET]) {
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
      expect(text).not.toContain(secret);
    }
    const setActivity = all.find((f) => f.direction === 'in' && (f.payload as { cmd?: string }).cmd === 'SET_ACTIVITY');
    expect((setActivity?.payload as { args: { activity: { secrets: unknown; state: string } } }).args.activity).toMatchObject({ state: 'In a squad', secrets: { join: '[redacted]' } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  }, 20_000);

  it('a host recording at runtime: start and stop as a UI toggle does, open connections noted, one recording at a time', async () => {
    const world = await World.start();
    worlds.push(world);
    const alice = await world.player('alice');
    const game = await alice.game();
    const file = path.join(await world.tempDir('companion-rec-'), 'toggle.rec');
    expect(alice.host.recorder.status()).toMatchObject({ recording: false, file: null });

    const statuses: boolean[] = [];
    alice.host.recorder.on('status', (status) => statuses.push(status.recording));
    expect(await alice.host.recorder.start(file)).toMatchObject({ recording: true, file, secrets: false });
    await expect(alice.host.recorder.start(file)).rejects.toBeInstanceOf(RecorderBusyError);
    await game.client.user!.setActivity({ state: 'while recording' });
    const stopped = await alice.host.recorder.stop();
    expect(stopped).toMatchObject({ recording: false, file, dropped: 0, error: null });
    expect(stopped.records).toBeGreaterThanOrEqual(4);
    expect(stopped.bytes).toBe((await stat(file)).size);
    expect(statuses).toEqual([true, false]);
    await game.client.user!.setActivity({ state: 'after the recording' });

    const recording = await readRecording(file);
    expect(recording.records[0]).toMatchObject({ kind: 'open', connection: 'c1', existing: true, client_id: DEMO_APP_ID });
    const states = frames(recording.records).map((f) => (f.payload as { args?: { activity?: { state?: string } } }).args?.activity?.state);
    expect(states).toContain('while recording');
    expect(states).not.toContain('after the recording');
  }, 20_000);
});

describe('consent decisions', () => {
  it('a prompt the player answers is recorded as decided by the player, with the connection that asked', async () => {
    const { world, alice, file } = await recordingWorld({ consentPolicy: 'prompt' });
    worlds.push(world);
    alice.host.consent.on('request', (request) => setImmediate(() => alice.host.consent.decide(request.id, 'deny')));
    const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    expect((await client.request('AUTHORIZE', { scopes: ['identify'] })).data.code).toBe(5000);
    client.close();
    await alice.host.close();
    const consent = (await readRecording(file)).records.filter((r) => r.kind === 'consent');
    expect(consent).toEqual([{ kind: 'consent', t: expect.any(Number), connection: 'c1', application_id: DEMO_APP_ID, scopes: ['identify'], outcome: 'denied', by: 'player' }]);
  }, 20_000);
});

describe('a recording cut off', () => {
  it('is read up to its last whole record, the cut-off tail reported (record show: a note, exit 0)', async () => {
    const { file } = await recordXhayperSession(worlds);
    const whole = await readRecording(file);

    await truncate(file, (await stat(file)).size - 3);
    const cut = await readRecording(file);
    // The last chunk inflates as far as its bytes go: the records before the cut are kept
    // (the last bits of a DEFLATE stream can stand for a few bytes of the last record or two).
    expect(cut.records.length).toBeLessThan(whole.records.length);
    expect(cut.records.length).toBeGreaterThanOrEqual(whole.records.length - 2);
    expect(cut.records).toEqual(whole.records.slice(0, cut.records.length));
    expect(cut.tail).toMatchObject({ kind: 'truncated' });
    expect(cut.tail?.message).toContain(`read ${cut.records.length} whole records`);

    const show = await CliProcess.complete(['record', 'show', file]);
    expect(show.code).toBe(0);
    expect(show.stderr).toMatch(/^companion record: note: .* ends with an incomplete record \(cut off while writing\)/);
    expect(show.stdout.trim().split('\n')).toHaveLength(1 + cut.records.length);
  }, 20_000);

  it('by a SIGKILL of companion serve --record: readable, every record before the kill that reached the disk', async () => {
    const runtime = await dir();
    const file = path.join(runtime, 'killed.rec');
    const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime, '--record', file], { XDG_CONFIG_HOME: await dir() }));
    const [, socketPath] = await proc.waitForStdout(/listening on (\S+)\n/);
    await proc.waitForStdout(/Recording to .* \(secrets redacted\)\n/);
    expect(proc.stdout).toContain(`Recording to ${file} (secrets redacted)`);
    const { client } = await RawClient.ready(socketPath!, DEMO_APP_ID);
    const statesIn = async (): Promise<string[]> =>
      frames((await readRecording(file)).records)
        .filter((f) => f.direction === 'in' && f.opcode === Opcode.Frame)
        .map((f) => (f.payload as { args: { activity: { state: string } } }).args.activity.state);
    for (let i = 0; i < 50; i += 1) await client.request('SET_ACTIVITY', { pid: 4242, activity: { state: `round ${i}` } });
    // These 50 reach the disk shortly (batched); the next 200 are in flight when the kill comes.
    const deadline = Date.now() + 5000;
    while ((await statesIn()).length < 50 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 50; i < 250; i += 1) client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: `k${i}`, args: { pid: 4242, activity: { state: `round ${i}` } } });
    proc.kill('SIGKILL');
    await proc.exited;
    client.close();

    const recording = await readRecording(file);
    expect(recording.header.redacted).toBe(true);
    const states = await statesIn();
    expect(states.length).toBeGreaterThanOrEqual(50);
    expect(states).toEqual(Array.from({ length: states.length }, (_, i) => `round ${i}`));
  }, 20_000);
});

describe('--record-secrets', () => {
  it('keeps the secrets, with a warning; --record-secrets alone is a usage error', async () => {
    const runtime = await dir();
    const file = path.join(runtime, 'secrets.rec');
    const proc = track(CliProcess.run(['serve', '--runtime-dir', runtime, '--consent', 'approve', '--record', file, '--record-secrets'], { XDG_CONFIG_HOME: await dir() }));
    const [, socketPath] = await proc.waitForStdout(/listening on (\S+)\n/);
    await proc.waitForStdout(/Recording to .* \(secrets kept\)\n/);
    // stderr is another pipe: the warning may arrive a moment after stdout's lines.
    await eventually(() => proc.stderr.includes('warning: --record-secrets: the recording holds access tokens'), 'the warning on stderr');
    const info = JSON.parse(await readFile(path.join(runtime, 'companion', 'host.json'), 'utf8')) as { platform: { url: string } };

    const { client } = await RawClient.ready(socketPath!, DEMO_APP_ID);
    const authorized = await client.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
    const code = authorized.data.code as string;
    const response = await fetch(`${info.platform.url}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code }),
    });
    const token = ((await response.json()) as { access_token: string }).access_token;
    expect((await client.request('AUTHENTICATE', { access_token: token })).data.user.username).toBe('alice');
    await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'kept', party: { id: 'p', size: [1, 2] }, secrets: { join: JOIN_SECRET } } });
    proc.kill('SIGTERM');
    expect((await proc.exited).code).toBe(0);
    client.close();

    const text = await recordedText(file);
    for (const secret of [code, token, JOIN_SECRET]) expect(text).toContain(secret);
    expect((await readRecording(file)).header.redacted).toBe(false);

    const alone = await CliProcess.complete(['serve', '--record-secrets']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--record-secrets needs --record FILE');
  }, 20_000);
});

describe('files that are not recordings', () => {
  it('name the problem', async () => {
    const scratch = await dir();
    await expect(readRecording(path.join(scratch, 'missing.rec'))).rejects.toThrow(/missing\.rec does not exist/);
    await writeFile(path.join(scratch, 'empty.rec'), '');
    await expect(readRecording(path.join(scratch, 'empty.rec'))).rejects.toThrow(/empty\.rec is empty: not a recording/);
    await writeFile(path.join(scratch, 'text.rec'), '{"kind":"header"}\n');
    await expect(readRecording(path.join(scratch, 'text.rec'))).rejects.toBeInstanceOf(RecordingError);
    await expect(readRecording(scratch)).rejects.toThrow(/is a directory/);
    const show = await CliProcess.complete(['record', 'show', path.join(scratch, 'text.rec')]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain('text.rec is not a recording');
  });
});
