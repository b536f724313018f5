/* eslint-disable @typescript-eslint/no-explicit-any -- event payloads are checked by the expectations */
/**
 * `companion platform friend`: a simulated friend (bob) driven through the emulator's admin
 * routes, with one host only (alice's). The whole invite loop: bob asks to join and alice's
 * game (subscribed to ACTIVITY_JOIN_REQUEST) hears it; bob invites and alice joins with bob's
 * secret; alice asks to join and bob accepts (her game gets ACTIVITY_JOIN) or declines (her
 * host is told); bob accepts alice's invite and shows in her party.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { friendCommand } from '../../../src/shells/cli/platform-friend.js';
import type { FakeGame } from '../../../src/tools/fake-game/fake-game.js';
import { controlCall, DEMO_APP_ID, eventually } from '../../e2e/support/world.js';
import { aliceWorldPerTest, namedGame, settle } from './support.js';

const OTHER_APP_ID = '987654321098765432';
const JOINABLE = { state: 'In a squad', party: { id: 'party-alice', size: [1, 4] as [number, number] }, secrets: { join: 'alice-join-secret' } };

const t = aliceWorldPerTest();
let tmp: string;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'companion-friend-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs `companion platform friend ...` against the world's emulator; --to defaults to alice's host's account. */
async function friend(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await friendCommand([...argv, '--data', t.world.platform.dataDir, '--runtime-dir', t.alice.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

async function game(clientId: string, name: string, subscribe: string[], activity?: Record<string, unknown>): Promise<FakeGame> {
  const started = await namedGame(t.alice.runtimeDir, clientId, name, subscribe);
  t.games.push(started);
  if (activity !== undefined) expect((await started.setActivity({ ...activity, details: name })).successful).toBe(true);
  return started;
}

const bobId = (): string => t.world.platform.user('bob')!.id;

describe('companion platform friend', () => {
  it("ask-to-join reaches alice's game subscribed to ACTIVITY_JOIN_REQUEST (and no other game); her yes reaches bob, who joins her party", async () => {
    // The platform shows the activity set last: the other game's first.
    const other = await game(OTHER_APP_ID, 'other game', ['ACTIVITY_JOIN_REQUEST'], { state: 'Elsewhere' });
    const host = await game(DEMO_APP_ID, 'host game', ['ACTIVITY_JOIN_REQUEST'], JOINABLE);
    await eventually(() => t.world.platform.presence(t.alice.host.session.user!.id)?.activities.some((a) => a.party?.id === 'party-alice'), "alice's party on the platform");

    const asked = await friend('ask-to-join', '--as', 'bob');
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^bob asked alice to join \(message \d+\); alice's games subscribed to ACTIVITY_JOIN_REQUEST get it\n$/);
    const request: any = await host.waitForEvent('ACTIVITY_JOIN_REQUEST', 5000);
    expect(request).toMatchObject({ type: 5, user: { id: bobId(), username: 'bob' } });

    // The game says yes (SEND_ACTIVITY_JOIN_INVITE); bob accepts the invite and shows in the party.
    await host.request('SEND_ACTIVITY_JOIN_INVITE', { user_id: bobId() });
    const accepted = await friend('accept', '--as', 'bob');
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/^bob accepted alice's invite \d+ and joined the party\n$/);
    await eventually(() => t.alice.host.friends.get(bobId())?.presence.activities.some((a) => a.party?.id === 'party-alice'), "bob in alice's party, seen by alice");
    await settle();
    expect(other.events()).toEqual([]);
  });

  it('invite: bob starts a party and invites alice; she accepts and her game joins with his secret', async () => {
    const guest = await game(DEMO_APP_ID, 'guest game', ['ACTIVITY_INVITE', 'ACTIVITY_JOIN']);
    const sent = await friend('invite', '--as', 'bob', '--app', DEMO_APP_ID, '--message', 'come play');
    expect(sent.code, sent.stderr).toBe(0);
    const invite: any = await guest.waitForEvent('ACTIVITY_INVITE', 5000);
    expect(invite).toMatchObject({ type: 1, user: { username: 'bob' }, activity: { party: { size: [1, 4] } } });
    expect(invite.activity.secrets).toBeUndefined();

    const accept = await controlCall(t.alice.host, 'POST', `/v1/invites/${invite.message_id}/accept`, {});
    expect(accept).toMatchObject({ status: 200, body: { secret_delivered: true } });
    const joined: any = await guest.waitForEvent('ACTIVITY_JOIN', 5000);
    expect(joined.secret).toMatch(/^sim-join-[0-9a-f]{24}$/);
  });

  it('presence from an activity file; alice asks to join and bob says yes: her game gets his join secret', async () => {
    const file = path.join(tmp, 'bob-activity.json');
    await writeFile(file, JSON.stringify({ state: 'Raid night', details: 'Boss 3', party: { id: 'bob-raid', size: [2, 5] }, secrets: { join: 'bob-raid-secret' } }));
    const set = await friend('presence', '--as', 'bob', '--app', DEMO_APP_ID, '--activity', file);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('bob is online, Companion Demo Game · Boss 3 · Raid night · party 2/5\n');
    await eventually(() => t.alice.host.friends.get(bobId())?.presence.activities.find((a) => a.party?.id === 'bob-raid'), "bob's raid seen by alice");

    const guest = await game(DEMO_APP_ID, 'joiner', ['ACTIVITY_JOIN']);
    const join = await controlCall(t.alice.host, 'POST', `/v1/friends/${bobId()}/join`, {});
    expect(join).toMatchObject({ status: 200, body: { joined: false } });
    const accepted = await friend('accept', '--as', 'bob');
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/^bob accepted alice's join request \d+: an invite went back \(message \d+\), so alice's host joins\n$/);
    expect(await guest.waitForEvent('ACTIVITY_JOIN', 5000)).toEqual({ secret: 'bob-raid-secret' });
  });

  it("decline: alice's host hears that her request was declined", async () => {
    expect((await friend('presence', '--as', 'bob', '--app', DEMO_APP_ID)).code).toBe(0);
    await eventually(() => t.alice.host.friends.get(bobId())?.presence.activities.find((a) => a.application_id === DEMO_APP_ID), "bob's party seen by alice");
    const declined = new Promise<unknown>((resolve) => t.alice.host.social.on('change', (change) => change.type === 'request-declined' && resolve(change.data)));
    expect((await controlCall(t.alice.host, 'POST', `/v1/friends/${bobId()}/join`, {})).status).toBe(200);
    const result = await friend('decline', '--as', 'bob', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ declined: 'join-request', told: true });
    expect(await declined).toMatchObject({ application_id: DEMO_APP_ID });
  });

  it('offline ends the simulated presence', async () => {
    expect((await friend('presence', '--as', 'carol', '--app', DEMO_APP_ID)).code).toBe(0);
    const carolId = t.world.platform.user('carol')!.id;
    await eventually(() => t.alice.host.friends.get(carolId)?.presence.status === 'online', 'carol online at alice');
    const off = await friend('offline', '--as', 'carol');
    expect(off).toEqual({ code: 0, stdout: 'carol is offline (the simulated presence ended)\n', stderr: '' });
    await eventually(() => t.alice.host.friends.get(carolId)?.presence.status === 'offline', 'carol offline at alice');
  });

  it('names the problem: no --as, not friends, an unknown user, nothing to accept, a bad activity file', async () => {
    await expect(friend('invite', '--app', DEMO_APP_ID)).rejects.toThrow('platform friend needs --as NAME');
    t.world.platform.admin.createUser('mallory');
    const strangers = await friend('invite', '--as', 'mallory', '--app', DEMO_APP_ID);
    expect(strangers.code).toBe(1);
    expect(strangers.stderr).toContain('mallory and alice are not friends (companion platform friends add mallory alice)');
    const unknown = await friend('ask-to-join', '--as', 'zed');
    expect(unknown).toMatchObject({ code: 1, stderr: "companion platform friend ask-to-join: Unknown user 'zed'\n" });
    const nothing = await friend('accept', '--as', 'bob');
    expect(nothing).toMatchObject({ code: 1, stderr: 'companion platform friend accept: no open join request or invite from alice to bob\n' });
    const bad = path.join(tmp, 'bad.json');
    await writeFile(bad, JSON.stringify({ state: 'x' }));
    await expect(friend('presence', '--as', 'bob', '--app', DEMO_APP_ID, '--activity', bad)).rejects.toThrow(/--activity: .*bad\.json is not a valid activity: .*state/);
    await expect(friend('presence', '--as', 'bob', '--activity', bad)).rejects.toThrow('platform friend presence needs --app ID');

    // No host to ask who "you" are: --to is needed, and the message says where it looked.
    let stderr = '';
    const io = { stdout: () => undefined, stderr: (text: string) => (stderr += text), env: {}, version: '0.0.0-test' };
    const code = await friendCommand(['ask-to-join', '--as', 'bob', '--data', t.world.platform.dataDir, '--runtime-dir', tmp], io);
    expect(code).toBe(1);
    expect(stderr).toBe(`companion platform friend ask-to-join: name yourself with --to NAME: no Companion is running here (${tmp}/companion/host.json does not exist); start one with 'companion serve', or pass --host\n`);
  });
});
