import { describe, expect, it, vi } from 'vitest';
import type { Client } from '../../client/index.js';
import { RelationshipType } from '../../client/index.js';
import { admin, rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { connected, game, newClient } from './support/sdk-games.js';

async function idOf(platform: TestPlatform, username: string): Promise<string> {
  const response = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: platform.loginToken(username) } });
  return ((await response.json()) as { id: string }).id;
}

/** A guest: a provisional account of a Steam identity, its game ready, and its id. */
async function guest(platform: TestPlatform, steamId: string): Promise<{ ticket: string; game: Client; id: string }> {
  const { token: ticket } = await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: steamId, display_name: 'Scout' });
  const provisional = await newClient(platform).getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
  const accessToken = provisional.token?.accessToken ?? '';
  const client = await connected(platform, accessToken);
  const me = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  return { ticket, game: client, id: ((await me.json()) as { id: string }).id };
}

/** Records the Social SDK callbacks as `created <id> <isDiscord>` / `deleted <id> <isDiscord>`. */
function watch(client: Client): string[] {
  const seen: string[] = [];
  client.setRelationshipCreatedCallback((userId, isDiscord) => seen.push(`created ${userId} ${isDiscord}`));
  client.setRelationshipDeletedCallback((userId, isDiscord) => seen.push(`deleted ${userId} ${isDiscord}`));
  return seen;
}

const types = (client: Client, userId: string): [number, number] => {
  const handle = client.getRelationshipHandle(userId);
  return [handle.discordRelationshipType, handle.gameRelationshipType];
};

describe('issue 25 §1.6: merges and bans tell the others (companion/client)', () => {
  it("alice's handle of the guest stops saying game friend when the guest links: the guest goes, dave arrives, without listing", async () => {
    const platform = await startTestPlatform();
    const scout = await guest(platform, 'steam-links');
    const alice = await game(platform, 'alice');
    const [aliceId, daveId] = [await idOf(platform, 'alice'), await idOf(platform, 'dave')];
    expect((await scout.game.sendGameFriendRequestById(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(types(alice, scout.id)).toEqual([RelationshipType.None, RelationshipType.PendingIncoming]));
    expect((await alice.acceptGameFriendRequest(scout.id)).successful).toBe(true);
    await vi.waitFor(() => expect(types(alice, scout.id)).toEqual([RelationshipType.None, RelationshipType.Friend]));
    const aliceSaw = watch(alice);

    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'dave');
    expect((await newClient(platform).getTokenFromProvisionalMerge(SEED_APP_ID, code, null, null, 'STEAM_SESSION_TICKET', scout.ticket)).result.successful).toBe(true);

    await vi.waitFor(() => expect(types(alice, daveId)).toEqual([RelationshipType.Friend, RelationshipType.Friend]));
    expect(types(alice, scout.id)).toEqual([RelationshipType.None, RelationshipType.None]);
    expect(aliceSaw).toEqual([`deleted ${scout.id} false`, `created ${daveId} false`]);
  });

  it("a ban: the other player's game learns of the restricted account it is now friends with, once each", async () => {
    const platform = await startTestPlatform();
    const scout = await guest(platform, 'steam-banned');
    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'dave');
    const merged = await newClient(platform).getTokenFromProvisionalMerge(SEED_APP_ID, code, null, null, 'STEAM_SESSION_TICKET', scout.ticket);
    const dave = await connected(platform, merged.token?.accessToken ?? '');
    const alice = await game(platform, 'alice');
    const [aliceId, daveId] = [await idOf(platform, 'alice'), await idOf(platform, 'dave')];
    expect((await dave.sendGameFriendRequestById(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(types(alice, daveId)[1]).toBe(RelationshipType.PendingIncoming));
    expect((await alice.acceptGameFriendRequest(daveId)).successful).toBe(true);
    const aliceSaw = watch(alice);

    const banned = await admin<{ restricted: { user_id: string }[] }>(platform, 'POST', `/_emulator/users/${daveId}/ban`, {});
    const restricted = banned.restricted[0]?.user_id ?? '';

    // As the public docs' unmerge says: the Discord friends who play and the game friends are carried over.
    await vi.waitFor(() => expect(types(alice, restricted)).toEqual([RelationshipType.Friend, RelationshipType.Friend]));
    expect(aliceSaw.sort()).toEqual([`created ${restricted} false`, `created ${restricted} true`]);
  });
});

describe('issue 25 §1.7: provisional accounts are game-only (companion/client)', () => {
  it('sendDiscordFriendRequest from a provisional account fails with 50229 and changes nothing; sendGameFriendRequest works', async () => {
    const platform = await startTestPlatform();
    const scout = await guest(platform, 'steam-only-games');
    const alice = await game(platform, 'alice');
    const aliceId = await idOf(platform, 'alice');
    const aliceSaw = watch(alice);

    expect(await scout.game.sendDiscordFriendRequest('alice')).toMatchObject({ successful: false, errorCode: 50229 });
    expect(await scout.game.sendDiscordFriendRequestById(aliceId)).toMatchObject({ successful: false, errorCode: 50229 });
    // Nor the other way round: a full account adds a provisional one as a game friend.
    expect(await alice.sendDiscordFriendRequestById(scout.id)).toMatchObject({ successful: false, errorCode: 50229 });
    expect((await alice.getRelationships()).relationships.some((handle) => handle.id === scout.id)).toBe(false);

    expect((await scout.game.sendGameFriendRequest('alice')).successful).toBe(true);
    await vi.waitFor(() => expect(aliceSaw).toEqual([`created ${scout.id} false`]));
    expect(types(alice, scout.id)).toEqual([RelationshipType.None, RelationshipType.PendingIncoming]);
  });
});
