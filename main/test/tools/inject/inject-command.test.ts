/**
 * `companion inject`: each kind through the command against a real host (the event reaches
 * the one game named), and errors that name the problem: an unknown connection id, a bad
 * event name, an event the game did not subscribe to, no host, usage mistakes.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shells/cli/cli-args.js';
import { injectCommand } from '../../../src/shells/cli/inject.js';
import type { FakeGame } from '../../../src/tools/fake-game/fake-game.js';
import { CliProcess, cliCleanup } from '../../support/cli-process.js';
import { DEMO_APP_ID, eventually } from '../../e2e/support/world.js';
import { aliceWorldPerTest, connectionIdOf, namedGame, settle } from './support.js';

const cleanup = cliCleanup('companion-inject-');
const t = aliceWorldPerTest();

async function inject(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await injectCommand([...argv, '--runtime-dir', t.alice.runtimeDir], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    version: '0.0.0-test',
  });
  return { code, stdout, stderr };
}

async function twoGames(): Promise<{ target: FakeGame; other: FakeGame; id: string }> {
  const subscribe = ['ACTIVITY_JOIN', 'ACTIVITY_SPECTATE', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'AUTHORIZE_REQUEST'];
  const target = await namedGame(t.alice.runtimeDir, DEMO_APP_ID, 'target', subscribe);
  const other = await namedGame(t.alice.runtimeDir, DEMO_APP_ID, 'other', subscribe);
  t.games.push(target, other);
  return { target, other, id: await connectionIdOf(t.alice, 'target') };
}

describe('companion inject', () => {
  it('event kinds reach the game named, with what the options say', async () => {
    const { target, other, id } = await twoGames();
    const bobId = t.world.platform.user('bob')!.id;
    await eventually(() => t.alice.host.friends.get(bobId), "bob in alice's friends");

    expect(await inject('join', id, '--secret', 'cli-secret')).toEqual({ code: 0, stdout: `ACTIVITY_JOIN delivered to ${id}\n`, stderr: '' });
    expect(await target.waitForEvent('ACTIVITY_JOIN')).toEqual({ secret: 'cli-secret' });

    expect((await inject('join-request', id, '--user', 'bob')).code).toBe(0);
    expect(await target.waitForEvent('ACTIVITY_JOIN_REQUEST')).toMatchObject({ type: 5, user: { id: bobId, username: 'bob' }, channel_id: expect.stringMatching(/^\d+$/) });

    expect((await inject('invite', id, '--user', 'bob', '--party', 'cli-party')).code).toBe(0);
    expect(await target.waitForEvent('ACTIVITY_INVITE')).toMatchObject({ type: 1, user: { username: 'bob' }, activity: { application_id: DEMO_APP_ID, party: { id: 'cli-party' } } });

    expect((await inject('authorize-request', id)).code).toBe(0);
    expect(await target.waitForEvent('AUTHORIZE_REQUEST')).toBeNull();

    const forced = await inject('current-user', id, '--username', 'renamed', '--force');
    expect(forced).toEqual({ code: 0, stdout: `CURRENT_USER_UPDATE delivered to ${id} (forced: it did not subscribe to it)\n`, stderr: '' });
    expect(await target.waitForEvent('CURRENT_USER_UPDATE')).toMatchObject({ id: t.alice.host.session.user!.id, username: 'renamed', avatar_decoration_data: null });

    expect((await inject('guild-status', id, '--guild', '222222222222222222', '--name', 'Lounge', '--online', '2', '--force', '--json')).code).toBe(0);
    expect(await target.waitForEvent('GUILD_STATUS')).toEqual({ guild: { id: '222222222222222222', name: 'Lounge', icon_url: null }, online: 2 });

    expect((await inject('event', id, 'ACTIVITY_SPECTATE', '--data', '{"secret":"watch"}')).code).toBe(0);
    expect(await target.waitForEvent('ACTIVITY_SPECTATE')).toEqual({ secret: 'watch' });

    await settle();
    expect(other.events()).toEqual([]);
  });

  it('output and gateway through the command', async () => {
    const { id } = await twoGames();
    expect(await inject('output', id, '--delay', '20', '--split', '3:2')).toEqual({ code: 0, stdout: `${id}: every frame 20 ms late; each write in 3 pieces 2 ms apart\n`, stderr: '' });
    expect(await inject('output', id, '--reset')).toEqual({ code: 0, stdout: `${id}: frames are sent normally\n`, stderr: '' });
    const resumed = new Promise<void>((resolve) => t.alice.host.session.once('resumed', resolve));
    expect(await inject('gateway', 'drop')).toEqual({ code: 0, stdout: 'Dropped the platform connection; Companion resumes it\n', stderr: '' });
    await resumed;
  });

  it('names the problem: unknown connection, bad event name, not subscribed, bad data', async () => {
    const { id } = await twoGames();
    expect(await inject('join', 'c999', '--secret', 's')).toEqual({
      code: 1,
      stdout: '',
      stderr: "companion inject join: No game connection c999 (see GET /v1/games or 'companion control games')\n",
    });
    const made = await inject('event', id, 'ACTIVITY_TELEPORT');
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(/^companion inject event: evt: unknown event 'ACTIVITY_TELEPORT' \(known: .*\)\n$/);
    const lower = await inject('event', id, 'activity_join');
    expect(lower).toMatchObject({ code: 1, stderr: 'companion inject event: evt: must be an event name in capitals, like ACTIVITY_JOIN\n' });
    const notSubscribed = await inject('event', id, 'ACTIVITY_INVITE_ACCEPTED', '--data', '{}');
    expect(notSubscribed).toEqual({
      code: 1,
      stdout: '',
      stderr: `companion inject: ACTIVITY_INVITE_ACCEPTED not delivered: ${id} did not subscribe to it (--force sends it anyway)\n`,
    });
    await expect(inject('event', id, 'ACTIVITY_JOIN', '--data', '{nope')).rejects.toThrow(UsageError);
    await expect(inject('join', id)).rejects.toThrow("inject join needs --secret (see 'companion inject --help')");
    await expect(inject('output', id, '--split', '1')).rejects.toThrow("--split's N must be a whole number from 2 to 64, got '1'");
    await expect(inject('revoke', id, '--secret', 'x')).rejects.toThrow("--secret is not an option of 'inject revoke'");
    const noFriend = await inject('join-request', id, '--user', 'zed');
    expect(noFriend).toMatchObject({ code: 1, stderr: "companion inject join-request: no friend named 'zed' (see 'companion control friends'; a user id works too)\n" });
  });

  it('the built command: no host is named with the file it looked for (exit 1), usage mistakes exit 2', async () => {
    const empty = await cleanup.dir();
    const noHost = await CliProcess.complete(['inject', 'join', 'c1', '--secret', 's', '--runtime-dir', empty]);
    expect(noHost.code).toBe(1);
    expect(noHost.stderr).toBe(`companion inject: no Companion is running here (${empty}/companion/host.json does not exist); start one with 'companion serve', or pass --host\n`);
    const unknownKind = await CliProcess.complete(['inject', 'teleport']);
    expect(unknownKind).toMatchObject({ code: 2, stderr: "companion: unknown inject kind 'teleport' (see 'companion inject --help')\n" });
    const help = await CliProcess.complete(['help', 'inject']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: companion inject <kind>');
  });
});
