/**
 * Issue 28 §1: openAuthorizeDeviceScreen / closeAuthorizeDeviceScreen against a real host: the
 * game's request reaches Companion's control event stream as an `open-view` (ours), bad args
 * are the protocol's 4000.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../../rpc/client/index.js';
import type { ControlEvent } from '../../src/host/control/control-backend.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';

let world: World;
let alice: Player;
const clients: Client[] = [];

beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice', { consentPolicy: 'approve' });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  await world.close();
});

async function gameOf(player: Player): Promise<Client> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: player.runtimeDir }, logger: { sink: () => undefined } });
  clients.push(client);
  client.setApplicationId(DEMO_APP_ID);
  expect((await client.connect()).successful).toBe(true);
  return client;
}

async function rawCode(client: Client, cmd: string, args: unknown): Promise<number | 'ok'> {
  try {
    await client.connection.request(cmd, args);
    return 'ok';
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

describe('issue 28 §1 openAuthorizeDeviceScreen and closeAuthorizeDeviceScreen', () => {
  it("ask Companion to show its code-entry screen with the game's user code, then to hide it; bad args are 4000", async () => {
    const seen: ControlEvent[] = [];
    alice.host.control.backend.subscribe((event) => seen.push(event));
    const game = await gameOf(alice);
    expect((await game.openAuthorizeDeviceScreen(DEMO_APP_ID, 'BCDF-GHJK')).successful).toBe(true);
    expect((await game.closeAuthorizeDeviceScreen()).successful).toBe(true);
    const views = (): unknown[] => seen.filter((event) => event.type === 'open-view').map((event) => event.data);
    await eventually(() => views().length === 2, 'two open-view events');
    expect(views()).toEqual([
      expect.objectContaining({ view: 'authorize-device', application_id: DEMO_APP_ID, user_code: 'BCDF-GHJK' }),
      expect.objectContaining({ view: 'close-authorize-device', application_id: DEMO_APP_ID }),
    ]);
    expect(await rawCode(game, 'OPEN_AUTHORIZE_DEVICE_SCREEN', { client_id: DEMO_APP_ID })).toBe(4000);
    expect(await rawCode(game, 'OPEN_AUTHORIZE_DEVICE_SCREEN', { client_id: 'x', user_code: 'AB' })).toBe(4000);
    expect(await rawCode(game, 'CLOSE_AUTHORIZE_DEVICE_SCREEN', [])).toBe(4000);
  });
});
