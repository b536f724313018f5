import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { LobbyEvent, type Lobby, type LobbyMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';

const APP = SEED.appId;

/** The seeded game's Bearer token for a user, with the Social SDK's scope. */
async function socialToken(platform: Awaited<ReturnType<typeof startTestPlatform>>, user: 'alice' | 'bob'): Promise<string> {
  return (await obtainTokens(platform, platform.loginToken(user), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token;
}

describe('lobbies over HTTP', () => {
  it('two games with the same secret share a lobby: members are told over the gateway, messages go both ways', async () => {
    // 200 messages from one player: the message limit raised for this test.
    const platform = await startTestPlatform({ limits: { http: { lobbyMessage: { count: 1000, windowMs: 1000 } } } });
    const [alice, bob] = [await socialToken(platform, 'alice'), await socialToken(platform, 'bob')];
    const aliceGateway = (await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'))).client;
    const put = (token: string, body: unknown) => api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${token}`, body });
    const created = await put(alice, { secret: 'squad-7', lobby_metadata: { map: 'harbour' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ application_id: APP, metadata: { map: 'harbour' }, members: [{ id: SEED.users.alice, connected: true }] });
    const joined = await put(bob, { secret: 'squad-7', member_metadata: { role: 'healer' } });
    expect(joined.body.id).toBe(created.body.id);
    const added = await aliceGateway.next(isDispatch(LobbyEvent.MemberAdd));
    expect(added.d).toMatchObject({ lobby_id: created.body.id, member: { id: SEED.users.bob, metadata: { role: 'healer' } } });

    const sent = await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${created.body.id}/messages`, { token: `Bearer ${bob}`, body: { content: 'gg' } });
    expect(sent.status).toBe(200);
    expect((await aliceGateway.next(isDispatch(LobbyEvent.MessageCreate))).d).toMatchObject({ content: 'gg', author: { id: SEED.users.bob }, lobby_id: created.body.id });
    for (let i = 0; i < 200; i++) await api(platform, 'POST', `/api/v10/lobbies/${created.body.id}/messages`, { token: `Bearer ${alice}`, body: { content: `m${i}` } });
    const read = await api<LobbyMessage[]>(platform, 'GET', `/api/v10/lobbies/${created.body.id}/messages?limit=200`, { token: `Bearer ${bob}` });
    expect(read.body).toHaveLength(200);
    expect(read.body[0]?.content).toBe('m199');

    expect((await api(platform, 'DELETE', `/api/v10/lobbies/${created.body.id}/members/@me`, { token: `Bearer ${bob}` })).status).toBe(204);
    expect((await aliceGateway.next(isDispatch(LobbyEvent.MemberRemove))).d).toMatchObject({ member: { id: SEED.users.bob } });
    aliceGateway.close();
  });

  it('refusals: metadata over 1,000 characters, a non-member, an unknown lobby, a token without the scope, no token', async () => {
    const platform = await startTestPlatform();
    const alice = await socialToken(platform, 'alice');
    const bob = await socialToken(platform, 'bob');
    const tooLong = await api(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${alice}`, body: { secret: 's', lobby_metadata: { k: 'x'.repeat(1000) } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 50035, errors: { lobby_metadata: { _errors: [{ message: expect.stringContaining('at most 1000') }] } } });
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${alice}`, body: { secret: 'private' } })).body;
    expect(await api(platform, 'GET', `/api/v10/lobbies/${lobby.id}`, { token: `Bearer ${bob}` })).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await api(platform, 'GET', '/api/v10/lobbies/424242', { token: `Bearer ${alice}` })).toMatchObject({ status: 404, body: { code: 10031, message: 'Unknown Lobby' } });
    const identifyOnly = (await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' })).access_token;
    expect(await api(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${identifyOnly}`, body: { secret: 'x' } })).toMatchObject({ status: 403, body: { code: 50026 } });
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { body: { secret: 'x' } })).status).toBe(401);
    // A user token is not the game's: lobbies are the SDK's (Bearer) and the server's (Bot).
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { token: platform.loginToken('alice'), body: { secret: 'x' } })).status).toBe(401);
  });

  it("the server API with the app's bot token: create with members, a bulk of 26 refused, 25 taken, delete; another app's token sees nothing", async () => {
    const platform = await startTestPlatform();
    const bot = `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
    const created = await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: bot, body: { metadata: { mode: 'ranked' }, members: [{ id: SEED.users.alice }, { id: SEED.users.bob, flags: 1 }], idle_timeout_seconds: 60 } });
    expect(created.status).toBe(200);
    expect(created.body.members.map((m) => [m.id, m.flags])).toEqual([
      [SEED.users.alice, 0],
      [SEED.users.bob, 1],
    ]);
    const id = created.body.id;
    const users = await Promise.all(Array.from({ length: 26 }, async (_, i) => (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { token: `Admin ${platform.adminToken}`, body: { username: `player${i}` } })).body.id));
    const bulk = await api(platform, 'POST', `/api/v10/lobbies/${id}/members/bulk`, { token: bot, body: users.map((user) => ({ id: user })) });
    expect(bulk.status).toBe(400);
    expect(JSON.stringify(bulk.body)).toContain('at most 25 per request');
    const taken = await api<unknown[]>(platform, 'POST', `/api/v10/lobbies/${id}/members/bulk`, { token: bot, body: users.slice(0, 25).map((user) => ({ id: user })) });
    expect(taken.body).toHaveLength(25);
    expect((await api<Lobby>(platform, 'GET', `/api/v10/lobbies/${id}`, { token: bot })).body.members).toHaveLength(27);
    expect(await api(platform, 'PUT', `/api/v10/lobbies/${id}/members/999999999999`, { token: bot, body: {} })).toMatchObject({ status: 404, body: { code: 10013 } });
    expect((await api(platform, 'POST', '/api/v10/lobbies', { token: 'Bot wrong', body: {} })).status).toBe(401);
    expect((await api(platform, 'DELETE', `/api/v10/lobbies/${id}`, { token: bot })).status).toBe(204);
    expect((await api(platform, 'DELETE', `/api/v10/lobbies/${id}`, { token: bot })).status).toBe(204);
    expect((await api(platform, 'GET', `/api/v10/lobbies/${id}`, { token: bot })).status).toBe(404);
  });

  it('a player sending too fast gets 429 with retry_after (10 messages per 5 s by default)', async () => {
    const platform = await startTestPlatform();
    const alice = await socialToken(platform, 'alice');
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${alice}`, body: { secret: 'chatty' } })).body;
    const statuses: number[] = [];
    let limited: { retry_after?: number } | undefined;
    for (let i = 0; i < 11; i++) {
      const response = await api<{ retry_after?: number }>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token: `Bearer ${alice}`, body: { content: `m${i}` } });
      statuses.push(response.status);
      if (response.status === 429) limited = response.body;
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(limited?.retry_after).toBeGreaterThan(0);
  });

  it("a member whose gateway session ends is told to the others as away (LOBBY_MEMBER_UPDATE, connected false)", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await socialToken(platform, 'alice'), await socialToken(platform, 'bob')];
    const { client: aliceGateway } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const { client: bobGateway } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${alice}`, body: { secret: 'away' } })).body;
    await api(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${bob}`, body: { secret: 'away' } });
    // A close with 1000 ends the session at once (not resumable).
    bobGateway.close(1000);
    const update = await aliceGateway.next(isDispatch(LobbyEvent.MemberUpdate));
    expect(update.d).toMatchObject({ lobby_id: lobby.id, member: { id: SEED.users.bob, connected: false } });
    aliceGateway.close();
  });

  it('a member with two gateway sessions is told as away once, when the last one ends (not once per session)', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await socialToken(platform, 'alice'), await socialToken(platform, 'bob')];
    const { client: aliceGateway } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    // bob's desktop session and his game's session, as when Companion and a game both run.
    const { client: bobDesktop } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: bobGame } = await GatewayClient.ready(platform.gatewayUrl, bob);
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${alice}`, body: { secret: 'twice' } })).body;
    await api(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${bob}`, body: { secret: 'twice' } });
    bobGame.close(1000);
    bobDesktop.close(1000);
    const update = await aliceGateway.next(isDispatch(LobbyEvent.MemberUpdate));
    expect(update.d).toMatchObject({ lobby_id: lobby.id, member: { id: SEED.users.bob, connected: false } });
    // A message after both ends: every update about them has reached alice before it.
    await api(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token: `Bearer ${alice}`, body: { content: 'still here' } });
    await aliceGateway.next(isDispatch(LobbyEvent.MessageCreate));
    expect(aliceGateway.dispatches(LobbyEvent.MemberUpdate)).toHaveLength(1);
    aliceGateway.close();
  });
  it("a game session's READY lists the lobbies of its application the player is in (ours); a user-token session's has none", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await socialToken(platform, 'alice'), await socialToken(platform, 'bob')];
    const put = (token: string, secret: string) => api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${token}`, body: { secret } });
    const shared = (await put(alice, 'shared')).body;
    await put(bob, 'shared');
    const bobsOwn = (await put(bob, 'bob-only')).body;
    const { ready } = await GatewayClient.ready(platform.gatewayUrl, bob);
    const lobbies = ready.lobbies ?? [];
    expect(lobbies.map((lobby) => lobby.id).sort()).toEqual([shared.id, bobsOwn.id].sort());
    expect(lobbies.find((lobby) => lobby.id === shared.id)?.members.map((member) => member.id)).toEqual([SEED.users.alice, SEED.users.bob]);
    const desktop = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    expect(desktop.ready.lobbies).toBeUndefined();
    // A token without lobbies.write is told of none.
    const narrow = (await obtainTokens(platform, platform.loginToken('bob'), { client_id: APP, scope: 'identify gateway.connect' })).access_token;
    expect((await GatewayClient.ready(platform.gatewayUrl, narrow)).ready.lobbies).toBeUndefined();
  });
});
