import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { RelationshipType } from '../src/wire/index.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';

describe("READY's relationships", () => {
  it('carries every type as the user sees it (friends, blocked, requests both ways), like GET /users/@me/relationships', async () => {
    const platform = await startTestPlatform();
    const admin = { admin: true };
    const eve = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { ...admin, body: { username: 'eve' } })).body.id;
    const mallory = (await api<{ id: string }>(platform, 'POST', '/_emulator/users', { ...admin, body: { username: 'mallory' } })).body.id;
    const alice = platform.loginToken('alice');
    // alice asks eve, mallory asks alice, alice blocks dave (a friend until then).
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${eve}`, { token: alice, body: {} })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.alice}`, { token: platform.loginToken('mallory'), body: {} })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${SEED.users.dave}`, { token: alice, body: { type: 2 } })).status).toBe(204);

    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, alice);
    const types = Object.fromEntries(ready.relationships.map((r) => [r.user.username, r.type]));
    expect(types).toEqual({
      bob: RelationshipType.Friend,
      carol: RelationshipType.Friend,
      dave: RelationshipType.Blocked,
      eve: RelationshipType.OutgoingRequest,
      mallory: RelationshipType.IncomingRequest,
    });
    expect(ready.relationships.find((r) => r.id === mallory)?.user.username).toBe('mallory');
    const listed = await api<{ id: string; type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: alice });
    expect(listed.body.map((r) => [r.id, r.type])).toEqual(ready.relationships.map((r) => [r.id, r.type]));
    client.close();
  });
});
