/**
 * `companion game`, the built command as a real process against a real host: it prints READY,
 * its activity and subscriptions, then every event it receives (here injected through the
 * control API) one line each, and exits cleanly on SIGINT; `--once --json` is scriptable;
 * mistakes are named.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliProcess, cliCleanup } from '../../support/cli-process.js';
import { controlCall, DEMO_APP_ID, World, type Player } from '../../e2e/support/world.js';
import { connectionIdOf } from '../inject/support.js';

const cleanup = cliCleanup('companion-game-');
let world: World;
let alice: Player;
beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice', { qa: true });
});
afterEach(async () => world.close());

async function activityFile(state: string): Promise<string> {
  const file = path.join(await cleanup.dir(), 'activity.json');
  await writeFile(file, JSON.stringify({ state, details: 'Fake game', party: { id: 'fake-party', size: [1, 4] }, secrets: { join: 'fake-join-secret' } }));
  return file;
}

describe('companion game', () => {
  it('prints READY, the activity, the subscriptions and then each event it receives; SIGINT ends it cleanly', async () => {
    const file = await activityFile('printing events');
    const game = cleanup.track(
      CliProcess.run(['game', '--client-id', DEMO_APP_ID, '--activity', file, '--subscribe', 'ACTIVITY_JOIN,ACTIVITY_INVITE', '--subscribe', 'ACTIVITY_JOIN_REQUEST', '--runtime-dir', alice.runtimeDir]),
    );
    await game.waitForStdout(/SUBSCRIBED ACTIVITY_JOIN_REQUEST\n/);
    expect(game.stdout.split('\n').slice(0, 5)).toEqual([
      expect.stringMatching(/^READY as alice \(\d+\) on .*discord-ipc-\d$/),
      'ACTIVITY set',
      'SUBSCRIBED ACTIVITY_JOIN',
      'SUBSCRIBED ACTIVITY_INVITE',
      'SUBSCRIBED ACTIVITY_JOIN_REQUEST',
    ]);

    const id = await connectionIdOf(alice, 'printing events');
    const sent = await controlCall(alice.host, 'POST', '/v1/inject/event', { connection_id: id, evt: 'ACTIVITY_JOIN', data: { secret: 'qa-secret' } });
    expect(sent.body).toMatchObject({ delivered: true });
    await game.waitForStdout(/^ACTIVITY_JOIN \{"secret":"qa-secret"\}$/m);
    const invite = await controlCall(alice.host, 'POST', '/v1/inject/event', { connection_id: id, evt: 'ACTIVITY_INVITE', data: { type: 1, user: { id: '1', username: 'bob' } } });
    expect(invite.body).toMatchObject({ delivered: true });
    await game.waitForStdout(/^ACTIVITY_INVITE \{"type":1,"user":\{"id":"1","username":"bob"\}\}$/m);

    game.kill('SIGINT');
    expect(await game.exited).toEqual({ code: 0, signal: null });
    expect(game.stderr).toBe('');
  });

  it('--once --json: one JSON object per line, exit 0 after READY, the activity and the subscriptions', async () => {
    const file = await activityFile('scripted');
    const run = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--activity', file, '--subscribe', 'ACTIVITY_JOIN', '--once', '--json', '--runtime-dir', alice.runtimeDir]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { type: 'ready', at: expect.any(Number), path: expect.stringContaining('discord-ipc-'), user: { id: alice.host.session.user!.id, username: 'alice' } },
      { type: 'activity', at: expect.any(Number), ok: true },
      { type: 'subscribed', at: expect.any(Number), evt: 'ACTIVITY_JOIN', ok: true },
    ]);
  });

  it('--once exits 1 when the server refuses a subscription, and says why', async () => {
    const run = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--subscribe', 'CURRENT_USER_UPDATE', '--once', '--runtime-dir', alice.runtimeDir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^SUBSCRIBE CURRENT_USER_UPDATE refused: .+$/m);
  });

  it('names the mistakes: no client id, an unknown event, an unreadable activity, no host', async () => {
    const noId = await CliProcess.complete(['game', '--runtime-dir', alice.runtimeDir]);
    expect(noId).toMatchObject({ code: 2, stderr: "companion: game needs --client-id ID (see 'companion game --help')\n" });
    const bogus = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--subscribe', 'ACTIVITY_TELEPORT', '--runtime-dir', alice.runtimeDir]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^companion: --subscribe: unknown event 'ACTIVITY_TELEPORT' \(known: .*ACTIVITY_JOIN.*\)\n$/);
    const missing = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--activity', '/nonexistent/activity.json', '--runtime-dir', alice.runtimeDir]);
    expect(missing).toMatchObject({ code: 2, stderr: 'companion: --activity: cannot read /nonexistent/activity.json (ENOENT)\n' });
    const dir = await cleanup.dir();
    const noFile = path.join(dir, 'host.json');
    const noHost = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--host', noFile]);
    expect(noHost).toMatchObject({ code: 1, stderr: `companion game: no Companion is running here (${noFile} does not exist); start one with 'companion serve', or pass --host\n` });
    // A runtime file left behind by a host that is gone: its socket does not answer.
    const stale = path.join(dir, 'stale.json');
    await writeFile(stale, JSON.stringify({ pid: 1, ipc: { path: path.join(dir, 'discord-ipc-0'), index: 0 } }));
    const gone = await CliProcess.complete(['game', '--client-id', DEMO_APP_ID, '--host', stale]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^companion game: could not connect: .+\n$/);
  });
});
