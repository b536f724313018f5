import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import { GameRelationshipEvent, RelationshipType, type GatewayPayload, type TokenResponse } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { storedState } from './support/stored-state.js';
import { authorizeCode, obtainTokens, postForm } from './support/oauth.js';

const APP = SEED.appId;
const { alice, bob } = SEED.users;

interface Listed {
  readonly id: string;
  readonly type: number;
  readonly game_relationship_type?: number;
  readonly user: { readonly username: string };
}

/** A game's Bearer token of the user for the app, with the Social SDK's scope. */
async function gameToken(platform: PlatformServer, username: string, appId: string = APP, scope = 'identify sdk.social_layer'): Promise<string> {
  return `Bearer ${(await obtainTokens(platform, platform.loginToken(username), { client_id: appId, scope })).access_token}`;
}

/** A second game (public client, so its tokens come from the RPC flow as the seeded app's). */
async function otherGame(platform: PlatformServer): Promise<string> {
  const app = platform.admin.createApp({ name: 'Other Game' });
  expect((await api(platform, 'PATCH', `/_emulator/apps/${app.id}`, { admin: true, body: { public_client: true } })).status).toBe(200);
  return app.id;
}

async function list(platform: PlatformServer, token: string): Promise<Listed[]> {
  const response = await api<Listed[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token });
  expect(response.status).toBe(200);
  return response.body;
}

async function entry(platform: PlatformServer, token: string, id: string): Promise<Listed | undefined> {
  return (await list(platform, token)).find((listed) => listed.id === id);
}

const gameRequest = (platform: PlatformServer, token: string, id: string) => api<{ code?: number }>(platform, 'PUT', `/api/v10/users/@me/game-relationships/${id}`, { token, body: {} });
const gameRemove = (platform: PlatformServer, token: string, id: string) => api(platform, 'DELETE', `/api/v10/users/@me/game-relationships/${id}`, { token });

function gameEvent(t: string, id: string, type: number) {
  return (payload: GatewayPayload): boolean => isDispatch(t)(payload) && (payload.d as { id: string; type: number }).id === id && (payload.d as { type: number }).type === type;
}

describe('game relationships (per application)', () => {
  it("a game request and its acceptance make game friends in that game only; only that game's sessions hear of it; the Discord type stays", async () => {
    const dataDir = await tempDir();
    const platform = await startTestPlatform({ dataDir });
    const appB = await otherGame(platform);
    const [aliceA, bobA, aliceB, bobB] = [await gameToken(platform, 'alice'), await gameToken(platform, 'bob'), await gameToken(platform, 'alice', appB), await gameToken(platform, 'bob', appB)];
    const { client: aliceGame } = await GatewayClient.ready(platform.gatewayUrl, aliceA);
    const { client: bobGame } = await GatewayClient.ready(platform.gatewayUrl, bobA);
    const { client: bobOtherGame } = await GatewayClient.ready(platform.gatewayUrl, bobB);
    const { client: bobHost } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));

    expect((await gameRequest(platform, aliceA, bob)).status).toBe(204);
    expect((await aliceGame.next(isDispatch(GameRelationshipEvent.Add))).d).toMatchObject({ id: bob, type: RelationshipType.OutgoingRequest, application_id: APP, user: { username: 'bob' } });
    expect((await bobGame.next(isDispatch(GameRelationshipEvent.Add))).d).toMatchObject({ id: alice, type: RelationshipType.IncomingRequest, application_id: APP });
    expect(await entry(platform, bobA, alice)).toMatchObject({ type: RelationshipType.Friend, game_relationship_type: RelationshipType.IncomingRequest });
    expect((await gameRequest(platform, bobA, alice)).status).toBe(204);
    await aliceGame.next(gameEvent(GameRelationshipEvent.Add, bob, RelationshipType.Friend));
    await bobGame.next(gameEvent(GameRelationshipEvent.Add, alice, RelationshipType.Friend));
    // The other game's session and the player's own (user token) session hear nothing of it.
    for (const client of [bobOtherGame, bobHost]) {
      await client.barrier();
      expect([...client.dispatches(GameRelationshipEvent.Add), ...client.dispatches(GameRelationshipEvent.Remove)]).toEqual([]);
    }
    expect(await entry(platform, aliceA, bob)).toMatchObject({ type: RelationshipType.Friend, game_relationship_type: RelationshipType.Friend });
    expect(await entry(platform, aliceB, bob)).toMatchObject({ type: RelationshipType.Friend, game_relationship_type: 0 });
    const hostView = await entry(platform, platform.loginToken('alice'), bob);
    expect(hostView).toMatchObject({ type: RelationshipType.Friend });
    expect(hostView?.game_relationship_type).toBeUndefined();

    // A game friend who is no friend on the platform is listed once, with type 0.
    const eve = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'eve' } })).body.id;
    const eveA = await gameToken(platform, 'eve');
    await gameRequest(platform, aliceA, eve);
    await gameRequest(platform, eveA, alice);
    expect((await list(platform, aliceA)).filter((listed) => listed.id === eve)).toEqual([expect.objectContaining({ type: 0, game_relationship_type: RelationshipType.Friend, user: expect.objectContaining({ username: 'eve' }) })]);
    expect((await list(platform, platform.loginToken('alice'))).some((listed) => listed.id === eve)).toBe(false);
    // Only a game's token with the write scope may: a user token is refused (401), a read-only one 403 50026.
    expect((await gameRequest(platform, platform.loginToken('alice'), eve)).status).toBe(401);
    const readOnly = await gameToken(platform, 'alice', APP, 'identify relationships.read');
    expect(await gameRequest(platform, readOnly, eve)).toMatchObject({ status: 403, body: { code: 50026 } });
    expect(await gameRequest(platform, aliceA, '999999999999')).toMatchObject({ status: 404, body: { code: 10013 } });
    expect(await gameRequest(platform, aliceA, alice)).toMatchObject({ status: 400, body: { code: 50035 } });
    for (const client of [aliceGame, bobGame, bobOtherGame, bobHost]) client.close();

    // Kept in the state database, and there after a restart.
    await stopTestPlatform(platform);
    const state = await storedState(dataDir);
    expect(state.game_friendships).toContainEqual([APP, ...[alice, bob].sort()]);
    const again = await startTestPlatform({ dataDir });
    expect(await entry(again, aliceA, bob)).toMatchObject({ game_relationship_type: RelationshipType.Friend });
  });

  it('reject, cancel and remove end it for both; a block ends game relationships in every game and refuses new ones; unblocking restores none', async () => {
    const platform = await startTestPlatform();
    const appB = await otherGame(platform);
    const [aliceA, bobA, aliceB, bobB] = [await gameToken(platform, 'alice'), await gameToken(platform, 'bob'), await gameToken(platform, 'alice', appB), await gameToken(platform, 'bob', appB)];
    const { client: aliceGame } = await GatewayClient.ready(platform.gatewayUrl, aliceA);
    const { client: aliceOtherGame } = await GatewayClient.ready(platform.gatewayUrl, aliceB);

    await gameRequest(platform, aliceA, bob);
    expect((await gameRemove(platform, bobA, alice)).status).toBe(204); // bob rejects
    await aliceGame.next(gameEvent(GameRelationshipEvent.Remove, bob, RelationshipType.OutgoingRequest));
    expect(await entry(platform, aliceA, bob)).toMatchObject({ game_relationship_type: 0 });
    await gameRequest(platform, aliceA, bob);
    expect((await gameRemove(platform, aliceA, bob)).status).toBe(204); // alice cancels
    expect(await entry(platform, bobA, alice)).toMatchObject({ game_relationship_type: 0 });
    await gameRequest(platform, aliceA, bob);
    await gameRequest(platform, bobA, alice);
    expect((await gameRemove(platform, aliceA, bob)).status).toBe(204); // alice removes her game friend
    await aliceGame.next(gameEvent(GameRelationshipEvent.Remove, bob, RelationshipType.Friend));
    expect(await entry(platform, bobA, alice)).toMatchObject({ type: RelationshipType.Friend, game_relationship_type: 0 });

    // Game friends in both games, then bob blocks alice (with his user token, or his game's: blocking is platform-wide).
    for (const [mine, theirs] of [
      [aliceA, bobA],
      [aliceB, bobB],
    ] as const) {
      await gameRequest(platform, mine, bob);
      await gameRequest(platform, theirs, alice);
    }
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${alice}`, { token: bobA, body: { type: 2 } })).status).toBe(204);
    await aliceGame.next(gameEvent(GameRelationshipEvent.Remove, bob, RelationshipType.Friend));
    await aliceOtherGame.next(gameEvent(GameRelationshipEvent.Remove, bob, RelationshipType.Friend));
    expect(await entry(platform, bobA, alice)).toMatchObject({ type: RelationshipType.Blocked, game_relationship_type: 0 });
    expect(await entry(platform, aliceB, bob)).toBeUndefined();
    expect(await gameRequest(platform, aliceA, bob)).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await gameRequest(platform, bobB, alice)).toMatchObject({ status: 403, body: { code: 50001 } });
    // Unblocking restores nothing.
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${alice}`, { token: bobA })).status).toBe(204);
    expect(await entry(platform, bobA, alice)).toBeUndefined();
    expect(await entry(platform, bobB, alice)).toBeUndefined();
    aliceGame.close();
    aliceOtherGame.close();
  });

  it('requests by username: POST /users/@me/relationships (platform-wide) and POST /users/@me/game-relationships; an unknown name is 400 80004', async () => {
    const platform = await startTestPlatform();
    const eve = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'eve' } })).body.id;
    const aliceUser = platform.loginToken('alice');
    expect((await api(platform, 'POST', '/api/v10/users/@me/relationships', { token: aliceUser, body: { username: 'Eve', discriminator: null } })).status).toBe(204);
    expect(await entry(platform, platform.loginToken('eve'), alice)).toMatchObject({ type: RelationshipType.IncomingRequest });
    expect(await api(platform, 'POST', '/api/v10/users/@me/relationships', { token: aliceUser, body: { username: 'nobody_here' } })).toMatchObject({ status: 400, body: { code: 80004 } });
    expect(await api(platform, 'POST', '/api/v10/users/@me/relationships', { token: aliceUser, body: { username: 'alice' } })).toMatchObject({ status: 400, body: { code: 80003, message: 'Cannot send friend request to self' } });
    expect(await api(platform, 'POST', '/api/v10/users/@me/relationships', { token: aliceUser, body: {} })).toMatchObject({ status: 400, body: { code: 50035 } });

    const aliceA = await gameToken(platform, 'alice');
    expect((await api(platform, 'POST', '/api/v10/users/@me/game-relationships', { token: aliceA, body: { username: 'eve' } })).status).toBe(204);
    expect(await entry(platform, aliceA, eve)).toMatchObject({ type: RelationshipType.OutgoingRequest, game_relationship_type: RelationshipType.OutgoingRequest });
    expect(await api(platform, 'POST', '/api/v10/users/@me/game-relationships', { token: aliceA, body: { username: 'nobody_here' } })).toMatchObject({ status: 400, body: { code: 80004 } });
    expect((await api(platform, 'POST', '/api/v10/users/@me/game-relationships', { token: aliceUser, body: { username: 'eve' } })).status).toBe(401);
  });

  it('merging a provisional account moves its game friends; unmerging copies them all to the fresh provisional account', async () => {
    const platform = await startTestPlatform();
    const minted = await api<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { admin: true, body: { type: 'STEAM_SESSION_TICKET', external_user_id: 'steam-game-friends' } });
    const ticket = minted.body.token;
    const exchange = () => api<TokenResponse>(platform, 'POST', '/api/v10/partner-sdk/token', { body: { client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket } });
    const provisional = `Bearer ${(await exchange()).body.access_token}`;
    const provisionalId = (await api<{ id: string }>(platform, 'GET', '/api/v10/users/@me', { token: provisional })).body.id;
    const eve = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'eve' } })).body.id;
    const [bobA, eveA] = [await gameToken(platform, 'bob'), await gameToken(platform, 'eve')];
    await gameRequest(platform, provisional, bob);
    await gameRequest(platform, bobA, provisionalId);
    await gameRequest(platform, eveA, provisionalId); // pending: moves too

    const code = await authorizeCode(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' });
    const linked = await postForm<TokenResponse>(platform, '/api/v10/oauth2/token', { grant_type: 'authorization_code', code, client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket });
    expect(linked.status).toBe(200);
    const aliceA = `Bearer ${linked.body.access_token}`;
    expect(await entry(platform, aliceA, bob)).toMatchObject({ game_relationship_type: RelationshipType.Friend });
    expect(await entry(platform, aliceA, eve)).toMatchObject({ type: 0, game_relationship_type: RelationshipType.IncomingRequest });
    expect(await entry(platform, bobA, provisionalId)).toBeUndefined();

    const unmerged = await api(platform, 'POST', '/api/v10/partner-sdk/provisional-accounts/unmerge', { body: { client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: ticket } });
    expect(unmerged.status).toBe(204);
    const fresh = `Bearer ${(await exchange()).body.access_token}`;
    const freshId = (await api<{ id: string }>(platform, 'GET', '/api/v10/users/@me', { token: fresh })).body.id;
    expect(freshId).not.toBe(provisionalId);
    expect(await entry(platform, fresh, bob)).toMatchObject({ game_relationship_type: RelationshipType.Friend });
    // Copied: bob has both as game friends; a pending request is not a friend and stays with alice.
    expect(await entry(platform, bobA, freshId)).toMatchObject({ game_relationship_type: RelationshipType.Friend });
    expect(await entry(platform, bobA, alice)).toMatchObject({ game_relationship_type: RelationshipType.Friend });
    expect(await entry(platform, fresh, eve)).toBeUndefined();
  });

  it('relationship changes are rate limited per user: 429 with retry_after', async () => {
    const platform = await startTestPlatform({ limits: { http: { relationshipChange: { count: 2, windowMs: 60_000 } } } });
    const alice = platform.loginToken('alice');
    for (const name of ['bob', 'carol']) expect((await api(platform, 'POST', '/api/v10/users/@me/relationships', { token: alice, body: { username: name } })).status).toBeLessThan(429);
    const limited = await api<{ retry_after: number }>(platform, 'POST', '/api/v10/users/@me/relationships', { token: alice, body: { username: 'nobody-at-all' } });
    expect(limited.status).toBe(429);
    expect(limited.body.retry_after).toBeGreaterThan(0);
  });
});
