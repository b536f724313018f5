/**
 * Issue 28 §1: the Social SDK's calls that involve Companion, against a real host and emulator:
 * getDiscordClientConnectedUser, isDiscordAppInstalled, openConnectedGamesSettingsInDiscord,
 * openMessageInDiscord, setShowingChat, setGameWindowPid and abortAuthorize. The host's commands
 * of ours (OPEN_CONNECTED_GAMES_SETTINGS, OPEN_MESSAGE, SET_SHOWING_CHAT) answer the asking
 * game's application only, and bad args with the protocol's 4000.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs, Client } from '../../../rpc/client/index.js';
import type { ControlEvent } from '../../src/host/control/control-backend.js';
import { rawCode } from './support/raw-command.js';
import { SdkPlayers } from './support/sdk-players.js';
import { DEMO_APP_ID, eventually, type Player } from './support/world.js';

const OTHER_APP_ID = '1234567890123456780';

let table: SdkPlayers;
let alice: Player;
let bob: Player;

beforeEach(async () => {
  table = await SdkPlayers.start();
  alice = table.player('alice');
  bob = table.player('bob');
});
afterEach(async () => {
  await table.close();
});

/** A game next to the player's Companion, connected as `applicationId`. */
const gameOf = (player: Player, applicationId = DEMO_APP_ID): Promise<Client> => table.connected(player.name, applicationId);
/** A game that authorized through Companion (the policy approves) and holds its token, its platform session ready. */
const signedInGame = (player: Player, applicationId = DEMO_APP_ID): Promise<Client> => table.signedIn(player.name, applicationId);

function controlEvents(player: Player): ControlEvent[] {
  const seen: ControlEvent[] = [];
  player.host.control.backend.subscribe((event) => seen.push(event));
  return seen;
}

const openViews = (events: readonly ControlEvent[]): unknown[] => events.filter((event) => event.type === 'open-view').map((event) => event.data);

describe('issue 28 §1 getDiscordClientConnectedUser and isDiscordAppInstalled', () => {
  it("answer Companion's signed-in user and whether a Companion is reachable", async () => {
    const client = new Client({ env: { XDG_RUNTIME_DIR: alice.runtimeDir }, logger: { sink: () => undefined } });
    table.track(client);
    expect(await client.isDiscordAppInstalled()).toBe(true);
    const called: [boolean, string | undefined][] = [];
    const answer = await client.getDiscordClientConnectedUser(DEMO_APP_ID, (result, user) => called.push([result.successful, user?.id]));
    expect(answer.result.successful, answer.result.error).toBe(true);
    expect(answer.user).toMatchObject({ id: alice.host.session.user?.id, username: 'alice' });
    expect(called).toEqual([[true, alice.host.session.user?.id]]);
    expect((await client.getDiscordClientConnectedUser('nope')).result.type).toBe('ValidationError');

    const nowhere = new Client({ env: { XDG_RUNTIME_DIR: await table.world.tempDir('companion-none-') }, logger: { sink: () => undefined } });
    table.track(nowhere);
    expect(await nowhere.isDiscordAppInstalled()).toBe(false);
    expect(await nowhere.getDiscordClientConnectedUser(DEMO_APP_ID)).toMatchObject({ result: { type: 'ClientNotReady' }, user: null });
  });
});

describe('issue 28 §1 openConnectedGamesSettingsInDiscord', () => {
  it("Companion is asked to show its Authorized apps for the asking game's application; bad args are 4000", async () => {
    const events = controlEvents(alice);
    const game = await gameOf(alice);
    const results: boolean[] = [];
    expect((await game.openConnectedGamesSettingsInDiscord((result) => results.push(result.successful))).successful).toBe(true);
    expect(results).toEqual([true]);
    const other = await gameOf(alice, OTHER_APP_ID);
    expect((await other.openConnectedGamesSettingsInDiscord()).successful).toBe(true);
    await eventually(() => openViews(events).length === 2, 'two open-view events');
    expect(openViews(events)).toEqual([
      expect.objectContaining({ view: 'authorized-apps', application_id: DEMO_APP_ID }),
      expect.objectContaining({ view: 'authorized-apps', application_id: OTHER_APP_ID }),
    ]);
    expect(await rawCode(game, 'OPEN_CONNECTED_GAMES_SETTINGS', { pid: 'x' })).toBe(4000);
    expect(await rawCode(game, 'OPEN_CONNECTED_GAMES_SETTINGS', [])).toBe(4000);
    const offline = new Client({ env: { XDG_RUNTIME_DIR: await table.world.tempDir('companion-none-') }, logger: { sink: () => undefined } });
    table.track(offline);
    offline.setApplicationId(DEMO_APP_ID);
    expect((await offline.openConnectedGamesSettingsInDiscord()).type).toBe('ClientNotReady');
  });
});

describe('issue 28 §1 openMessageInDiscord, canOpenMessageInDiscord and setShowingChat', () => {
  it("Companion shows the conversation of the game's own DM; another application's game is refused (4005); a shown chat reads the game's DMs", async () => {
    const [aliceGame, bobGame] = [await signedInGame(alice), await signedInGame(bob)];
    const [aliceId, bobId] = [alice.host.session.user?.id ?? '', bob.host.session.user?.id ?? ''];
    const events = controlEvents(bob);
    const sent = await aliceGame.sendUserMessage(bobId, 'ready?');
    expect(sent.result.successful, sent.result.error).toBe(true);
    const messageId = sent.messageId ?? '';
    await eventually(() => bobGame.getMessageHandle(messageId) !== null, "bob's game holds the message");
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === messageId)), "bob's Companion holds the message");
    expect(bobGame.canOpenMessageInDiscord(messageId)).toBe(true);
    const results: boolean[] = [];
    const opened = await bobGame.openMessageInDiscord(messageId, undefined, (result) => results.push(result.successful));
    expect(opened.successful, opened.error).toBe(true);
    expect(results).toEqual([true]);
    await eventually(() => openViews(events).length === 1, 'the open-view event');
    expect(openViews(events)[0]).toMatchObject({ view: 'conversation', application_id: DEMO_APP_ID, user_id: aliceId, message_id: messageId });

    // Another application's game on bob's machine cannot open this game's message.
    const other = await gameOf(bob, OTHER_APP_ID);
    expect(await rawCode(other, 'OPEN_MESSAGE', { message_id: messageId })).toBe(4005);
    expect(await rawCode(bobGame, 'OPEN_MESSAGE', { message_id: '42' })).toBe(4005);
    expect(await rawCode(bobGame, 'OPEN_MESSAGE', { message_id: 42 })).toBe(4000);
    expect(await rawCode(bobGame, 'OPEN_MESSAGE', {})).toBe(4000);
    expect(openViews(events)).toHaveLength(1);
    expect((await bobGame.openMessageInDiscord('999', undefined)).type).toBe('ValidationError');

    // Not shown: the next message is unread in Companion; shown: read as it arrives.
    const unread = (): number => bob.host.control.backend.conversations().find((c) => c.user_id === aliceId)?.unread ?? -1;
    const second = await aliceGame.sendUserMessage(bobId, 'hello?');
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === second.messageId)), 'the second message in Companion');
    expect(unread()).toBeGreaterThan(0);
    expect((await bobGame.setShowingChat(true)).successful).toBe(true);
    const third = await aliceGame.sendUserMessage(bobId, 'there?');
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === third.messageId)), 'the third message in Companion');
    expect(unread()).toBe(0);
    // Another game showing its chat reads nothing of this game's.
    expect((await bobGame.setShowingChat(false)).successful).toBe(true);
    expect((await other.setShowingChat(true)).successful).toBe(true);
    const fourth = await aliceGame.sendUserMessage(bobId, 'anyone?');
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === fourth.messageId)), 'the fourth message in Companion');
    expect(unread()).toBe(1);
    expect(await rawCode(bobGame, 'SET_SHOWING_CHAT', { showing: 'yes' })).toBe(4000);

    // Set before the connection: sent once it is up.
    expect((await other.setShowingChat(false)).successful).toBe(true);
    await bobGame.disconnect();
    expect((await bobGame.setShowingChat(true)).successful).toBe(true);
    expect((await bobGame.connect()).successful).toBe(true);
    // A later command of the same connection is answered after the restored SET_SHOWING_CHAT.
    expect(await rawCode(bobGame, 'SET_SHOWING_CHAT', { showing: 'x' })).toBe(4000);
    const fifth = await aliceGame.sendUserMessage(bobId, 'back?');
    await eventually(() => bob.host.control.backend.conversations().some((c) => c.messages.some((m) => m.id === fifth.messageId)), 'the fifth message in Companion');
    expect(unread()).toBe(0);
  });
});

describe('issue 28 §1 setGameWindowPid and abortAuthorize', () => {
  it('the pid set is the one SET_ACTIVITY sends; abortAuthorize ends an AUTHORIZE waiting for the player with Aborted', async () => {
    const carol = await table.addPlayer('carol');
    const game = await gameOf(carol);
    game.setGameWindowPid(4242);
    expect(() => game.setGameWindowPid(-1)).toThrow(RangeError);
    expect((await game.updateRichPresence({ state: 'In menus' })).successful).toBe(true);
    const games = (await carol.control('GET', '/v1/games')).body as { games: { pid: number | null; client_id: string }[] };
    expect(games.games.find((entry) => entry.client_id === DEMO_APP_ID)?.pid).toBe(4242);

    const prompted = new Promise<void>((resolve) => carol.host.consent.once('request', () => resolve()));
    const args = new AuthorizationArgs();
    args.setScopes('identify');
    const called: string[] = [];
    const pending = game.authorize(args, (result) => called.push(result.type));
    await prompted;
    game.abortAuthorize();
    expect((await pending).result.type).toBe('Aborted');
    expect(called).toEqual(['Aborted']);
  });
});
