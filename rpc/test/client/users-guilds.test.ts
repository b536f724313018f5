import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChannelType, Client, StatusType, type ClientResult, type GuildChannel } from '../../client/index.js';
import { getToken } from '../../client/oauth-http.js';
import { desktopSession } from './support/desktop-session.js';
import { downgradeToStateFile, rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';

const clients: Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A game's SDK Client for a player, with its own token of `scope` (updateToken), Companion not running. */
async function game(platform: TestPlatform, username: string, scope = 'identify sdk.social_layer'): Promise<Client> {
  const code = await rpcAuthorizationCode(platform, { scope }, username);
  const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
  const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  client.setApplicationId(SEED_APP_ID);
  clients.push(client);
  expect((await client.updateToken('Bearer', token.accessToken)).successful).toBe(true);
  return client;
}

const PLAYING = { name: 'Companion Demo Game', type: 0, state: 'In a party', party: { id: 'p1', size: [1, 4] } };
const LISTENING = { name: 'Music', type: 2, details: 'A song' };

describe('companion/client users: getCurrentUserV2, getUser and live handles', () => {
  it('the current user is undefined until the session is ready; then a handle with the account fields, online', async () => {
    const platform = await startTestPlatform();
    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
    const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    clients.push(client);
    expect(client.getCurrentUserV2()).toBeUndefined();
    await client.updateToken('Bearer', token.accessToken);
    await vi.waitFor(() => expect(client.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
    const me = client.getCurrentUserV2();
    const id = me?.id ?? '';
    expect(me?.toJSON()).toEqual({
      id,
      username: 'alice',
      globalName: 'Alice',
      displayName: 'Alice',
      avatarUrl: `https://cdn.discordapp.com/embed/avatars/${Number((BigInt(id) >> 22n) % 6n)}.png`,
      isProvisional: false,
      status: StatusType.Online,
    });
    expect(client.getUser(id)?.username).toBe('alice');

    // The session ends: nothing is known any more.
    await client.disconnect();
    expect(client.getCurrentUserV2()).toBeUndefined();
    expect(client.getUser(id)).toBeUndefined();
  });

  it("a friend's handle follows their presence: status and this game's activity, and back to offline", async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    await vi.waitFor(() => expect(alice.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
    const { relationships } = await alice.getRelationships();
    const bobId = relationships.find((relationship) => relationship.username === 'bob')?.id ?? '';
    const bob = alice.getUser(bobId);
    expect(bob?.displayName).toBe('Bob');
    expect(bob?.status()).toBe(StatusType.Offline);
    expect(bob?.gameActivity()).toBeUndefined();
    expect(alice.getUser('123456789012345678')).toBeUndefined();

    const desktop = await desktopSession(platform, 'bob', [LISTENING, { ...PLAYING, application_id: SEED_APP_ID }]);
    // The handle taken before is live.
    await vi.waitFor(() => expect(bob?.status()).toBe(StatusType.Online), { timeout: 5000 });
    expect(bob?.gameActivity()).toMatchObject({ name: 'Companion Demo Game', state: 'In a party', application_id: SEED_APP_ID });
    expect(bob?.gameActivity()).not.toHaveProperty('secrets');

    desktop.close(1000);
    await vi.waitFor(() => expect(bob?.status()).toBe(StatusType.Offline), { timeout: 5000 });
    expect(bob?.gameActivity()).toBeUndefined();
  });

  it('only this game\'s activity is a game activity; a blocked user shows as blocked; an unfriended one is no longer known', async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    await vi.waitFor(() => expect(alice.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
    const { relationships } = await alice.getRelationships();
    const idOf = (name: string): string => relationships.find((relationship) => relationship.username === name)?.id ?? '';
    await desktopSession(platform, 'carol', [LISTENING]);
    await vi.waitFor(() => expect(alice.getUser(idOf('carol'))?.status()).toBe(StatusType.Online), { timeout: 5000 });
    expect(alice.getUser(idOf('carol'))?.gameActivity()).toBeUndefined();

    expect((await alice.blockUser(idOf('dave'))).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getUser(idOf('dave'))?.status()).toBe(StatusType.Blocked), { timeout: 5000 });
    expect((await alice.removeRelationship(idOf('dave'))).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getUser(idOf('dave'))).toBeUndefined(), { timeout: 5000 });
  });

  it('a game friend who is no platform-wide friend is known to getUser, from the events and from the list asked at READY, until the game friendship ends', async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    const bob = await game(platform, 'bob');
    await vi.waitFor(() => expect(alice.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
    await vi.waitFor(() => expect(bob.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
    const aliceId = alice.getCurrentUserV2()?.id ?? '';
    const bobId = bob.getCurrentUserV2()?.id ?? '';
    expect((await alice.removeDiscordAndGameFriend(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getUser(bobId)).toBeUndefined(), { timeout: 5000 });

    expect((await alice.sendGameFriendRequestById(bobId)).successful).toBe(true);
    // A game request is a relationship too: the other player is known on both sides.
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.username).toBe('alice'), { timeout: 5000 });
    expect((await bob.acceptGameFriendRequest(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getRelationshipHandle(bobId).gameRelationshipType).toBe(1), { timeout: 5000 });
    expect(alice.getUser(bobId)?.toJSON()).toMatchObject({ id: bobId, username: 'bob', displayName: 'Bob', status: StatusType.Offline });

    // A game started afterwards hears of no game friend in READY: the list the SDK asks for then tells it.
    const later = await game(platform, 'alice');
    await vi.waitFor(() => expect(later.getUser(bobId)?.username).toBe('bob'), { timeout: 5000 });

    expect((await alice.removeGameFriend(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getUser(bobId)).toBeUndefined(), { timeout: 5000 });
  });
});

/** The seeded guild with categories and channels added to its state file, stored out of order. */
async function platformWithCategories(): Promise<{ platform: TestPlatform; guildId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'companion-sdk-guilds-'));
  dirs.push(dataDir);
  await (await startTestPlatform({ dataDir })).close();
  await downgradeToStateFile(dataDir);
  const file = path.join(dataDir, 'state.json');
  const state = JSON.parse(await readFile(file, 'utf8')) as { guilds: { id: string }[]; channels: object[] };
  const guildId = state.guilds[0]?.id ?? '';
  const channel = (id: number, type: number, name: string, position: number, parent: number | null): object => ({
    id: String(900_000_000_000_000_000n + BigInt(id)),
    type,
    guild_id: guildId,
    name,
    position,
    parent_id: parent === null ? null : String(900_000_000_000_000_000n + BigInt(parent)),
    status: null,
    voice_start_time: null,
  });
  state.channels.push(
    channel(10, 2, 'Alpha', 3, 2),
    channel(1, 4, 'Info', 0, null),
    channel(11, 0, 'lfg', 2, 2),
    channel(20, 0, 'off-topic', 5, null),
    channel(2, 4, 'Squads', 1, null),
    channel(12, 2, 'Bravo', 0, 2),
    channel(21, 0, 'orphan', 9, 99),
    channel(5, 5, 'announcements', 1, 1),
    channel(13, 0, 'clips', 1, 2),
    channel(4, 0, 'rules', 0, 1),
  );
  await writeFile(file, JSON.stringify(state));
  return { platform: await startTestPlatform({ dataDir }), guildId };
}

describe('companion/client guilds: getUserGuilds and getGuildChannels', () => {
  it('lists the guilds; channels come sorted as the desktop client lists them, with type, position and category', async () => {
    const { platform, guildId } = await platformWithCategories();
    const alice = await game(platform, 'alice');
    const seen: (readonly unknown[])[] = [];
    const guilds = await alice.getUserGuilds((result, list) => seen.push([result.successful, list]));
    expect(guilds.result.successful).toBe(true);
    expect(guilds.guilds).toEqual([{ id: guildId, name: 'Companion Lounge' }]);
    expect(seen).toEqual([[true, guilds.guilds]]);

    const { result, channels } = await alice.getGuildChannels(guildId);
    expect(result.successful).toBe(true);
    expect(channels.map((c) => c.name)).toEqual(['general', 'off-topic', 'orphan', 'Voice', 'Party', 'Info', 'rules', 'announcements', 'Squads', 'clips', 'lfg', 'Bravo', 'Alpha']);
    const byName = (name: string): GuildChannel | undefined => channels.find((c) => c.name === name);
    expect(byName('Squads')).toMatchObject({ type: ChannelType.GuildCategory, position: 1, parentId: null, isLinkable: false });
    expect(byName('lfg')).toEqual({
      id: '900000000000000011',
      name: 'lfg',
      type: ChannelType.GuildText,
      position: 2,
      parentId: byName('Squads')?.id,
      isLinkable: true,
      isViewableAndWriteableByAllMembers: true,
      linkedLobby: null,
    });
    expect(byName('Alpha')).toMatchObject({ type: ChannelType.GuildVoice, isLinkable: false, isViewableAndWriteableByAllMembers: false });
    expect(byName('announcements')).toMatchObject({ type: ChannelType.GuildNews, isLinkable: false, isViewableAndWriteableByAllMembers: true });

    // bob is a member, not the owner: he may not manage channels, so nothing is linkable for him.
    const bob = await game(platform, 'bob');
    const bobs = await bob.getGuildChannels(guildId);
    expect(bobs.channels.map((c) => c.name)).toEqual(channels.map((c) => c.name));
    expect(bobs.channels.filter((c) => c.isLinkable)).toEqual([]);
  });

  it('refusals are results, never thrown: a bad id, an unknown guild, a token without the scopes, no token', async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    const answers: ClientResult[] = [];
    expect((await alice.getGuildChannels('not-a-guild', (result) => answers.push(result))).result).toMatchObject({ successful: false, type: 'ValidationError' });
    expect(answers).toHaveLength(1);
    expect((await alice.getGuildChannels('123456789012345678')).result).toMatchObject({ successful: false, type: 'HttpError', status: 404, errorCode: 10004 });

    const narrow = await game(platform, 'alice', 'identify');
    expect((await narrow.getUserGuilds()).result).toMatchObject({ successful: false, status: 403, errorCode: 50026 });
    const guildId = (await alice.getUserGuilds()).guilds[0]?.id ?? '';
    expect((await narrow.getGuildChannels(guildId)).result).toMatchObject({ successful: false, status: 403, errorCode: 50026 });

    const noToken = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    expect((await noToken.getUserGuilds()).result).toMatchObject({ successful: false, type: 'ValidationError', error: 'no access token: call updateToken first' });
  });
});
