/**
 * A game that writes and never reads, at host level: a raw IPC client handshakes with alice's
 * host (a real `companion serve` process on a standalone emulator process), stops reading and
 * writes 10,000 SET_ACTIVITY calls as a blocking game would. The host keeps reading it, so
 * bob, alice's friend on another host process, sees the last one, and the game stays connected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, Opcode } from '../../../rpc/src/index.js';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { controlGet } from '../soak/control-get.js';
import { ProcessWorld, until } from './support/processes.js';
import { DEMO_APP_ID } from './support/world.js';

const COUNT = 10_000;

let world: ProcessWorld | undefined;
let game: RawClient | undefined;
afterEach(async () => {
  game?.close();
  game = undefined;
  await world?.close();
  world = undefined;
});

function stateOf(i: number): string {
  return `Level ${i}`.padEnd(100, '.');
}

/** A 575-byte SET_ACTIVITY frame like a game's update loop sends. */
function setActivity(i: number): Buffer {
  const activity = {
    state: stateOf(i),
    details: 'Exploring the caves'.padEnd(110, '.'),
    timestamps: { start: 1_700_000_000 },
    assets: { large_image: 'cave', large_text: 'The caves'.padEnd(80, '.'), small_image: 'hero', small_text: 'Hero'.padEnd(60, '.') },
  };
  return encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: `n-${i}`, args: { pid: process.pid, activity } });
}

describe('a game that never reads, at host level', () => {
  it('10,000 SET_ACTIVITY written and never read: bob sees the last one and the game is still connected', async () => {
    world = new ProcessWorld({});
    await world.startEmulator();
    const [alice, bob] = await Promise.all([world.host('alice'), world.host('bob')]);

    const ready = await RawClient.ready(alice!.ipcPath, DEMO_APP_ID);
    game = ready.client;
    expect(ready.ready).toMatchObject({ cmd: 'DISPATCH', evt: 'READY' });
    game.socket.pause(); // never reads from here on
    expect(setActivity(COUNT - 1).length).toBeGreaterThan(560); // ~575 bytes, a real update loop's size

    await game.writeBlocking(setActivity, COUNT);
    // The host's relay sends at most 5 updates per 20 s: the last one may wait for a window.
    await until(async () => (await bob!.friendState('alice')) === stateOf(COUNT - 1), 'the 10,000th activity at bob', 45_000, 200);

    expect(game.isOpen).toBe(true);
    const { body } = await controlGet(alice!.control, '/v1/games');
    expect(body.games).toHaveLength(1);
    expect(body.games[0]).toMatchObject({ client_id: DEMO_APP_ID, activity: { state: stateOf(COUNT - 1) } });
  }, 90_000);
});
