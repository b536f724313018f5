import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import { GameRelationshipEvent, GatewayEvent, LobbyEvent, RelationshipType, type GatewayPayload, type TokenResponse } from '../src/wire/index.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { authorizeCode, obtainTokens, postForm } from './support/oauth.js';

const APP = SEED.appId;
const { alice, bob, dave } = SEED.users;

interface Listed {
  readonly id: string;
  readonly type: number;
  readonly game_relationship_type?: number;
}

/** A game's Bearer token of a seeded user for the seeded app, with the Social SDK's scope. */
async function gameToken(platform: PlatformServer, username: string): Promise<string> {
  return `Bearer ${(await obtainTokens(platform, platform.loginToken(username), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
}

async function steamTicket(platform: PlatformServer, externalUserId: string): Promise<string> {
  const minted = await api<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { admin: true, body: { type: 'STEAM_SESSION_TICKET', external_user_id: externalUserId } });
  expect(minted.status).toBe(201);
  return minted.body.token;
}

/** The provisional account's game token and id, for a Steam identity. */
async function provisional(platform: PlatformServer, ticket: string): Promise<{ token: string; id: string }> {
  const exchanged = await api<TokenResponse>(platform, 'POST', '/api/v10/partner-sdk/token', { body: { client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket } });
  expect(exchanged.status).toBe(200);
  const token = `Bearer ${exchanged.body.access_token}`;
  const me = await api<{ id: string }>(platform, 'GET', '/api/v10/users/@me', { token });
  return { token, id: me.body.id };
}

/** The user links: the code redeemed with the Steam identity merges its provisional account. */
async function link(platform: PlatformServer, username: string, ticket: string): Promise<void> {
  const code = await authorizeCode(platform, platform.loginToken(username), { client_id: APP, scope: 'identify sdk.social_layer' });
  const merged = await postForm(platform, '/api/v10/oauth2/token', { grant_type: 'authorization_code', code, client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket });
  expect(merged.status).toBe(200);
}

async function list(platform: PlatformServer, token: string): Promise<Listed[]> {
  const response = await api<Listed[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** The dispatches of one type a client got, as `{id, type}` (or the lobby member's id). */
function seen(client: GatewayClient, t: string): { id: string; type?: number }[] {
  return client.dispatches(t).map((message: GatewayPayload) => {
    const d = message.d as { id?: string; type?: number; member?: { id: string } };
    return { id: d.id ?? d.member?.id ?? '', ...(d.type !== undefined ? { type: d.type } : {}) };
  });
}

describe('issue 25 §1.6: merges and bans tell the others', () => {
  it("a merge leaves one relationship per user (the stronger) and tells the other player's game once: REMOVE for the provisional id, ADD for the full account", async () => {
    const platform = await startTestPlatform();
    const ticket = await steamTicket(platform, 'steam-merge');
    const guest = await provisional(platform, ticket);
    // The guest is dave's friend (an unmerge gave it him) and his game friend; alice, no longer his friend, asked him again.
    expect((await api(platform, 'POST', '/_emulator/friends', { admin: true, body: { a: guest.id, b: dave } })).status).toBeLessThan(300);
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${dave}`, { token: platform.loginToken('alice') })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${dave}`, { token: platform.loginToken('alice'), body: {} })).status).toBe(204);
    const daveGame = await gameToken(platform, 'dave');
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${dave}`, { token: guest.token, body: {} })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${guest.id}`, { token: daveGame, body: {} })).status).toBe(204);
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { token: guest.token, body: { secret: 'merge-squad' } })).status).toBe(200);
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { token: daveGame, body: { secret: 'merge-squad' } })).status).toBe(200);
    const { client: daveSession } = await GatewayClient.ready(platform.gatewayUrl, daveGame);
    const { client: aliceDesktop } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));

    await link(platform, 'alice', ticket);
    await daveSession.barrier();
    await aliceDesktop.barrier();

    // Each user once, as platform/README says: friend beats the pending request.
    const alicesView = (await list(platform, await gameToken(platform, 'alice'))).filter((entry) => entry.id === dave);
    expect(alicesView).toEqual([expect.objectContaining({ id: dave, type: RelationshipType.Friend, game_relationship_type: RelationshipType.Friend })]);
    const davesView = await list(platform, daveGame);
    expect(davesView.filter((entry) => entry.id === alice)).toEqual([expect.objectContaining({ type: RelationshipType.Friend, game_relationship_type: RelationshipType.Friend })]);
    expect(davesView.some((entry) => entry.id === guest.id)).toBe(false);
    // Dave's game learns it as the platform says it, once each.
    expect(seen(daveSession, GatewayEvent.RelationshipRemove)).toEqual([{ id: guest.id, type: RelationshipType.Friend }]);
    expect(seen(daveSession, GatewayEvent.RelationshipAdd)).toEqual([{ id: alice, type: RelationshipType.Friend }]);
    expect(seen(daveSession, GameRelationshipEvent.Remove)).toEqual([{ id: guest.id, type: RelationshipType.Friend }]);
    expect(seen(daveSession, GameRelationshipEvent.Add)).toEqual([{ id: alice, type: RelationshipType.Friend }]);
    // A new friend's presence follows, as after an accepted request.
    expect(daveSession.dispatches(GatewayEvent.PresenceUpdate).map((message) => (message.d as { user: { id: string } }).user.id)).toContain(alice);
    expect(seen(daveSession, LobbyEvent.MemberRemove)).toEqual([{ id: guest.id }]);
    expect(seen(daveSession, LobbyEvent.MemberAdd)).toEqual([{ id: alice }]);
    // Alice's own session too: her request to dave became a friendship.
    expect(seen(aliceDesktop, GatewayEvent.RelationshipAdd)).toEqual([{ id: dave, type: RelationshipType.Friend }]);
  });

  it('a block beats everything: the merged friendship with someone the full account blocked goes, and they are told', async () => {
    const platform = await startTestPlatform();
    const ticket = await steamTicket(platform, 'steam-block');
    const guest = await provisional(platform, ticket);
    expect((await api(platform, 'POST', '/_emulator/friends', { admin: true, body: { a: guest.id, b: dave } })).status).toBeLessThan(300);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${dave}`, { token: platform.loginToken('alice'), body: { type: RelationshipType.Blocked } })).status).toBe(204);
    // Carol, alice's friend, had blocked the guest: the block moves to alice and ends that friendship.
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${guest.id}`, { token: platform.loginToken('carol'), body: { type: RelationshipType.Blocked } })).status).toBe(204);
    const { client: daveSession } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('dave'));
    const { client: carolSession } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('carol'));

    await link(platform, 'alice', ticket);
    await daveSession.barrier();
    await carolSession.barrier();
    expect(seen(carolSession, GatewayEvent.RelationshipRemove)).toEqual([{ id: guest.id, type: RelationshipType.Blocked }]);
    expect(seen(carolSession, GatewayEvent.RelationshipAdd)).toEqual([{ id: SEED.users.alice, type: RelationshipType.Blocked }]);
    expect((await list(platform, platform.loginToken('carol'))).filter((entry) => entry.id === SEED.users.alice)).toEqual([expect.objectContaining({ type: RelationshipType.Blocked })]);

    expect((await list(platform, platform.loginToken('alice'))).filter((entry) => entry.id === dave)).toEqual([expect.objectContaining({ type: RelationshipType.Blocked })]);
    expect((await list(platform, platform.loginToken('dave'))).some((entry) => entry.id === alice || entry.id === guest.id)).toBe(false);
    expect(seen(daveSession, GatewayEvent.RelationshipRemove)).toEqual([{ id: guest.id, type: RelationshipType.Friend }]);
    expect(seen(daveSession, GatewayEvent.RelationshipAdd)).toEqual([]);
  });

  it("a ban tells the other players' games: the restricted account arrives as the friend and game friend it carries over, and takes the lobby seat", async () => {
    const platform = await startTestPlatform();
    const ticket = await steamTicket(platform, 'steam-ban');
    await provisional(platform, ticket);
    await link(platform, 'alice', ticket);
    const aliceGame = await gameToken(platform, 'alice');
    const bobGame = await gameToken(platform, 'bob');
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${bob}`, { token: aliceGame, body: {} })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${alice}`, { token: bobGame, body: {} })).status).toBe(204);
    const lobby = await api<{ id: string }>(platform, 'PUT', '/api/v10/lobbies', { token: aliceGame, body: { secret: 'ban-squad' } });
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { token: bobGame, body: { secret: 'ban-squad' } })).status).toBe(200);
    const { client: bobSession } = await GatewayClient.ready(platform.gatewayUrl, bobGame);

    const banned = await api<{ restricted: { user_id: string }[] }>(platform, 'POST', `/_emulator/users/${alice}/ban`, { admin: true, body: {} });
    expect(banned.status).toBe(200);
    const restricted = banned.body.restricted[0]?.user_id ?? '';
    await bobSession.barrier();

    // As the public docs' unmerge says: Discord friends who use the app and every game friend are carried over, and told.
    expect(seen(bobSession, GatewayEvent.RelationshipAdd)).toEqual([{ id: restricted, type: RelationshipType.Friend }]);
    expect(seen(bobSession, GameRelationshipEvent.Add)).toEqual([{ id: restricted, type: RelationshipType.Friend }]);
    expect(seen(bobSession, LobbyEvent.MemberRemove)).toEqual([{ id: alice }]);
    expect(seen(bobSession, LobbyEvent.MemberAdd)).toEqual([{ id: restricted }]);
    const bobsView = await list(platform, bobGame);
    expect(bobsView.filter((entry) => entry.id === restricted)).toEqual([expect.objectContaining({ type: RelationshipType.Friend, game_relationship_type: RelationshipType.Friend })]);
    const members = await api<{ members: { id: string }[] }>(platform, 'GET', `/api/v10/lobbies/${lobby.body.id}`, { token: bobGame });
    expect(members.body.members.map((member) => member.id).sort()).toEqual([bob, restricted].sort());
  });
});

describe('issue 25 §1.7: provisional accounts are game-only', () => {
  it('a provisional account sends and gets no platform-wide friend request (400 50229); game friend requests work', async () => {
    const platform = await startTestPlatform();
    const guest = await provisional(platform, await steamTicket(platform, 'steam-guest'));
    const byName = await api<{ code?: number }>(platform, 'POST', '/api/v10/users/@me/relationships', { token: guest.token, body: { username: 'dave' } });
    expect(byName).toMatchObject({ status: 400, body: { code: 50229 } });
    const byId = await api<{ code?: number }>(platform, 'PUT', `/api/v10/users/@me/relationships/${dave}`, { token: guest.token, body: {} });
    expect(byId).toMatchObject({ status: 400, body: { code: 50229 } });
    // Nor can a full account ask a provisional one to be a platform-wide friend.
    const toGuest = await api<{ code?: number }>(platform, 'PUT', `/api/v10/users/@me/relationships/${guest.id}`, { token: platform.loginToken('dave'), body: {} });
    expect(toGuest).toMatchObject({ status: 400, body: { code: 50229 } });
    expect((await list(platform, platform.loginToken('dave'))).some((entry) => entry.id === guest.id)).toBe(false);
    // The game friend request is the way.
    expect((await api(platform, 'POST', '/api/v10/users/@me/game-relationships', { token: guest.token, body: { username: 'dave' } })).status).toBe(204);
    expect((await list(platform, guest.token)).find((entry) => entry.id === dave)).toMatchObject({ type: 0, game_relationship_type: RelationshipType.OutgoingRequest });
    // Blocking stays possible (it is platform-wide).
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${dave}`, { token: guest.token, body: { type: RelationshipType.Blocked } })).status).toBe(204);
  });
});
