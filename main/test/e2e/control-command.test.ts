/**
 * `companion control`: the docs' two-host walkthrough (bob asks to join alice's game, alice's
 * game says yes, bob's game joins) driven through the command, against two real hosts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { controlCommand } from '../../src/shells/cli/control.js';
import { UsageError } from '../../src/shells/cli/cli-args.js';
import { joinableActivity, World, type Player } from './support/world.js';

let world: World;
let alice: Player;
let bob: Player;
beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice');
  bob = await world.player('bob');
});
afterEach(async () => world.close());

async function control(player: Player | string, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const runtimeDir = typeof player === 'string' ? player : player.runtimeDir;
  const code = await controlCommand([...argv, '--runtime-dir', runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

describe('companion control', () => {
  it('status, friends, join by name: bob asks, alice\'s game says yes, bob\'s game gets ACTIVITY_JOIN', async () => {
    const status = await control(bob, 'status');
    expect(status).toMatchObject({ code: 0 });
    expect(status.stdout).toContain('account:  bob');
    expect(status.stdout).toContain('gateway:  ready');

    const hostGame = await alice.game();
    await hostGame.subscribe('ACTIVITY_JOIN_REQUEST');
    const answers: Promise<void>[] = [];
    hostGame.client.on('ACTIVITY_JOIN_REQUEST', (data: unknown) => answers.push(hostGame.client.user!.sendJoinInvite((data as { user: { id: string } }).user.id)));
    await hostGame.client.user!.setActivity(joinableActivity());
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');

    let friends = await control(bob, 'friends');
    for (let i = 0; i < 200 && !friends.stdout.includes('party 1/4'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      friends = await control(bob, 'friends');
    }
    expect(friends.stdout).toMatch(/^alice\s+\d+\s+online\s+Companion Demo Game · Ranked match · In a squad · party 1\/4$/m);

    const join = await control(bob, 'join', 'alice');
    expect(join).toEqual({ code: 0, stdout: "Asked alice to let you join; their game decides\n", stderr: '' });
    const [, joined] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
    expect(joined).toEqual({ secret: 'join-secret-alpha-7f3a' });
    await Promise.all(answers); // alice's game got its reply (null) too
    expect(answers).toHaveLength(1);
  });

  it('invite and accept-invite by id, with --json for tools', async () => {
    const hostGame = await alice.game();
    await hostGame.client.user!.setActivity(joinableActivity());
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');

    const sent = await control(alice, 'invite', 'bob', '--message', 'come play');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^Invited bob \(message \d+\)\n$/);

    let listed = await control(bob, 'invites', '--json');
    for (let i = 0; i < 200 && JSON.parse(listed.stdout).invites.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      listed = await control(bob, 'invites', '--json');
    }
    const [invite] = JSON.parse(listed.stdout).invites;
    expect(invite).toMatchObject({ user: { username: 'alice' }, valid: true });

    const accepted = await control(bob, 'accept-invite', invite.id);
    expect(accepted).toEqual({ code: 0, stdout: 'Accepted: the game got ACTIVITY_JOIN\n', stderr: '' });
    await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
  });

  it('names every problem: no host, an unknown friend, an unknown invite, a wrong call', async () => {
    const nobody = await control(await world.tempDir('companion-empty-'), 'status');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/^companion control: no Companion is running here \(.*host\.json does not exist\)/);

    const stranger = await control(bob, 'join', 'mallory');
    expect(stranger).toMatchObject({ code: 1, stderr: "companion control join: no friend named 'mallory' (see 'companion control friends')\n" });

    const missing = await control(bob, 'accept-invite', '42');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('companion control accept-invite: Invalid invite');

    await expect(control(bob, 'join')).rejects.toThrow(UsageError);
    await expect(control(bob, 'dance')).rejects.toThrow("unknown control action 'dance'");
  });

  it('signs out and in again', async () => {
    expect((await control(alice, 'logout')).stdout).toBe('Signed out\n');
    expect((await control(alice, 'status')).stdout).toContain('account:  not signed in');
    expect((await control(alice, 'login', 'dave')).stdout).toBe('Signed in as dave\n');
    const unknown = await control(alice, 'login', 'mallory');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no user named 'mallory'");
  });
});
