/**
 * Issue 28 §1: openAuthorizeDeviceScreen / closeAuthorizeDeviceScreen against a real host: the
 * game's request reaches Companion's control event stream as an `open-view` (ours), bad args
 * are the protocol's 4000.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, DeviceAuthorizationArgs } from '../../../rpc/client/index.js';
import type { ControlEvent } from '../../src/host/control/control-backend.js';
import { rawCode } from './support/raw-command.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';
import { quickDeviceFlowSleep } from './support/device-flow-sleep.js';

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

const quickSleep = quickDeviceFlowSleep();

async function gameOf(player: Player): Promise<Client> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: player.runtimeDir }, logger: { sink: () => undefined }, deviceFlowSleep: quickSleep });
  clients.push(client);
  client.setApplicationId(DEMO_APP_ID);
  expect((await client.connect()).successful).toBe(true);
  return client;
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

describe('issue 28 §1 the code-entry page on Companion (control API /v1/device-codes)', () => {
  it('the player previews and approves the code a device flow shows, with Companion\'s account: the game gets their token', async () => {
    const game = await gameOf(alice);
    const args = new DeviceAuthorizationArgs();
    args.setScopes('openid sdk.social_layer');
    const codes: string[] = [];
    game.setDeviceCodeCallback((code) => {
      codes.push(code.userCode);
      void game.openAuthorizeDeviceScreen(DEMO_APP_ID, code.userCode);
    });
    const flow = game.getTokenFromDevice(args);
    await eventually(() => codes.length === 1, 'the user code');
    const typed = (codes[0] ?? '').toLowerCase();
    const preview = await alice.control('POST', '/v1/device-codes/preview', { user_code: typed });
    expect(preview).toMatchObject({ status: 200, body: { user_code: codes[0], application: { id: DEMO_APP_ID } } });
    expect(await alice.control('POST', '/v1/device-codes', { user_code: typed, authorize: true })).toMatchObject({ status: 200, body: { approved: true } });
    const outcome = await flow;
    expect(outcome.result.successful, outcome.result.error).toBe(true);
    expect((await game.updateToken('Bearer', outcome.token?.accessToken ?? '')).successful).toBe(true);
    expect(await alice.control('POST', '/v1/device-codes', { user_code: typed, authorize: true })).toMatchObject({ status: 404, body: { error: 'unknown_code' } });
    expect(await alice.control('POST', '/v1/device-codes', { user_code: '' })).toMatchObject({ status: 400 });
  });
});
