import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform, type PlatformServer } from '../../../../platform/src/index.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { GatewayClient } from '../../../src/host/gateway/gateway-client.js';
import { PlatformApi, PlatformApiError } from '../../../src/host/gateway/platform-api.js';
import { FriendPresences } from '../../../src/host/presence/friend-presences.js';
import { RelationshipActions, type RelationshipPlatform } from '../../../src/host/social/relationship-actions.js';
import { RelationshipBook } from '../../../src/host/social/relationship-book.js';
import { nextEvent, recordingLogger } from '../gateway/support/helpers.js';

const user = (id: string, username: string): PlatformUser => ({ id, username, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 });
const ME = user('1', 'alice');
const BOB = user('2', 'bob');
const ZED = user('3', 'zed');
const EVE = user('4', 'eve');
const DAVE = user('5', 'dave');

/** A platform that records its calls; `failure` makes them throw. */
class FakePlatform implements RelationshipPlatform {
  readonly calls: unknown[][] = [];
  failure: unknown;
  async putRelationship(userId: string, body?: { type?: 2 }): Promise<void> {
    this.calls.push(['put', userId, ...(body === undefined ? [] : [body])]);
    if (this.failure !== undefined) throw this.failure;
  }
  async deleteRelationship(userId: string): Promise<void> {
    this.calls.push(['delete', userId]);
    if (this.failure !== undefined) throw this.failure;
  }
  async sendFriendRequest(username: string): Promise<void> {
    this.calls.push(['post', username]);
    if (this.failure !== undefined) throw this.failure;
  }
}

function setUp(signedIn = true): { actions: RelationshipActions; platform: FakePlatform } {
  const platform = new FakePlatform();
  const book = new RelationshipBook();
  book.dispatch('READY', {
    relationships: [
      { id: ZED.id, type: 3, user: ZED },
      { id: EVE.id, type: 4, user: EVE },
      { id: DAVE.id, type: 2, user: DAVE },
    ],
  });
  const actions = new RelationshipActions({ platform: () => (signedIn ? platform : null), me: () => ME, book, friends: () => [BOB] });
  return { actions, platform };
}

describe('RelationshipActions: the player changes a relationship', () => {
  it('calls the platform for each action on the right relationship', async () => {
    const { actions, platform } = setUp();
    await actions.change(ZED.id, 'accept');
    await actions.change(ZED.id, 'ignore');
    await actions.change(EVE.id, 'cancel');
    await actions.change(BOB.id, 'remove');
    await actions.change(BOB.id, 'block');
    await actions.change('99', 'block');
    await actions.change(DAVE.id, 'unblock');
    expect(platform.calls).toEqual([
      ['put', ZED.id],
      ['delete', ZED.id],
      ['delete', EVE.id],
      ['delete', BOB.id],
      ['put', BOB.id, { type: 2 }],
      ['put', '99', { type: 2 }],
      ['delete', DAVE.id],
    ]);
  });

  it.each<[string, string, Parameters<RelationshipActions['change']>[1], number, string]>([
    ['accept without a request from them', BOB.id, 'accept', 404, 'No friend request from bob'],
    ['ignore a request the player sent', EVE.id, 'ignore', 404, 'No friend request from eve'],
    // DELETE would end any relationship: "cancel" must never unfriend.
    ['cancel on a friend', BOB.id, 'cancel', 404, 'No friend request to bob is waiting'],
    ['remove someone who is not a friend', ZED.id, 'remove', 404, 'zed is not your friend'],
    ['unblock someone not blocked', ZED.id, 'unblock', 404, 'zed is not blocked'],
    ['remove an unknown user', '77', 'remove', 404, 'user 77 is not your friend'],
    ['block themselves', ME.id, 'block', 400, 'That is you: you have no relationship with yourself'],
  ])('refuses to %s, naming the problem, before any platform call', async (_what, userId, action, status, message) => {
    const { actions, platform } = setUp();
    await expect(actions.change(userId, action)).rejects.toMatchObject({ status, message });
    expect(platform.calls).toEqual([]);
  });

  it('sends a friend request by username; accepting theirs when they asked first', async () => {
    const { actions, platform } = setUp();
    expect(await actions.sendFriendRequest(' @Carol ')).toEqual({ accepted: false });
    expect(await actions.sendFriendRequest('ZED')).toEqual({ accepted: true });
    expect(platform.calls).toEqual([
      ['post', 'Carol'],
      ['post', 'ZED'],
    ]);
  });

  it.each<[string, number, string]>([
    ['alice', 400, 'That is your own username: you cannot send yourself a friend request'],
    ['Bob', 409, 'bob is already your friend'],
    ['dave', 409, 'You blocked dave: unblock them first to send a friend request'],
  ])('refuses a friend request to %s with %i', async (username, status, message) => {
    const { actions, platform } = setUp();
    await expect(actions.sendFriendRequest(username)).rejects.toMatchObject({ status, message });
    expect(platform.calls).toEqual([]);
  });

  it("words the platform's refusals for the player, without the request's path", async () => {
    const { actions, platform } = setUp();
    platform.failure = new PlatformApiError(400, 80004, 'POST /users/@me/relationships failed (400): No users with DiscordTag exist', undefined, undefined, 'No users with DiscordTag exist');
    await expect(actions.sendFriendRequest('zed2')).rejects.toMatchObject({ status: 404, message: "No user named 'zed2'" });
    platform.failure = new PlatformApiError(403, 50001, 'PUT /users/@me/relationships/3 failed (403): Missing Access', undefined, undefined, 'Missing Access');
    await expect(actions.change(ZED.id, 'accept')).rejects.toMatchObject({ status: 403, message: 'A block stands between you and zed' });
    platform.failure = new PlatformApiError(0, 0, 'PUT /users/@me/relationships/2: network error (ECONNREFUSED)');
    await expect(actions.change(BOB.id, 'block')).rejects.toMatchObject({ status: 503, message: 'Companion cannot reach the platform right now; try again' });
    platform.failure = new PlatformApiError(500, 0, 'DELETE /users/@me/relationships/2 failed (500): boom', undefined, undefined, 'boom');
    await expect(actions.change(BOB.id, 'remove')).rejects.toMatchObject({ status: 502, message: 'The platform refused the change (500): boom' });
  });

  it('refuses while signed out', async () => {
    const { actions } = setUp(false);
    await expect(actions.change(BOB.id, 'block')).rejects.toMatchObject({ status: 503, message: 'Not signed in to the platform' });
    await expect(actions.sendFriendRequest('carol')).rejects.toMatchObject({ status: 503 });
  });
});

let platform: PlatformServer | undefined;
let dataDir: string | undefined;
const clients: GatewayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop();
  await platform?.close();
  platform = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** A player as the host keeps them: the HTTP client with their token, and the state kept from their gateway session. */
async function player(server: PlatformServer, username: string) {
  const api = new PlatformApi({ baseUrl: server.url });
  const { token } = await api.login(username);
  api.setToken(token);
  const me = await api.me();
  const client = new GatewayClient({ url: await api.gatewayUrl(), token, logger: recordingLogger(), backoff: { initialMs: 10, maxMs: 100 } });
  clients.push(client);
  const friends = new FriendPresences();
  const book = new RelationshipBook();
  client.on('dispatch', (t, d) => {
    friends.dispatch(t, d);
    book.dispatch(t, d);
  });
  const ready = nextEvent(client, 'ready');
  client.start();
  await ready;
  const actions = new RelationshipActions({ platform: () => api, me: () => me, book, friends: () => friends.list().map((entry) => entry.user) });
  const kindOf = (name: string): string | undefined => {
    if (friends.list().some((entry) => entry.user.username === name)) return 'friend';
    return book.list().find((entry) => entry.user.username === name)?.kind;
  };
  return { me, actions, kindOf };
}

/** Waits until `check` holds (gateway dispatches arrive on their own). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe('RelationshipActions against the platform emulator', () => {
  it('a request by name, accepted; a block and its end; an unknown name — each side kept current by its own session', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'companion-rel-'));
    platform = await startPlatform({ dataDir });
    const alice = await player(platform, 'alice');
    const bob = await player(platform, 'bob');

    await alice.actions.change(bob.me.id, 'remove');
    await until(() => alice.kindOf('bob') === undefined && bob.kindOf('alice') === undefined);
    expect(await bob.actions.sendFriendRequest('alice')).toEqual({ accepted: false });
    await until(() => alice.kindOf('bob') === 'incoming' && bob.kindOf('alice') === 'outgoing');
    await alice.actions.change(bob.me.id, 'accept');
    await until(() => alice.kindOf('bob') === 'friend' && bob.kindOf('alice') === 'friend');

    await alice.actions.change(bob.me.id, 'block');
    await until(() => alice.kindOf('bob') === 'blocked' && bob.kindOf('alice') === undefined);
    await expect(bob.actions.sendFriendRequest('alice')).rejects.toMatchObject({ status: 403, message: 'A block stands between you and alice' });
    await alice.actions.change(bob.me.id, 'unblock');
    await until(() => alice.kindOf('bob') === undefined);

    await expect(bob.actions.sendFriendRequest('zed')).rejects.toMatchObject({ status: 404, message: "No user named 'zed'" });
  });
});
