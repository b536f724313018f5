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
});
