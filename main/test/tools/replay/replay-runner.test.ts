/**
 * Replay in-process against real hosts: a recording that kept its secrets, PKCE, a refused
 * handshake, a host with another consent policy, and the recorded pacing.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { readRecording } from '../../../src/host/record/record-reader.js';
import type { FrameRecord } from '../../../../common/src/recording/recording-format.js';
import { planReplay } from '../../../src/tools/replay/replay-plan.js';
import { runReplay, type ReplayReport } from '../../../src/tools/replay/replay-runner.js';
import { formatReplayReport } from '../../../src/tools/replay/replay-report.js';
import { DEMO_APP_ID, eventually, World, type Player, type TestHostOptions } from '../../e2e/support/world.js';
import { recordingWorld, recordXhayperSession } from './support.js';

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

interface Target {
  readonly world: World;
  readonly player: Player;
}

async function freshHost(extra: Partial<TestHostOptions> = {}, strictApps = false): Promise<Target> {
  const world = await World.start(undefined, strictApps);
  worlds.push(world);
  return { world, player: await world.player('alice', { consentPolicy: 'approve', ...extra }) };
}

async function replay(file: string, target: Target, fast = true): Promise<ReplayReport> {
  const plan = planReplay(await readRecording(file));
  return runReplay(plan, { ipcPath: target.player.host.ipcPath, platformUrl: target.world.platform.url }, { fast, timeoutMs: 2000 });
}

/** The games leave, then the recording host closes (its recording is then complete). */
async function leave(player: Player, ...clients: RawClient[]): Promise<void> {
  for (const client of clients) client.close();
  await eventually(() => [...player.host.server.connections()].length === 0, 'the games to leave');
  await player.host.close();
}

async function tokenFor(world: World, code: string, verifier?: string): Promise<string> {
  const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code, ...(verifier === undefined ? {} : { code_verifier: verifier }) }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (body.access_token === undefined) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

describe('replay substitutes what a fresh host issues anew', () => {
  it('a recording that kept its secrets: AUTHENTICATE gets the new token, not the recorded one', async () => {
    const { file, issued } = await recordXhayperSession(worlds, true);
    const authenticate = (await readRecording(file)).records.find((r): r is FrameRecord => r.kind === 'frame' && (r.payload as { cmd?: string }).cmd === 'AUTHENTICATE');
    expect((authenticate?.payload as { args: { access_token: string } }).args.access_token).toBe(issued.accessToken);

    const report = await replay(file, await freshHost());
    expect(formatReplayReport(report)).toContain('No differences');
    expect(report.differenceCount).toBe(0);
  }, 20_000);

  it('PKCE: the AUTHORIZE gets a fresh challenge, and its code is redeemed with the matching verifier', async () => {
    const { world, alice, file } = await recordingWorld();
    worlds.push(world);
    const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorized = await client.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'], code_challenge: challenge, code_challenge_method: 'S256' });
    const token = await tokenFor(world, authorized.data.code, verifier);
    const authenticated = await client.request('AUTHENTICATE', { access_token: token });
    expect(authenticated.data.user.username).toBe('alice');
    await leave(alice, client);

    const target = await freshHost();
    const report = await replay(file, target);
    expect(report.differenceCount).toBe(0);
    expect(report.notes.join('\n')).toMatch(/AUTHENTICATE \(nonce n-[^)]+\): sent the access token redeemed/);
    // Replay closed its connection when it was done.
    await eventually(() => [...target.player.host.server.connections()].length === 0, 'the replayed game to leave');
  }, 20_000);
});

describe('replay reports what differs', () => {
  it('a host with another consent policy (deny): the AUTHORIZE and AUTHENTICATE replies differ, each path named', async () => {
    const { file } = await recordXhayperSession(worlds);

    const report = await replay(file, await freshHost({ consentPolicy: 'deny' }));
    const text = formatReplayReport(report);
    expect(report.differenceCount).toBeGreaterThan(0);
    expect(text).toMatch(/ {2}reply to AUTHORIZE \(nonce [^)]+\)\n {4}\$\.data\.code\n {6}expected: "\[redacted\]"\n {6}actual: {3}5000\n/);
    expect(text).toContain('    $.evt\n      expected: null\n      actual:   "ERROR"');
    expect(text).toMatch(/AUTHENTICATE \(nonce [^)]+\): no new token \(its reply carried no code\); sent the recorded value/);
    expect(text).not.toMatch(/access_token":"(?!\[redacted\])/);
  }, 20_000);

  it('a refused handshake is expected again (CLOSE 4000); a host that lets the game in differs', async () => {
    const { world, alice, file } = await recordingWorld({}, false, true);
    worlds.push(world);
    const client = await RawClient.connect(alice.host.ipcPath);
    client.send(Opcode.Handshake, { v: 1, client_id: '999999999999999999' });
    await client.closed;
    expect(client.frames.at(-1)?.payload).toEqual({ code: 4000, message: 'Invalid Client ID' });
    await leave(alice);

    expect((await replay(file, await freshHost({}, true))).differenceCount).toBe(0);
    const lenient = await replay(file, await freshHost());
    const text = formatReplayReport(lenient);
    expect(text).toContain('  CLOSE\n    $\n      expected: {"code":4000,"message":"Invalid Client ID"}\n      actual:   (absent)');
    expect(text).toMatch(/event READY, not in the recording\n {4}\$\n {6}expected: \(absent\)\n {6}actual: {3}\{"cmd":"DISPATCH"/);
  }, 20_000);
});

describe('pacing', () => {
  it('without --fast, frames go at their recorded times; with it, back to back', async () => {
    const { world, alice, file } = await recordingWorld();
    worlds.push(world);
    const { client } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'one' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'two' } });
    await leave(alice, client);

    const gapOn = async (fast: boolean): Promise<number> => {
      const target = await freshHost();
      const seen = path.join(await target.world.tempDir('companion-rec-'), 'replayed.rec');
      await target.player.host.recorder.start(seen);
      expect((await replay(file, target, fast)).differenceCount).toBe(0);
      await eventually(() => [...target.player.host.server.connections()].length === 0, 'the replay to leave');
      await target.player.host.recorder.stop();
      const sent = (await readRecording(seen)).records.filter((r): r is FrameRecord => r.kind === 'frame' && r.direction === 'in' && r.opcode === Opcode.Frame);
      expect(sent).toHaveLength(2);
      return sent[1]!.t - sent[0]!.t;
    };
    expect(await gapOn(false)).toBeGreaterThan(350);
    expect(await gapOn(true)).toBeLessThan(200);
  }, 20_000);
});
