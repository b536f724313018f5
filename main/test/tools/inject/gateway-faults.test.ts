/**
 * Gateway faults through the control API (`POST /v1/inject/gateway`): a drop is a network
 * loss the host resumes from; a pause longer than a heartbeat interval ends in the heartbeat
 * check (the host drops the silent connection and resumes); a short pause only holds what the
 * host sends until it is over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeGame } from '../../../src/tools/fake-game/fake-game.js';
import type { SessionStatus } from '../../../src/host/session/platform-session.js';
import { controlCall, DEMO_APP_ID, eventually, World, type Player } from '../../e2e/support/world.js';
import { namedGame } from './support.js';

let world: World;
const games: FakeGame[] = [];
afterEach(async () => {
  for (const game of games.splice(0)) await game.close();
  await world.close();
});

function statuses(player: Player): SessionStatus[] {
  const seen: SessionStatus[] = [];
  player.host.session.on('status', (status) => seen.push(status));
  return seen;
}

function stateBobSees(alice: Player, bob: Player): string | undefined {
  return bob.host.friends.get(alice.host.session.user!.id)?.presence.activities.find((a) => a.application_id === DEMO_APP_ID)?.state;
}

describe('POST /v1/inject/gateway', () => {
  it('drop: the socket goes as in a network loss, and the host resumes the same session', async () => {
    world = await World.start();
    const alice = await world.player('alice', { qa: true });
    const sessionId = alice.host.session.sessionId;
    expect(sessionId).toBeDefined();
    const seen = statuses(alice);
    const resumed = new Promise<void>((resolve) => alice.host.session.once('resumed', resolve));

    const reply = await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'drop' });
    expect(reply).toMatchObject({ status: 200, body: { action: 'drop' } });
    await resumed;
    expect(alice.host.session.sessionId).toBe(sessionId);
    expect(seen.map((status) => status.status)).toContain('reconnecting');
    expect(alice.host.session.status.status).toBe('ready');
  });

  it('pause longer than the heartbeat interval: the heartbeat goes unanswered, the host reconnects and resumes', async () => {
    // The emulator waits long for heartbeats, so it is the host's own check that notices.
    world = await World.start({ heartbeatIntervalMs: 100, heartbeatTimeoutFactor: 50 });
    const alice = await world.player('alice', { qa: true });
    const seen = statuses(alice);
    const resumed = new Promise<void>((resolve) => alice.host.session.once('resumed', resolve));

    const reply = await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'pause', duration_ms: 2000 });
    expect(reply).toMatchObject({ status: 200, body: { action: 'pause', duration_ms: 2000 } });
    await resumed;
    expect(seen.some((status) => status.status === 'reconnecting' && status.detail.startsWith('the connection stopped responding'))).toBe(true);
    await eventually(() => alice.host.session.status.status === 'ready', 'ready again');
  });

  it('a short pause holds presence updates until it is over, without a reconnect', async () => {
    world = await World.start();
    const alice = await world.player('alice', { qa: true });
    const bob = await world.player('bob');
    const game = await namedGame(alice.runtimeDir, DEMO_APP_ID, 'before the pause');
    games.push(game);
    await eventually(() => stateBobSees(alice, bob) === 'before the pause', 'the first activity at bob');
    const seen = statuses(alice);

    expect((await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'pause', duration_ms: 400 })).status).toBe(200);
    await game.setActivity({ state: 'during the pause' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stateBobSees(alice, bob)).toBe('before the pause');
    await eventually(() => stateBobSees(alice, bob) === 'during the pause', 'the held activity at bob after the pause', 3000);
    expect(seen.filter((status) => status.status !== 'ready')).toEqual([]);
  });

  it('refuses bad input and says when there is no gateway to disturb', async () => {
    world = await World.start();
    const alice = await world.player('alice', { qa: true });
    const noDuration = await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'pause' });
    expect(noDuration).toMatchObject({ status: 400, body: { message: 'duration_ms: is required for pause' } });
    const wrong = await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'explode' });
    expect(wrong).toMatchObject({ status: 400, body: { message: "action: must be 'drop' or 'pause'" } });

    expect((await controlCall(alice.host, 'POST', '/v1/account/logout', {})).status).toBe(200);
    const signedOut = await controlCall(alice.host, 'POST', '/v1/inject/gateway', { action: 'drop' });
    expect(signedOut).toMatchObject({ status: 409, body: { error: 'not_connected', message: expect.stringContaining('Not signed in') } });
  });
});
