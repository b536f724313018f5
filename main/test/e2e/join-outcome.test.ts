/**
 * `companion control join` says what really happened when the game is not running: started
 * and waiting, or not started because the launcher failed (exit 1, with the launcher's reason),
 * never "Joined" before the game has the secret.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandGameLauncher } from '../../src/host/social/game-launcher.js';
import { controlCommand } from '../../src/shells/cli/control.js';
import { eventually, World, type Player } from './support/world.js';

let world: World | undefined;
let bin: string | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  if (bin !== undefined) await rm(path.dirname(bin), { recursive: true, force: true });
});

async function control(player: Player, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await controlCommand([...argv, '--runtime-dir', player.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

/** Bob's launcher: the real one, finding `xdg-open` in a PATH that holds only our script. */
async function launcherWithOpener(script: string): Promise<CommandGameLauncher> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-opener-'));
  bin = path.join(dir, 'bin');
  await mkdir(bin);
  await mkdir(path.join(dir, 'data'));
  await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return new CommandGameLauncher({ dataDir: path.join(dir, 'data'), env: { PATH: bin, XDG_DATA_HOME: path.join(dir, 'xdg') }, platform: 'linux' });
}

async function alicePlaysAnOpenParty(alice: Player, bob: Player): Promise<void> {
  const game = await alice.game();
  await game.client.request('SET_ACTIVITY', {
    pid: process.pid,
    activity: { state: 'Open lobby', party: { id: 'party-open', size: [2, 8], privacy: 1 }, secrets: { join: 'join-secret-open-1' } },
  });
  const aliceId = alice.host.session.user!.id;
  await eventually(() => bob.host.friends.get(aliceId)?.presence.activities.some((a) => a.party?.id === 'party-open'), 'bob to see the open party');
}

describe('control join with the game not running', () => {
  it('a launcher that fails is a failure: exit 1, the reason, and the join waits', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const bob = await world.player('bob', { launcher: await launcherWithOpener('exit 2') });
    await alicePlaysAnOpenParty(alice, bob);

    const result = await control(bob, 'join', 'alice');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Not joined: could not start the game \(url handler\): xdg-open exited with code 2 \(nothing handles the game's link\)\. Start it yourself within \d+ min and it gets the join\n$/);
    const json = await control(bob, 'join', 'alice', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ joined: false, requested: false, launch: { launched: false, how: 'url handler' } });

    // Started by hand, the game still gets the join.
    const guestGame = await bob.game();
    await guestGame.subscribe('ACTIVITY_JOIN');
    const [, join] = await guestGame.events.until(([evt]) => evt === 'ACTIVITY_JOIN', 5000, 'ACTIVITY_JOIN');
    expect(join).toEqual({ secret: 'join-secret-open-1' });
  });

  it('a launcher that starts the game: not joined yet, delivered once the game subscribes', async () => {
    world = await World.start();
    const alice = await world.player('alice');
    const bob = await world.player('bob', { launcher: await launcherWithOpener('exit 0') });
    await alicePlaysAnOpenParty(alice, bob);

    const result = await control(bob, 'join', 'alice');
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toMatch(/^Not joined yet: the game was not running; started it \(url handler\) and it gets the join when it connects/);
  });
});
