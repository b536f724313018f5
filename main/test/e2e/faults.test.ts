/**
 * Faults between a host and the platform: the gateway connection killed mid-session, the
 * emulator restarted (sessions lost), and a burst of SET_ACTIVITY calls against the game
 * activity limit. In each case the friend ends up seeing the game's latest activity.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayOp } from '../../../platform/src/wire/index.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';

let world: World;
afterEach(async () => world.close());

async function twoFriends(limits?: Record<string, unknown>, relayLimit?: { count: number; windowMs: number }): Promise<[Player, Player]> {
  world = await World.start(limits);
  const alice = await world.player('alice', relayLimit === undefined ? {} : { relayLimit });
  const bob = await world.player('bob');
  return [alice, bob];
}

function stateBobSees(alice: Player, bob: Player): string | undefined {
  const id = alice.host.session.user!.id;
  return bob.host.friends.get(id)?.presence.activities.find((a) => a.application_id === DEMO_APP_ID)?.state;
}

describe('gateway faults', () => {
  it('a killed gateway connection is resumed, and the friend sees the activity set meanwhile', async () => {
    const [alice, bob] = await twoFriends();
    const game = await alice.game();
    await game.client.user!.setActivity({ state: 'before the drop' });
    await eventually(() => stateBobSees(alice, bob) === 'before the drop', 'the first activity at bob');
    const firstSession = alice.host.session;

    const resumed = new Promise<void>((resolve) => alice.host.session.once('resumed', resolve));
    expect(world.platform.admin.kill()).toBeGreaterThan(0);
    await game.client.user!.setActivity({ state: 'after the drop' });
    await resumed;

    await eventually(() => stateBobSees(alice, bob) === 'after the drop', 'the latest activity at bob');
    expect(alice.host.session).toBe(firstSession);
  });

  it('after an emulator restart the host re-identifies and the friend sees the latest activity', async () => {
    const [alice, bob] = await twoFriends();
    const game = await alice.game();
    await game.client.user!.setActivity({ state: 'first' });
    await eventually(() => stateBobSees(alice, bob) === 'first', 'the first activity at bob');

    await world.restartPlatform(async () => {
      // While the platform is down the game keeps playing; the relay holds the latest state.
      await game.client.user!.setActivity({ state: 'during the outage' });
      await game.client.user!.setActivity({ state: 'latest' });
    });

    await eventually(() => alice.host.session.status.status === 'ready', "alice's new gateway session", 10_000);
    await eventually(() => stateBobSees(alice, bob) === 'latest', 'the latest activity at bob after the restart', 10_000);
    // Games stayed connected to the host throughout.
    expect(game.client.isConnected).toBe(true);
  });

  it('a burst of 1,000 SET_ACTIVITY calls sends at most 5 updates per window and ends on the final activity', async () => {
    // The real count (5) with a shorter window, on both sides, so the test takes seconds.
    const window = { count: 5, windowMs: 1500 };
    const [alice, bob] = await twoFriends({ gameActivityLimit: window }, window);
    const sent: number[] = [];
    alice.host.relay.on('sent', () => sent.push(Date.now()));
    const limited: unknown[] = [];
    alice.host.session.on('dispatch', (t, d) => t === 'RATE_LIMITED' && (d as { opcode: number }).opcode === GatewayOp.PresenceUpdate && limited.push(d));

    const game = await alice.game();
    const calls = [];
    for (let i = 1; i <= 1000; i += 1) calls.push(game.client.user!.setActivity({ state: `update ${i}` }));
    await Promise.all(calls);

    await eventually(() => stateBobSees(alice, bob) === 'update 1000', 'the final activity at bob', 10_000);
    for (const at of sent) {
      const inWindow = sent.filter((other) => other >= at && other < at + window.windowMs).length;
      expect(inWindow).toBeLessThanOrEqual(window.count);
    }
    expect(sent.length).toBeLessThan(20);
    expect(limited).toEqual([]); // the relay stayed under the platform's limit: nothing was dropped there
  }, 30_000);

  it('an activity valid for SET_ACTIVITY but too big for one gateway payload still reaches the friend, trimmed', async () => {
    const [alice, bob] = await twoFriends();
    const game = await alice.game();
    const url = (n: number): string => `https://example.com/${'p'.repeat(n - 20)}`;
    await game.client.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: {
        name: 'n'.repeat(128),
        state: 'x'.repeat(128),
        details: 'Big one',
        details_url: url(256),
        state_url: url(256),
        assets: {
          large_image: 'l'.repeat(300),
          large_text: 't'.repeat(128),
          large_url: url(256),
          small_image: 's'.repeat(300),
          small_text: 'u'.repeat(128),
          small_url: url(256),
          invite_cover_image: 'c'.repeat(300),
        },
        buttons: [
          { label: 'a'.repeat(32), url: url(512) },
          { label: 'b'.repeat(32), url: url(512) },
        ],
        supported_platforms: Array.from({ length: 10 }, (_, i) => `platform-${i}`.padEnd(32, 'x')),
      },
    });
    const seen = await eventually(
      () => bob.host.friends.get(alice.host.session.user!.id)?.presence.activities.find((a) => a.details === 'Big one'),
      'the big activity at bob',
    );
    expect(seen.state).toBe('x'.repeat(128));
    expect(seen.name).toBe('n'.repeat(128));
    expect(seen.supported_platforms).toBeUndefined();
    expect(alice.host.relay.live()[0]!.activity.supported_platforms).toHaveLength(10); // the game's own activity is whole
    expect(alice.host.session.status.status).toBe('ready'); // not closed for an oversized payload
  });

  it('at the real limit (5 per 20 s): 1,000 calls reach the friend as at most 5 updates per 20 s, the last one final', async () => {
    const [alice, bob] = await twoFriends();
    const aliceId = alice.host.session.user!.id;
    const seenAt: { at: number; state: string | undefined }[] = [];
    bob.host.session.on('dispatch', (t, d) => {
      const update = d as { user: { id: string }; activities: { state?: string }[] };
      if (t === 'PRESENCE_UPDATE' && update.user.id === aliceId) seenAt.push({ at: Date.now(), state: update.activities[0]?.state });
    });
    const limited: unknown[] = [];
    alice.host.session.on('dispatch', (t, d) => t === 'RATE_LIMITED' && limited.push(d));

    const game = await alice.game();
    const calls = [];
    for (let i = 1; i <= 1000; i += 1) calls.push(game.client.user!.setActivity({ state: `update ${i}` }));
    await Promise.all(calls);
    await eventually(() => seenAt.at(-1)?.state === 'update 1000', 'the final activity at bob', 30_000);

    // What bob's gateway session received: every accepted op 3 of alice's, nothing dropped.
    for (const { at } of seenAt) expect(seenAt.filter((other) => other.at >= at && other.at < at + 20_000).length).toBeLessThanOrEqual(5);
    expect(seenAt.length).toBeLessThanOrEqual(6);
    expect(limited).toEqual([]);
  }, 45_000);
});
