import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PlatformChannel, PlatformMessage, RpcApplication } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';

describe('http: basics and errors', () => {
  it('serves the same handlers under /api, /api/v9 and /api/v10, and GET /gateway', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    for (const prefix of ['/api', '/api/v9', '/api/v10']) {
      expect(await api(platform, 'GET', `${prefix}/users/@me`, { token })).toMatchObject({ status: 200, body: { id: SEED.users.alice, username: 'alice' } });
    }
    expect((await api(platform, 'GET', '/api/v10/gateway')).body).toEqual({ url: platform.gatewayUrl });
  });

  it('dev login returns the user token; unknown names are 400 50035', async () => {
    const platform = await startTestPlatform();
    const login = await api(platform, 'POST', '/api/auth/login', { body: { login: 'bob' } });
    expect(login).toMatchObject({ status: 200, body: { user_id: SEED.users.bob, token: platform.loginToken('bob') } });
    const unknown = await api(platform, 'POST', '/api/auth/login', { body: { login: 'mallory' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 50035, errors: { login: { _errors: [expect.objectContaining({ code: 'INVALID_LOGIN' })] } } });
  });

  it('401 without or with a bad token, and for Bearer tokens', async () => {
    const platform = await startTestPlatform();
    const unauthorized = { status: 401, body: { code: 0, message: '401: Unauthorized' } };
    expect(await api(platform, 'GET', '/api/users/@me')).toMatchObject(unauthorized);
    expect(await api(platform, 'GET', '/api/users/@me', { token: 'nope' })).toMatchObject(unauthorized);
    expect(await api(platform, 'GET', '/api/users/@me', { token: `Bearer ${platform.loginToken('alice')}` })).toMatchObject(unauthorized);
    expect(await api(platform, 'GET', '/_emulator/users', { token: 'Admin wrong' })).toMatchObject(unauthorized);
  });

  it('404 bodies: unknown route, unknown user, unknown channel; 405; invalid JSON 50109; form errors 50035', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    expect(await api(platform, 'GET', '/api/nope', { token })).toMatchObject({ status: 404, body: { code: 0, message: '404: Not Found' } });
    expect(await api(platform, 'GET', '/elsewhere')).toMatchObject({ status: 404, body: { code: 0, message: '404: Not Found' } });
    expect(await api(platform, 'GET', '/api/users/123456789012345678', { token })).toMatchObject({ status: 404, body: { code: 10013, message: 'Unknown User' } });
    expect(await api(platform, 'GET', '/api/channels/123456789012345678/messages', { token })).toMatchObject({ status: 404, body: { code: 10003 } });
    expect((await api(platform, 'DELETE', '/api/users/@me', { token })).status).toBe(405);
    expect(await api(platform, 'POST', '/api/users/@me/channels', { token, rawBody: '{oops' })).toMatchObject({ status: 400, body: { code: 50109 } });
    const missing = await api(platform, 'POST', '/api/users/@me/channels', { token, body: {} });
    expect(missing).toMatchObject({ status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { recipient_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } } } });
  });

  it('relationships, guilds and guild channels', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const relationships = await api<{ id: string; type: number }[]>(platform, 'GET', '/api/users/@me/relationships', { token });
    expect(relationships.body.map((r) => r.id).sort()).toEqual([SEED.users.bob, SEED.users.carol, SEED.users.dave].sort());
    expect((await api(platform, 'GET', '/api/users/@me/guilds', { token })).body).toEqual([
      { id: SEED.guildId, name: 'Companion Lounge', icon: null, banner: SEED.guildBanner, owner: true, permissions: String((1n << 53n) - 1n), features: [] },
    ]);
    const channels = await api<PlatformChannel[]>(platform, 'GET', `/api/guilds/${SEED.guildId}/channels`, { token });
    expect(channels.body.map((c) => c.name)).toEqual(['general', 'Voice', 'Party']);
    const erin = platform.admin.createUser('erin');
    expect((await api(platform, 'GET', `/api/guilds/${SEED.guildId}/channels`, { token: platform.loginToken(erin.username) })).body).toMatchObject({ code: 50001 });
  });
});

describe('http: rate limits', () => {
  it('message create: headers on every response, the 6th within 5 s is 429 with Retry-After and scope', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const token = platform.loginToken('alice');
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } })).body;
    for (let i = 0; i < 5; i += 1) {
      const response = await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token, body: { content: `hi ${i}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
      expect(response.headers.get('x-ratelimit-reset')).toBe(((clock.time + 5000) / 1000).toFixed(3));
      expect(response.headers.get('x-ratelimit-reset-after')).toBe('5.000');
      expect(response.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    }
    clock.advance(1500);
    const limited = await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token, body: { content: 'too many' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'You are being rate limited.', retry_after: 3.5, global: false });
    expect(limited.headers.get('retry-after')).toBe('4');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Per user: bob is not limited by alice's bucket.
    expect((await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token: platform.loginToken('bob'), body: { content: 'hi' } })).status).toBe(200);
    clock.advance(3500);
    expect((await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token, body: { content: 'again' } })).status).toBe(200);
  });

  it("a limited route's refusal carries the rate-limit headers too (every response of a limited route does)", async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } })).body;
    const refused = await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token, body: { content: 'x'.repeat(2001) } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('dev login: 10 per 60 s per IP', async () => {
    const platform = await startTestPlatform();
    for (let i = 0; i < 10; i += 1) expect((await api(platform, 'POST', '/api/auth/login', { body: { login: 'alice' } })).status).toBe(200);
    const limited = await api<{ retry_after: number }>(platform, 'POST', '/api/auth/login', { body: { login: 'alice' } });
    expect(limited.status).toBe(429);
    expect(limited.body.retry_after).toBeGreaterThan(55);
  });
});

describe('http: DMs and messages', () => {
  it('creates a DM once (CHANNEL_CREATE to both), then reuses it; messages reach both users newest first', async () => {
    const platform = await startTestPlatform();
    const alice = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const bob = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const token = platform.loginToken('alice');
    const first = await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } });
    expect(first.body).toMatchObject({ type: 1, recipients: [{ id: SEED.users.alice }, { id: SEED.users.bob }] });
    for (const client of [alice.client, bob.client]) expect((await client.next(isDispatch('CHANNEL_CREATE'))).d).toEqual(first.body);
    const again = await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token: platform.loginToken('bob'), body: { recipient_id: SEED.users.alice } });
    expect(again.body.id).toBe(first.body.id);
    await bob.client.barrier();
    expect(bob.client.dispatches('CHANNEL_CREATE')).toHaveLength(1);

    for (const content of ['one', 'two']) await api(platform, 'POST', `/api/channels/${first.body.id}/messages`, { token, body: { content } });
    const created = (await bob.client.next(isDispatch('MESSAGE_CREATE'))).d as PlatformMessage;
    expect(created).toMatchObject({ channel_id: first.body.id, author: { id: SEED.users.alice }, content: 'one', type: 0 });
    const list = await api<PlatformMessage[]>(platform, 'GET', `/api/channels/${first.body.id}/messages?limit=1`, { token: platform.loginToken('bob') });
    expect(list.body.map((m) => m.content)).toEqual(['two']);
    expect((await api(platform, 'GET', `/api/channels/${first.body.id}/messages`, { token: platform.loginToken('carol') })).body).toMatchObject({ code: 50001 });
  });
});

describe('http: applications', () => {
  it('serves a known app and registers an unknown one on first use (unverified) through the POST', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const demo = await api<RpcApplication>(platform, 'GET', `/api/v10/oauth2/applications/${SEED.appId}/rpc`);
    expect(demo.body).toMatchObject({ id: SEED.appId, name: 'Companion Demo Game', verified: true });
    const fresh = await api<RpcApplication>(platform, 'POST', '/api/v10/oauth2/applications/987654321098765432/rpc', { token, body: {} });
    expect(fresh.body).toMatchObject({ id: '987654321098765432', name: 'Application 987654321098765432', verified: false });
    expect(platform.admin.apps().map((a) => a.id)).toContain('987654321098765432');
    expect((await api(platform, 'POST', '/api/v10/oauth2/applications/not-a-snowflake/rpc', { token, body: {} })).body).toEqual({ code: 10002, message: 'Unknown Application' });
    const assets = await api(platform, 'GET', `/api/oauth2/applications/${SEED.appId}/assets`);
    expect(assets.body).toEqual([
      { id: SEED.assets.logo, name: 'logo', type: 1 },
      { id: SEED.assets.cover, name: 'cover', type: 2 },
    ]);
  });

  it('strict mode: unknown ids are 404 10002 and not registered', async () => {
    const platform = await startTestPlatform({ strictApps: true });
    expect(await api(platform, 'GET', '/api/v10/oauth2/applications/987654321098765432/rpc')).toMatchObject({ status: 404, body: { code: 10002, message: 'Unknown Application' } });
    const token = platform.loginToken('alice');
    expect(await api(platform, 'POST', '/api/v10/oauth2/applications/987654321098765432/rpc', { token, body: {} })).toMatchObject({ status: 404, body: { code: 10002, message: 'Unknown Application' } });
    expect(platform.admin.apps().map((a) => a.id)).toEqual([SEED.appId]);
  });
});

describe('http: admin routes', () => {
  it('creates users and apps, manages friends (RELATIONSHIP_ADD/REMOVE) and assets', async () => {
    const platform = await startTestPlatform();
    const admin = { admin: true };
    const erin = await api<{ id: string; username: string }>(platform, 'POST', '/_emulator/users', { ...admin, body: { username: 'erin' } });
    expect(erin).toMatchObject({ status: 201, body: { username: 'erin', discriminator: '0', global_name: 'Erin' } });
    expect((await api(platform, 'POST', '/_emulator/users', { ...admin, body: { username: 'erin' } })).status).toBe(400);
    const alice = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    expect(await api(platform, 'POST', '/_emulator/friends', { ...admin, body: { a: 'alice', b: erin.body.id } })).toMatchObject({ status: 200, body: { added: true } });
    expect((await alice.client.next(isDispatch('RELATIONSHIP_ADD'))).d).toMatchObject({ id: erin.body.id, type: 1, user: { username: 'erin' } });
    expect(await api(platform, 'DELETE', '/_emulator/friends', { ...admin, body: { a: 'alice', b: 'erin' } })).toMatchObject({ body: { removed: true } });
    expect((await alice.client.next(isDispatch('RELATIONSHIP_REMOVE'))).d).toEqual({ id: erin.body.id, type: 1 });

    const app = await api<{ id: string; public_key: string }>(platform, 'POST', '/_emulator/apps', { ...admin, body: { name: 'Test Game', id: '555555555555555555' } });
    expect(app).toMatchObject({ status: 201, body: { id: '555555555555555555', name: 'Test Game', verified: true } });
    expect(app.body.public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(app.body).not.toHaveProperty('private_key');
    expect((await api(platform, 'POST', '/_emulator/apps/555555555555555555/assets', { ...admin, body: { name: 'Hero' } })).body).toMatchObject({ name: 'hero', type: 2 });
    expect((await api(platform, 'GET', '/api/oauth2/applications/555555555555555555/assets')).body).toMatchObject([{ name: 'hero' }]);
    expect((await api(platform, 'DELETE', '/_emulator/apps/555555555555555555/assets/hero', admin)).status).toBe(204);
    expect((await api(platform, 'GET', '/api/oauth2/applications/555555555555555555/assets')).body).toEqual([]);
    const list = await api<{ id: string }[]>(platform, 'GET', '/_emulator/apps', admin);
    expect(list.body.map((a) => a.id)).toEqual([SEED.appId, '555555555555555555']);
  });
});
