import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, RelationshipGroupType, StatusType } from '../../client/index.js';
import { asPlayer, desktopSession } from './support/desktop-session.js';
import { admin, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { game, newClient } from './support/sdk-games.js';

const HOSTING = { name: 'Companion Demo Game', type: 0, state: 'In a party', party: { id: 'party-p28', size: [1, 4] }, secrets: { join: 'join-secret-p28' } };
const LISTENING = { name: 'Music', type: 2, details: 'A song' };

const idOf = (client: Client): string => client.getCurrentUserV2()?.id ?? '';

async function ready(platform: TestPlatform, username: string, applicationId = SEED_APP_ID): Promise<Client> {
  const client = await game(platform, username, { applicationId });
  client.setApplicationId(applicationId);
  await vi.waitFor(() => expect(client.getCurrentUserV2()).toBeDefined(), { timeout: 5000 });
  return client;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('issue 28 §1 setOnlineStatus', () => {
  it("friends see the status the game sets (over the player's desktop session), invisible shows offline; another game sets only its own player's", async () => {
    const platform = await startTestPlatform();
    const other = platform.admin.createApp({ name: 'Other Game' });
    platform.admin.patchApp(other.id, { public_client: true });
    // alice's Companion is online; her game and bob's game play.
    await desktopSession(platform, 'alice', []);
    const [alice, bob, carolElsewhere] = [await ready(platform, 'alice'), await ready(platform, 'bob'), await ready(platform, 'carol', other.id)];
    const [aliceId, carolId] = [idOf(alice), idOf(carolElsewhere)];
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Online), { timeout: 5000 });
    const bobSaw: string[] = [];
    (await desktopSession(platform, 'bob', [])).on('message', (data) => {
      const message = JSON.parse(String(data)) as { t?: string; d?: { user?: { id?: string }; status?: string } };
      if (message.t === 'PRESENCE_UPDATE' && message.d?.user?.id === aliceId) bobSaw.push(message.d.status ?? '');
    });

    const results: string[] = [];
    expect((await alice.setOnlineStatus(StatusType.Dnd, (result) => results.push(result.type))).successful).toBe(true);
    expect(results).toEqual(['None']);
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Dnd), { timeout: 5000 });
    // The game's own handle of the player shows it too.
    expect(alice.getCurrentUserV2()?.status()).toBe(StatusType.Dnd);
    await alice.setOnlineStatus(StatusType.Idle);
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Idle), { timeout: 5000 });
    await alice.setOnlineStatus(StatusType.Invisible);
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Offline), { timeout: 5000 });
    // Another application's game, with carol's token: carol's status changes, alice's does not.
    await carolElsewhere.setOnlineStatus(StatusType.Idle);
    await vi.waitFor(() => expect(bob.getUser(carolId)?.status()).toBe(StatusType.Idle), { timeout: 5000 });
    expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Offline);
    await alice.setOnlineStatus(StatusType.Online);
    await vi.waitFor(() => expect(bob.getUser(aliceId)?.status()).toBe(StatusType.Online), { timeout: 5000 });
    // bob's Companion (his desktop session) was told each of alice's statuses.
    expect(bobSaw).toEqual(expect.arrayContaining(['dnd', 'idle', 'offline', 'online']));
    expect(bobSaw.filter((status) => status === 'idle')).toHaveLength(1);

    expect(await alice.setOnlineStatus(StatusType.Blocked)).toMatchObject({ successful: false, type: 'ValidationError' });
    expect(await newClient(platform).setOnlineStatus(StatusType.Idle)).toMatchObject({ successful: false, type: 'ClientNotReady' });
  });
});

describe('issue 28 §1 sendActivityJoinRequest', () => {
  it("asks a friend playing this game with a joinable party (a join request in their DM, this game's); not a stranger, not a friend playing another game", async () => {
    const platform = await startTestPlatform();
    const other = platform.admin.createApp({ name: 'Other Game' });
    await desktopSession(platform, 'alice', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    await desktopSession(platform, 'carol', [{ ...HOSTING, application_id: other.id }]);
    const bob = await ready(platform, 'bob');
    const { relationships } = await bob.getRelationships();
    const userId = (name: string): string => relationships.find((handle) => handle.username === name)?.id ?? '';

    const results: boolean[] = [];
    const sent = await bob.sendActivityJoinRequest(userId('alice'), (result) => results.push(result.successful));
    expect(sent.successful, sent.error).toBe(true);
    expect(results).toEqual([true]);
    const dm = await asPlayer<{ id: string }>(platform, 'alice', 'POST', '/users/@me/channels', { recipient_id: idOf(bob) });
    const messages = await asPlayer<{ author: { id: string }; activity?: { type: number; party_id?: string }; application_id?: string }[]>(platform, 'alice', 'GET', `/channels/${dm.id}/messages?limit=5`);
    expect(messages[0]).toMatchObject({ author: { id: idOf(bob) }, activity: { type: 5, party_id: 'party-p28' }, application_id: SEED_APP_ID });

    // carol plays another application: nothing of this game to join.
    expect(await bob.sendActivityJoinRequest(userId('carol'))).toMatchObject({ successful: false, type: 'HttpError', status: 400 });
    // dave plays nothing.
    expect(await bob.sendActivityJoinRequest(userId('dave'))).toMatchObject({ successful: false, type: 'HttpError' });
    // A stranger (no friend of bob) hosting this game: refused.
    const stranger = await admin<{ id: string; username: string }>(platform, 'POST', '/_emulator/users', { username: 'stranger28' });
    await desktopSession(platform, stranger.username, [{ ...HOSTING, application_id: SEED_APP_ID }]);
    expect(await bob.sendActivityJoinRequest(stranger.id)).toMatchObject({ successful: false, type: 'HttpError', status: 403 });
    expect(await bob.sendActivityJoinRequest('not-an-id')).toMatchObject({ successful: false });
  });
});

describe('issue 28 §1 setActivityInviteUpdatedCallback', () => {
  it("without Companion, an invite DM to the game's session turns invalid when its sender leaves (offline), and valid when back in the party", async () => {
    const platform = await startTestPlatform();
    const bob = await ready(platform, 'bob');
    const updated: [string, boolean][] = [];
    expect((await bob.setActivityInviteUpdatedCallback((invite) => updated.push([invite.messageId, invite.isValid]))).successful).toBe(true);
    const desktop = await desktopSession(platform, 'alice', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    const dm = await asPlayer<{ id: string }>(platform, 'alice', 'POST', '/users/@me/channels', { recipient_id: idOf(bob) });
    // Companion sends alice's invite (ACTIVITY_INVITE_USER): a DM with the activity.
    const invite = await asPlayer<{ id: string }>(platform, 'alice', 'POST', `/channels/${dm.id}/messages`, { content: '', activity: { type: 1, party_id: 'party-p28' }, application_id: SEED_APP_ID });
    await vi.waitFor(() => expect(bob.getMessageHandle(invite.id)).not.toBeNull(), { timeout: 5000 });
    expect(updated).toEqual([]);
    desktop.close(1000);
    await vi.waitFor(() => expect(updated).toEqual([[invite.id, false]]), { timeout: 5000 });
    await desktopSession(platform, 'alice', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    await vi.waitFor(() => expect(updated).toEqual([[invite.id, false], [invite.id, true]]), { timeout: 5000 });
    expect((await bob.setActivityInviteUpdatedCallback(undefined)).successful).toBe(true);
  });
});

describe('issue 28 §1 getRelationshipsByGroup', () => {
  it('friends by group: playing this game, online elsewhere, offline; following their presence, with setRelationshipGroupsUpdatedCallback and setUserUpdatedCallback', async () => {
    const platform = await startTestPlatform();
    const bobDesktop = await desktopSession(platform, 'bob', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    await desktopSession(platform, 'carol', [LISTENING]);
    const alice = await ready(platform, 'alice');
    const { relationships } = await alice.getRelationships();
    const userId = (name: string): string => relationships.find((handle) => handle.username === name)?.id ?? '';
    const names = (group: RelationshipGroupType): string[] => alice.getRelationshipsByGroup(group).map((handle) => handle.username);
    await vi.waitFor(() => expect(names(RelationshipGroupType.OnlinePlayingGame)).toEqual(['bob']), { timeout: 5000 });
    expect(names(RelationshipGroupType.OnlineElsewhere)).toEqual(['carol']);
    expect(names(RelationshipGroupType.Offline)).toEqual(['dave']);

    const groups: string[] = [];
    const users: string[] = [];
    alice.setRelationshipGroupsUpdatedCallback((id) => groups.push(id));
    alice.setUserUpdatedCallback((id) => users.push(id));
    bobDesktop.close(1000);
    await vi.waitFor(() => expect(names(RelationshipGroupType.Offline)).toEqual(['bob', 'dave']), { timeout: 5000 });
    expect(names(RelationshipGroupType.OnlinePlayingGame)).toEqual([]);
    expect(groups).toContain(userId('bob'));
    expect(users).toContain(userId('bob'));
    await desktopSession(platform, 'dave', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    await vi.waitFor(() => expect(names(RelationshipGroupType.OnlinePlayingGame)).toEqual(['dave']), { timeout: 5000 });
    expect(groups).toContain(userId('dave'));
    expect(users).toContain(userId('dave'));
    // A friend removed leaves every group (and is told).
    expect((await alice.removeDiscordAndGameFriend(userId('carol'))).successful).toBe(true);
    await vi.waitFor(() => expect(names(RelationshipGroupType.OnlineElsewhere)).toEqual([]), { timeout: 5000 });
    expect(groups).toContain(userId('carol'));
    expect(() => alice.getRelationshipsByGroup(7 as RelationshipGroupType)).toThrow(RangeError);
  });
});

describe('issue 28 §1 setUserUpdatedCallback', () => {
  it("fires when a known user comes online, changes status or starts playing this game; not for a stranger's presence", async () => {
    const platform = await startTestPlatform();
    const alice = await ready(platform, 'alice');
    const { relationships } = await alice.getRelationships();
    const carolId = relationships.find((handle) => handle.username === 'carol')?.id ?? '';
    const users: string[] = [];
    alice.setUserUpdatedCallback((id) => users.push(id));
    const carol = await desktopSession(platform, 'carol', [LISTENING]);
    await vi.waitFor(() => expect(users).toEqual([carolId]), { timeout: 5000 });
    carol.send(JSON.stringify({ op: 3, d: { since: null, activities: [{ ...HOSTING, application_id: SEED_APP_ID }], status: 'idle', afk: false } }));
    await vi.waitFor(() => expect(users).toEqual([carolId, carolId]), { timeout: 5000 });
    expect(alice.getUser(carolId)?.status()).toBe(StatusType.Idle);
    expect(alice.getUser(carolId)?.gameActivity()).toMatchObject({ state: 'In a party' });
    const stranger = await admin<{ id: string; username: string }>(platform, 'POST', '/_emulator/users', { username: 'stranger28b' });
    await desktopSession(platform, stranger.username, []);
    alice.setUserUpdatedCallback(undefined);
    carol.close(1000);
    await vi.waitFor(() => expect(alice.getUser(carolId)?.status()).toBe(StatusType.Offline), { timeout: 5000 });
    expect(users).toEqual([carolId, carolId]);
  });
});

describe('issue 28 §1 searchFriendsByUsername', () => {
  it('matches friends by username and display name, case-insensitively and with a typo, closest first; not strangers', async () => {
    const platform = await startTestPlatform();
    const alice = await ready(platform, 'alice');
    await vi.waitFor(() => expect(alice.getRelationshipsByGroup(RelationshipGroupType.Offline).length).toBe(3), { timeout: 5000 });
    expect(alice.searchFriendsByUsername('BOB').map((user) => user.username)).toEqual(['bob']);
    expect(alice.searchFriendsByUsername('carl').map((user) => user.username)).toEqual(['carol']);
    expect(alice.searchFriendsByUsername('Dav').map((user) => user.displayName)).toEqual(['Dave']);
    expect(alice.searchFriendsByUsername('alice')).toEqual([]);
    expect(alice.searchFriendsByUsername('').length).toBe(3);
    expect(alice.searchFriendsByUsername('zzzzzz')).toEqual([]);
  });
});

describe('issue 28 §1 registerLaunchSteamApplication', () => {
  it("records the opener of the Steam game's URL in launch-commands.json, beside other games' commands", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-steam-'));
    dirs.push(dir);
    const client = new Client({ companionDataDir: dir, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    expect(await client.registerLaunchCommand('1111111111111111111', ['/usr/bin/other-game'])).toBe(true);
    expect(await client.registerLaunchSteamApplication(SEED_APP_ID, 570)).toBe(true);
    const table = JSON.parse(await readFile(path.join(dir, 'launch-commands.json'), 'utf8')) as Record<string, string[]>;
    const opener = process.platform === 'darwin' ? ['open'] : process.platform === 'win32' ? ['rundll32', 'url.dll,FileProtocolHandler'] : ['xdg-open'];
    expect(table).toEqual({ '1111111111111111111': ['/usr/bin/other-game'], [SEED_APP_ID]: [...opener, 'steam://rungameid/570'] });
    expect(await client.registerLaunchSteamApplication(SEED_APP_ID, -1)).toBe(false);
    expect(await client.registerLaunchSteamApplication('not-an-id', 570)).toBe(false);
  });
});
