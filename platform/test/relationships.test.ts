import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { GatewayEvent, RelationshipType } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';

describe('friend requests and blocks', () => {
  it('a request is outgoing for one and incoming for the other; the other asking back makes friends; removing cancels, rejects or unfriends', async () => {
    const platform = await startTestPlatform();
    const admin = { admin: true };
    const eve = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { ...admin, body: { username: 'eve' } })).body.id;
    const eveToken = platform.loginToken('eve');
    const alice = platform.loginToken('alice');
    const { client: eveGateway } = await GatewayClient.ready(platform.gatewayUrl, eveToken);
    const { client: aliceGateway } = await GatewayClient.ready(platform.gatewayUrl, alice);

    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${eve}`, { token: alice, body: {} })).status).toBe(204);
    expect((await aliceGateway.next(isDispatch(GatewayEvent.RelationshipAdd))).d).toMatchObject({ id: eve, type: RelationshipType.OutgoingRequest });
    expect((await eveGateway.next(isDispatch(GatewayEvent.RelationshipAdd))).d).toMatchObject({ id: SEED.users.alice, type: RelationshipType.IncomingRequest });
    const listed = await api<{ id: string; type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: eveToken });
    expect(listed.body).toEqual([expect.objectContaining({ id: SEED.users.alice, type: RelationshipType.IncomingRequest })]);

    // eve asks back: friends, both told as friends (the admin's path).
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: eveToken, body: {} })).status).toBe(204);
    await aliceGateway.next((p) => isDispatch(GatewayEvent.RelationshipAdd)(p) && (p.d as { type: number }).type === RelationshipType.Friend);
    expect((await api<{ type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: eveToken })).body.map((r) => r.type)).toEqual([RelationshipType.Friend]);

    // Unfriending removes the friendship for both.
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: eveToken })).status).toBe(204);
    expect((await api<unknown[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: eveToken })).body).toEqual([]);
    // A request rejected by the recipient goes for both.
    await api(platform, 'PUT', `/api/v10/users/@me/relationships/${eve}`, { token: alice, body: {} });
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: eveToken })).status).toBe(204);
    expect((await api<{ id: string; type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: alice })).body.filter((r) => r.id === eve)).toEqual([]);
    eveGateway.close();
    aliceGateway.close();
  });

  it('a block ends a friendship and stops requests both ways, until unblocked; a game token needs relationships.write', async () => {
    const platform = await startTestPlatform();
    const alice = platform.loginToken('alice');
    const bob = platform.loginToken('bob');
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.bob}`, { token: alice, body: { type: 2 } })).status).toBe(204);
    const aliceSees = await api<{ id: string; type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: alice });
    expect(aliceSees.body.find((r) => r.id === SEED.users.bob)?.type).toBe(RelationshipType.Blocked);
    const bobSees = await api<{ id: string }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: bob });
    expect(bobSees.body.some((r) => r.id === SEED.users.alice)).toBe(false);
    expect(await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: bob, body: {} })).toMatchObject({ status: 403, body: { code: 50001 } });
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${SEED.users.bob}`, { token: alice })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: bob, body: {} })).status).toBe(204);
    expect(await api(platform, 'PUT', `/api/v10/users/@me/relationships/999999999999`, { token: alice, body: {} })).toMatchObject({ status: 404, body: { code: 10013 } });

    const readOnly = (await obtainTokens(platform, alice, { client_id: SEED.appId, scope: 'identify relationships.read' })).access_token;
    expect(await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.carol}`, { token: `Bearer ${readOnly}`, body: {} })).toMatchObject({ status: 403, body: { code: 50026 } });
    const social = (await obtainTokens(platform, alice, { client_id: SEED.appId, scope: 'identify sdk.social_layer' })).access_token;
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${SEED.users.carol}`, { token: `Bearer ${social}` })).status).toBe(204);
  });
});
