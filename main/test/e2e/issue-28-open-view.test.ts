/**
 * Issue 28 §1: Companion's window acts on what a game asks it to show, against a real emulator,
 * real hosts, real RPC sockets and the web UI's real WebSocket bridge (a page as the renderer
 * holds it): openConnectedGamesSettingsInDiscord, openMessageInDiscord and the "Link a device"
 * screen (openAuthorizeDeviceScreen / closeAuthorizeDeviceScreen) reach the player's own pages
 * as `companion:open-view` pushes carrying only what the window needs; the page approves the
 * code through the bridge; the screen closing sends AUTHORIZE_DEVICE_SCREEN_CLOSED to the game
 * that opened it, and to no other game.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs, Client, DeviceAuthorizationArgs } from '../../../rpc/client/index.js';
import { BridgeClient, sessionCookie, sleep } from '../host/ui-bridge/support.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';
import { quickDeviceFlowSleep } from './support/device-flow-sleep.js';

const OTHER_APP_ID = '1234567890123456780';

let world: World;
let alice: Player;
let bob: Player;
const clients: Client[] = [];
const pages: BridgeClient[] = [];

beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice', { consentPolicy: 'approve' });
  bob = await world.player('bob', { consentPolicy: 'approve' });
});
afterEach(async () => {
  for (const page of pages.splice(0)) page.close();
  for (const client of clients.splice(0)) await client.disconnect();
  await world.close();
});

const quickSleep = quickDeviceFlowSleep();

async function gameOf(player: Player, applicationId = DEMO_APP_ID): Promise<Client> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: player.runtimeDir }, logger: { sink: () => undefined }, deviceFlowSleep: quickSleep });
  clients.push(client);
  client.setApplicationId(applicationId);
  expect((await client.connect()).successful).toBe(true);
  return client;
}

/** A game that authorized through Companion and holds its token, its platform session ready. */
async function signedInGame(player: Player): Promise<Client> {
  const client = await gameOf(player);
  const verifier = client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes('openid sdk.social_layer');
  args.setCodeChallenge(verifier.challenge());
  const { code } = await client.authorize(args);
  const { token } = await client.getToken(DEMO_APP_ID, code ?? '', verifier.verifier(), null);
  expect((await client.updateToken('Bearer', token?.accessToken ?? '')).successful).toBe(true);
  await eventually(() => client.getPlatformStatus() === 'ready', "the game's platform session READY", 10_000);
  return client;
}

/** The player's web UI page, ready (it gets pushes). */
async function pageOf(player: Player): Promise<BridgeClient> {
  const ui = player.host.webUi;
  if (ui === null) throw new Error('the test host serves no web UI');
  const page = await BridgeClient.open(ui.port, await sessionCookie(ui.port, ui.token));
  pages.push(page);
  await page.invoke('companion:ready');
  return page;
}

const openViews = (page: BridgeClient): unknown[] => page.pushesOf('companion:open-view');

describe('issue 28 §1: the window goes where a game asks (companion:open-view)', () => {
  it("openConnectedGamesSettingsInDiscord: the player's page is sent to Authorized apps for the game's application, nothing more; another player's page gets nothing", async () => {
    const [page, bobPage] = [await pageOf(alice), await pageOf(bob)];
    const game = await gameOf(alice);
    expect((await game.openConnectedGamesSettingsInDiscord()).successful).toBe(true);
    await page.waitFor((message) => message.push === 'companion:open-view', 'the open-view push');
    expect(openViews(page)).toEqual([{ view: 'authorized-apps', application_id: DEMO_APP_ID }]);
    await sleep(100);
    expect(openViews(bobPage)).toEqual([]);
  });

  it("openMessageInDiscord: the player's page is sent to the conversation holding the message, at that message", async () => {
    const [aliceGame, bobGame] = [await signedInGame(alice), await signedInGame(bob)];
    const [aliceId, bobId] = [alice.host.session.user?.id ?? '', bob.host.session.user?.id ?? ''];
    const [alicePage, bobPage] = [await pageOf(alice), await pageOf(bob)];
    const sent = await aliceGame.sendUserMessage(bobId, 'ready?');
    const messageId = sent.messageId ?? '';
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === messageId)), "bob's Companion holds the message");
    expect((await bobGame.openMessageInDiscord(messageId, undefined)).successful).toBe(true);
    await bobPage.waitFor((message) => message.push === 'companion:open-view', 'the open-view push');
    expect(openViews(bobPage)).toEqual([{ view: 'conversation', user_id: aliceId, message_id: messageId }]);
    await sleep(100);
    expect(openViews(alicePage)).toEqual([]);
  });
});

describe('issue 28 §1: the "Link a device" screen and AUTHORIZE_DEVICE_SCREEN_CLOSED', () => {
  it("a game's device flow: the page gets its code, previews and approves it; closing the screen tells that game only; the game gets its token", async () => {
    const page = await pageOf(alice);
    const game = await gameOf(alice);
    const other = await gameOf(alice, OTHER_APP_ID);
    const closed: string[] = [];
    game.setAuthorizeDeviceScreenClosedCallback(() => closed.push('game'));
    other.setAuthorizeDeviceScreenClosedCallback(() => closed.push('other'));
    const args = new DeviceAuthorizationArgs();
    args.setScopes('openid sdk.social_layer');
    const codes: string[] = [];
    game.setDeviceCodeCallback((code) => {
      codes.push(code.userCode);
      void game.openAuthorizeDeviceScreen(DEMO_APP_ID, code.userCode);
    });
    const flow = game.getTokenFromDevice(args);
    await page.waitFor((message) => message.push === 'companion:open-view', 'the open-view push');
    const [opened] = openViews(page) as { screen_id: string }[];
    expect(opened).toEqual({ view: 'authorize-device', screen_id: expect.any(String), application_id: DEMO_APP_ID, user_code: codes[0] });

    const preview = await page.invoke('companion:preview-device-code', (codes[0] ?? '').toLowerCase());
    expect(preview).toMatchObject({ user_code: codes[0], application: { id: DEMO_APP_ID }, scopes: ['openid', 'sdk.social_layer'] });
    // In the consent prompt's words: the umbrella scope as what it allows.
    expect(preview.descriptions.map((d) => d.scope)).toEqual(expect.arrayContaining(['openid', 'dm_channels.messages.read']));
    expect(preview.descriptions.every((d) => d.text !== d.scope)).toBe(true);
    expect(await page.invoke('companion:decide-device-code', codes[0] ?? '', true)).toEqual({ approved: true });
    expect(await page.invoke('companion:close-device-screen', opened?.screen_id ?? '')).toBeNull();
    await eventually(() => closed.length > 0, "the game's screen-closed callback");
    const outcome = await flow;
    expect(outcome.result.successful, outcome.result.error).toBe(true);
    // The other windows close it too; a second close is nothing.
    await page.waitFor((message) => message.push === 'companion:open-view' && message.payload.view === 'close-authorize-device', 'the close push');
    expect(openViews(page)[1]).toEqual({ view: 'close-authorize-device', screen_id: opened?.screen_id });
    expect(await page.invoke('companion:close-device-screen', opened?.screen_id ?? '')).toBeNull();
    await sleep(100);
    expect(closed).toEqual(['game']);
    // An answered code is gone: the page says so plainly.
    await expect(page.invoke('companion:preview-device-code', codes[0] ?? '')).rejects.toThrow(/Unknown or expired code/);
    await expect(page.invoke('companion:preview-device-code', '')).rejects.toThrow(/type the code/);
  });

  it('the game closes its screen: the page is told and the game gets the event; another application cannot close it', async () => {
    const page = await pageOf(alice);
    const game = await gameOf(alice);
    const other = await gameOf(alice, OTHER_APP_ID);
    const closed: string[] = [];
    game.setAuthorizeDeviceScreenClosedCallback(() => closed.push('game'));
    other.setAuthorizeDeviceScreenClosedCallback(() => closed.push('other'));
    expect((await game.openAuthorizeDeviceScreen(DEMO_APP_ID, 'BCDF-GHJK')).successful).toBe(true);
    await page.waitFor((message) => message.push === 'companion:open-view', 'the open-view push');
    expect((await other.closeAuthorizeDeviceScreen()).successful).toBe(true);
    await sleep(100);
    expect(openViews(page)).toHaveLength(1);
    expect(closed).toEqual([]);
    expect((await game.closeAuthorizeDeviceScreen()).successful).toBe(true);
    await eventually(() => openViews(page).length === 2, 'the close push');
    const [opened, close] = openViews(page) as { screen_id: string }[];
    expect(close).toEqual({ view: 'close-authorize-device', screen_id: opened?.screen_id });
    await eventually(() => closed.length > 0, "the game's screen-closed callback");
    await sleep(100);
    expect(closed).toEqual(['game']);
  });

  it('a page that opens after the game asked gets the screen in its snapshot; once it closed, none', async () => {
    const game = await gameOf(alice);
    expect((await game.openAuthorizeDeviceScreen(DEMO_APP_ID, 'BCDF-GHJK')).successful).toBe(true);
    const page = await pageOf(alice);
    const snapshot = await page.invoke('companion:ready');
    expect(snapshot.device_screen).toEqual({ view: 'authorize-device', screen_id: expect.any(String), application_id: DEMO_APP_ID, user_code: 'BCDF-GHJK' });
    // Another player's Companion has no screen open.
    expect((await (await pageOf(bob)).invoke('companion:ready')).device_screen).toBeNull();
    expect(await page.invoke('companion:close-device-screen', snapshot.device_screen?.screen_id ?? '')).toBeNull();
    expect((await page.invoke('companion:ready')).device_screen).toBeNull();
  });

  it("another game's screen replaces the first game's: the first game is told its screen closed", async () => {
    const page = await pageOf(alice);
    const [first, second] = [await gameOf(alice), await gameOf(alice, OTHER_APP_ID)];
    const closed: string[] = [];
    first.setAuthorizeDeviceScreenClosedCallback(() => closed.push('first'));
    second.setAuthorizeDeviceScreenClosedCallback(() => closed.push('second'));
    expect((await first.openAuthorizeDeviceScreen(DEMO_APP_ID, 'BCDF-GHJK')).successful).toBe(true);
    expect((await second.openAuthorizeDeviceScreen(OTHER_APP_ID, 'CDFG-HJKL')).successful).toBe(true);
    await eventually(() => openViews(page).length === 2, 'two open-view pushes');
    expect(openViews(page)[1]).toMatchObject({ view: 'authorize-device', application_id: OTHER_APP_ID, user_code: 'CDFG-HJKL' });
    await eventually(() => closed.length > 0, "the first game's screen-closed callback");
    await sleep(100);
    expect(closed).toEqual(['first']);
  });
});
