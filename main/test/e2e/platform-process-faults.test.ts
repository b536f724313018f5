/**
 * Faults on the platform side, with the emulator as a real process (`companion platform
 * serve`) and alice's and bob's hosts as real `companion serve` processes: an emulator that
 * stops answering (SIGSTOP) is found a zombie by the heartbeat and reconnected; an emulator
 * killed and restarted on the same port and data dir is re-identified to. Either way bob, the
 * friend, ends up seeing the game's latest activity.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessWorld, until, WARN, type HostProcess } from './support/processes.js';

/** The Hello heartbeat interval the emulator is started with (the real one is 41,250 ms). */
const HEARTBEAT_MS = 500;
const ZOMBIE_LOG = 'gateway heartbeat not acknowledged; reconnecting';

let world: ProcessWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function aliceAndBob(): Promise<{ alice: HostProcess; bob: HostProcess }> {
  world = new ProcessWorld({ heartbeatIntervalMs: HEARTBEAT_MS });
  await world.startEmulator();
  const [alice, bob] = await Promise.all([world.host('alice'), world.host('bob')]);
  return { alice: alice as HostProcess, bob: bob as HostProcess };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('platform faults with real processes', () => {
  it('an emulator stopped for 3 heartbeat intervals is a zombie to the host, which reconnects; bob converges to the new activity', async () => {
    const { alice, bob } = await aliceAndBob();
    const game = await world!.game(alice);
    await game.client.user!.setActivity({ state: 'before the stop' });
    await until(async () => (await bob.friendState('alice')) === 'before the stop', 'the first activity at bob', 10_000);
    const zombiesBefore = alice.logged(ZOMBIE_LOG).length; // a loaded machine may have delayed an ACK already

    world!.emulator.pause();
    await sleep(3 * HEARTBEAT_MS);
    // Still stopped: alice's host has said the connection stopped responding and is reconnecting.
    const zombie = await until(async () => alice.logged(ZOMBIE_LOG)[zombiesBefore], "alice's zombie log line", 10_000);
    expect(zombie).toMatchObject({ level: WARN, intervalMs: HEARTBEAT_MS });
    expect((await alice.gateway()).status).toBe('reconnecting');
    world!.emulator.resume();

    await game.client.user!.setActivity({ state: 'after the stop' });
    await until(async () => (await alice.gateway()).status === 'ready', "alice's gateway back", 15_000);
    await until(async () => (await bob.friendState('alice')) === 'after the stop', 'the new activity at bob', 15_000);
    expect(game.client.isConnected).toBe(true);
  }, 60_000);

  it('an emulator killed with SIGKILL and restarted on the same port and data dir: bob converges to the latest activity', async () => {
    const { alice, bob } = await aliceAndBob();
    const game = await world!.game(alice);
    await game.client.user!.setActivity({ state: 'first' });
    await until(async () => (await bob.friendState('alice')) === 'first', 'the first activity at bob', 10_000);
    const port = world!.emulator.port;

    await world!.emulator.killHard();
    await until(async () => (await alice.gateway()).status !== 'ready', "alice's host noticing the emulator is gone", 10_000);
    // The game keeps playing while the platform is down; the host holds the latest state.
    await game.client.user!.setActivity({ state: 'during the outage' });
    await sleep(300);
    await game.client.user!.setActivity({ state: 'latest' });

    const restarted = await world!.restartEmulator();
    expect(restarted.port).toBe(port);
    await until(async () => (await alice.gateway()).status === 'ready' && (await bob.gateway()).status === 'ready', 'both hosts re-identified', 30_000);
    await until(async () => (await bob.friendState('alice')) === 'latest', 'the latest activity at bob after the restart', 20_000);
    expect(game.client.isConnected).toBe(true);
  }, 90_000);
});
