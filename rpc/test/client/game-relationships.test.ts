import { describe, expect, it, vi } from 'vitest';
import type { Client} from '../../client/index.js';
import { RelationshipType } from '../../client/index.js';
import { rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { connected, game, newClient } from './support/sdk-games.js';

async function idOf(platform: TestPlatform, username: string): Promise<string> {
  const response = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: platform.loginToken(username) } });
  return ((await response.json()) as { id: string }).id;
}

/** Records the Social SDK callbacks as `created <id> <isDiscord>` / `deleted <id> <isDiscord>`. */
function watch(client: Client): string[] {
  const seen: string[] = [];
  client.setRelationshipCreatedCallback((userId, isDiscord) => seen.push(`created ${userId} ${isDiscord}`));
  client.setRelationshipDeletedCallback((userId, isDiscord) => seen.push(`deleted ${userId} ${isDiscord}`));
  return seen;
}

const types = (client: Client, userId: string) => {
  const handle = client.getRelationshipHandle(userId);
  return [handle.discordRelationshipType, handle.gameRelationshipType];
};

describe('companion/client game relationships', () => {
  it("a game request and its acceptance make game friends beside the Discord friendship, in this game only; the other player's callbacks fire", async () => {
    const platform = await startTestPlatform();
    const other = platform.admin.createApp({ name: 'Other Game' });
    platform.admin.patchApp(other.id, { public_client: true });
    const [alice, bob, aliceElsewhere] = [await game(platform, 'alice'), await game(platform, 'bob'), await game(platform, 'alice', { applicationId: other.id })];
    const [aliceId, bobId] = [await idOf(platform, 'alice'), await idOf(platform, 'bob')];
    const bobSaw = watch(bob);
    const aliceSaw = watch(alice);

    const results: boolean[] = [];
    expect((await alice.sendGameFriendRequestById(bobId, (result) => results.push(result.successful))).successful).toBe(true);
    expect(results).toEqual([true]);
    expect(types(alice, bobId)).toEqual([RelationshipType.Friend, RelationshipType.PendingOutgoing]);
    // bob's handle is kept current by his game's session: no list asked for.
    await vi.waitFor(() => expect(bobSaw).toEqual([`created ${aliceId} false`]));
    expect(types(bob, aliceId)).toEqual([RelationshipType.Friend, RelationshipType.PendingIncoming]);

    expect((await bob.acceptGameFriendRequest(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(aliceSaw).toEqual([`created ${bobId} false`, `created ${bobId} false`]));
    expect(types(alice, bobId)).toEqual([RelationshipType.Friend, RelationshipType.Friend]);
    const listed = await bob.getRelationships();
    expect(listed.relationships.find((handle) => handle.id === aliceId)).toMatchObject({ discordRelationshipType: RelationshipType.Friend, gameRelationshipType: RelationshipType.Friend, username: 'alice', displayName: 'Alice', user: { id: aliceId } });
    // Game friends of one game are nothing in another.
    const elsewhere = await aliceElsewhere.getRelationships();
    expect(elsewhere.relationships.find((handle) => handle.id === bobId)).toMatchObject({ discordRelationshipType: RelationshipType.Friend, gameRelationshipType: RelationshipType.None });
    // Accepting again: there is no request any more (nothing is sent).
    expect(await bob.acceptGameFriendRequest(aliceId)).toMatchObject({ successful: false, type: 'ValidationError' });
    expect(await bob.acceptGameFriendRequest('not-a-user')).toMatchObject({ successful: false, type: 'ValidationError' });
  });

  it('reject, cancel, removeGameFriend and removeDiscordAndGameFriend; a block ends both kinds; unblocking restores none', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const [aliceId, bobId] = [await idOf(platform, 'alice'), await idOf(platform, 'bob')];
    const aliceSaw = watch(alice);
    const bobSaw = watch(bob);
    const befriend = async (): Promise<void> => {
      await alice.sendGameFriendRequestById(bobId);
      await vi.waitFor(() => expect(types(bob, aliceId)[1]).toBe(RelationshipType.PendingIncoming));
      expect((await bob.acceptGameFriendRequest(aliceId)).successful).toBe(true);
      await vi.waitFor(() => expect(types(alice, bobId)[1]).toBe(RelationshipType.Friend));
    };

    await alice.sendGameFriendRequestById(bobId);
    expect((await bob.rejectGameFriendRequest(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(aliceSaw).toContain(`deleted ${bobId} false`));
    expect(types(alice, bobId)).toEqual([RelationshipType.Friend, RelationshipType.None]);
    expect(await alice.cancelGameFriendRequest(bobId)).toMatchObject({ successful: false, type: 'ValidationError' });
    await alice.sendGameFriendRequestById(bobId);
    expect((await alice.cancelGameFriendRequest(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(types(bob, aliceId)).toEqual([RelationshipType.Friend, RelationshipType.None]));

    await befriend();
    expect((await alice.removeGameFriend(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(types(bob, aliceId)).toEqual([RelationshipType.Friend, RelationshipType.None]));
    await befriend();
    bobSaw.length = 0;
    expect((await alice.removeDiscordAndGameFriend(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(bobSaw.sort()).toEqual([`deleted ${aliceId} false`, `deleted ${aliceId} true`]));
    expect(types(bob, aliceId)).toEqual([RelationshipType.None, RelationshipType.None]);
    expect(await alice.removeDiscordAndGameFriend(bobId)).toMatchObject({ successful: false, type: 'ValidationError' });

    // Discord requests: rejected, cancelled, then accepted (by username and by id).
    await alice.sendDiscordFriendRequestById(bobId);
    expect((await bob.rejectDiscordFriendRequest(aliceId)).successful).toBe(true);
    expect((await alice.sendDiscordFriendRequest('bob')).successful).toBe(true);
    expect(types(alice, bobId)[0]).toBe(RelationshipType.PendingOutgoing);
    expect((await alice.cancelDiscordFriendRequest(bobId)).successful).toBe(true);
    await alice.sendDiscordFriendRequest('bob');
    expect((await bob.acceptDiscordFriendRequest(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(types(alice, bobId)[0]).toBe(RelationshipType.Friend));

    await befriend();
    aliceSaw.length = 0;
    expect((await bob.blockUser(aliceId)).successful).toBe(true);
    expect(types(bob, aliceId)).toEqual([RelationshipType.Blocked, RelationshipType.None]);
    await vi.waitFor(() => expect(types(alice, bobId)).toEqual([RelationshipType.None, RelationshipType.None]));
    expect(aliceSaw).toEqual(expect.arrayContaining([`deleted ${bobId} true`, `deleted ${bobId} false`]));
    expect(await alice.sendGameFriendRequestById(bobId)).toMatchObject({ successful: false, type: 'HttpError', status: 403, errorCode: 50001 });
    expect((await bob.unblockUser(aliceId)).successful).toBe(true);
    expect(types(bob, aliceId)).toEqual([RelationshipType.None, RelationshipType.None]);
    expect(await bob.unblockUser(aliceId)).toMatchObject({ successful: false, type: 'ValidationError' });
  });

  it('sendGameFriendRequest by username; an unknown username comes back as the platform answers it', async () => {
    const platform = await startTestPlatform();
    const [alice, carol] = [await game(platform, 'alice'), await game(platform, 'carol')];
    const aliceId = await idOf(platform, 'alice');
    const carolSaw = watch(carol);
    expect((await alice.sendGameFriendRequest('carol')).successful).toBe(true);
    await vi.waitFor(() => expect(carolSaw).toEqual([`created ${aliceId} false`]));
    expect((await carol.sendGameFriendRequest('Alice')).successful).toBe(true); // asked first: accepted
    expect(types(carol, aliceId)[1]).toBe(RelationshipType.Friend);
    expect(await alice.sendGameFriendRequest('nobody_here')).toMatchObject({ successful: false, type: 'HttpError', status: 400, errorCode: 80004 });
    expect(await alice.sendDiscordFriendRequest('')).toMatchObject({ successful: false, type: 'ValidationError' });
  });

  it('a merged provisional account brings its game friends; unmerging copies them to the fresh provisional account', async () => {
    const platform = await startTestPlatform();
    const minted = await fetch(`${platform.url}/_emulator/external-tokens`, {
      method: 'POST',
      headers: { Authorization: `Admin ${platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'STEAM_SESSION_TICKET', external_user_id: 'steam-friends', display_name: 'Scout' }),
    });
    const ticket = ((await minted.json()) as { token: string }).token;
    const provisionalGame = newClient(platform);
    const provisional = await provisionalGame.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    const scout = await connected(platform, provisional.token?.accessToken ?? '');
    const bob = await game(platform, 'bob');
    const bobId = await idOf(platform, 'bob');
    const bobSaw = watch(bob);
    expect((await scout.sendGameFriendRequestById(bobId)).successful).toBe(true);
    await vi.waitFor(() => expect(bobSaw).toHaveLength(1));
    const scoutId = (bobSaw[0] ?? '').split(' ')[1] ?? '';
    expect((await bob.acceptGameFriendRequest(scoutId)).successful).toBe(true);

    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    const merged = await newClient(platform).getTokenFromProvisionalMerge(SEED_APP_ID, code, null, null, 'STEAM_SESSION_TICKET', ticket);
    expect(merged.result.successful).toBe(true);
    const alice = await connected(platform, merged.token?.accessToken ?? '');
    expect((await alice.getRelationships()).relationships.find((handle) => handle.id === bobId)?.gameRelationshipType).toBe(RelationshipType.Friend);

    expect((await alice.unmergeIntoProvisionalAccount(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket)).successful).toBe(true);
    const fresh = await newClient(platform).getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    const scoutAgain = await connected(platform, fresh.token?.accessToken ?? '');
    const copied = (await scoutAgain.getRelationships()).relationships.find((handle) => handle.id === bobId);
    expect(copied).toMatchObject({ gameRelationshipType: RelationshipType.Friend });
  });
});
