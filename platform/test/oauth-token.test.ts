import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { OAuthGrant, OAuthMe, TokenResponse } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';
import { authorizeCode, bearer, obtainTokens, pkce, postForm } from './support/oauth.js';

const APP = SEED.appId;
const TOKEN = '/api/v10/oauth2/token';
const invalidCode = { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "code" in request.' } };
const deadRefresh = { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request' } };
const badClient = { status: 401, body: { error: 'invalid_client' } };

/** A confidential app (not a public client) with a redirect, and its secret. */
async function confidentialApp(platform: Awaited<ReturnType<typeof startTestPlatform>>): Promise<{ id: string; secret: string }> {
  const app = platform.admin.createApp({ name: 'Backend Game' });
  await api(platform, 'PATCH', `/_emulator/apps/${app.id}`, { admin: true, body: { redirect_uris: ['http://127.0.0.1:5000/cb'] } });
  const listed = (await api<{ id: string; client_secret: string }[]>(platform, 'GET', '/_emulator/apps', { admin: true })).body.find((a) => a.id === app.id);
  return { id: app.id, secret: listed?.client_secret as string };
}

describe('oauth2: authorization_code exchange', () => {
  it('PKCE S256: the right verifier redeems; missing is invalid_request, wrong is invalid_grant; codes are single use', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { verifier, challenge } = pkce();
    const code = await authorizeCode(platform, token, { client_id: APP, scope: 'identify', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Missing "code_verifier" in request.' },
    });
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, code_verifier: pkce().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "code_verifier" in request.' },
    });
    const ok = await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, code_verifier: verifier });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 604800, refresh_token: expect.any(String), scope: 'identify' });
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, code_verifier: verifier })).toMatchObject(invalidCode);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: 'made-up', client_id: APP })).toMatchObject(invalidCode);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', client_id: APP })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('codes expire after 10 minutes (fake clock)', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const token = platform.loginToken('alice');
    const late = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
    const inTime = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
    clock.advance(10 * 60 * 1000 - 1);
    expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: inTime, client_id: APP })).status).toBe(200);
    clock.advance(1);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: late, client_id: APP })).toMatchObject(invalidCode);
  });

  it('browser codes are bound to their redirect; RPC codes ignore redirect_uri, even the string "undefined"', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const redirect = `discord-${APP}:/authorize/callback`;
    const browser = await authorizeCode(platform, token, { client_id: APP, scope: 'identify', redirect_uri: redirect }, false);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: browser, client_id: APP })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Missing "redirect_uri" in request.' },
    });
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: browser, client_id: APP, redirect_uri: 'http://127.0.0.1/callback' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' },
    });
    expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: browser, client_id: APP, redirect_uri: redirect })).status).toBe(200);
    // Omitted at authorize (the first registered one was used): the token request may omit it, not change it.
    const implicit = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' }, false);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: implicit, client_id: APP, redirect_uri: 'undefined' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: implicit, client_id: APP })).status).toBe(200);

    for (const redirectUri of [undefined, 'undefined', 'http://anything.example/']) {
      const rpc = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
      expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: rpc, client_id: APP, redirect_uri: redirectUri })).status).toBe(200);
    }
  });

  it('client auth: public clients may omit the secret ("undefined" too); confidential ones need it, by Basic or body', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const seeded = (await api<{ id: string; client_secret: string }[]>(platform, 'GET', '/_emulator/apps', { admin: true })).body[0] as { client_secret: string };
    expect(seeded.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const secret of [undefined, 'undefined', '', seeded.client_secret]) {
      const code = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
      expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, client_secret: secret })).status).toBe(200);
    }
    const publicCode = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: publicCode, client_id: APP, client_secret: 'wrong' })).toMatchObject(badClient);

    const app = await confidentialApp(platform);
    const code = await authorizeCode(platform, token, { client_id: app.id, scope: 'identify' });
    const missing = await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: app.id });
    expect(missing).toMatchObject(badClient);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: app.id, client_secret: 'undefined' })).toMatchObject(badClient);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: app.id, client_secret: `${app.secret}x` })).toMatchObject(badClient);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code }, { basic: { id: app.id, secret: 'nope' } })).toMatchObject(badClient);
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: '111111111111111111', client_secret: 'x' })).toMatchObject(badClient);
    // Another app's code is no code for this one.
    expect(await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP })).toMatchObject(invalidCode);
    expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code }, { basic: { id: app.id, secret: app.secret } })).status).toBe(200);
    const second = await authorizeCode(platform, token, { client_id: app.id, scope: 'identify' });
    expect((await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: second, client_id: app.id, client_secret: app.secret })).status).toBe(200);
  });

  it('JSON bodies are invalid_request; unknown grant types are unsupported_grant_type', async () => {
    const platform = await startTestPlatform();
    const code = await authorizeCode(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' });
    expect(await api(platform, 'POST', TOKEN, { body: { grant_type: 'authorization_code', code, client_id: APP } })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await api(platform, 'POST', '/api/oauth2/token/revoke', { body: { token: 'x', client_id: APP } })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await postForm(platform, TOKEN, { grant_type: 'client_credentials', client_id: APP })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await postForm(platform, TOKEN, { client_id: APP })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    // The code survived the refused requests.
    expect((await postForm(platform, '/api/oauth2/token', { grant_type: 'authorization_code', code, client_id: APP })).status).toBe(200);
  });
});

describe('oauth2: refresh and revoke', () => {
  it('refresh gives a new pair and kills the old one', async () => {
    const platform = await startTestPlatform();
    const first = await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify guilds' });
    const refreshed = await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: APP });
    expect(refreshed).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' } });
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: APP })).toMatchObject(deadRefresh);
    expect((await bearer(platform, '/api/users/@me', first.access_token)).status).toBe(401);
    expect((await bearer(platform, '/api/users/@me', refreshed.body.access_token)).status).toBe(200);
  });

  it('DELETE /oauth2/tokens/{grant}: tokens die at once and OAUTH2_GRANT_DELETE reaches the user session', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client } = await GatewayClient.ready(platform.gatewayUrl, token);
    const tokens = await obtainTokens(platform, token, { client_id: APP, scope: 'identify' });
    const grant = ((await client.next(isDispatch('OAUTH2_GRANT_CREATE'))).d as { grant: OAuthGrant }).grant;
    expect((await api(platform, 'DELETE', `/api/v10/oauth2/tokens/${grant.id}`, { token: platform.loginToken('bob') })).status).toBe(404);
    expect((await api(platform, 'DELETE', `/api/v10/oauth2/tokens/${grant.id}`, { token })).status).toBe(204);
    expect((await client.next(isDispatch('OAUTH2_GRANT_DELETE'))).d).toEqual({ grant });
    expect(await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: APP })).toMatchObject(deadRefresh);
    expect(await bearer(platform, '/api/v10/oauth2/@me', tokens.access_token)).toMatchObject({ status: 401, body: { code: 0, message: '401: Unauthorized' } });
    expect((await api<OAuthGrant[]>(platform, 'GET', '/api/v10/oauth2/tokens', { token })).body).toEqual([]);
    expect((await api(platform, 'DELETE', `/api/v10/oauth2/tokens/${grant.id}`, { token })).status).toBe(404);
  });

  it('POST /oauth2/token/revoke (access or refresh token) revokes the grant and every token of it', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client } = await GatewayClient.ready(platform.gatewayUrl, token);
    const one = await obtainTokens(platform, token, { client_id: APP, scope: 'identify' });
    const two = await obtainTokens(platform, token, { client_id: APP, scope: 'identify' });
    expect(await postForm(platform, '/api/oauth2/token/revoke', { token: one.access_token, client_id: APP, client_secret: 'wrong' })).toMatchObject(badClient);
    expect(await postForm(platform, '/api/oauth2/token/revoke', { token: one.access_token, client_id: APP })).toMatchObject({ status: 200, body: {} });
    expect((await client.next(isDispatch('OAUTH2_GRANT_DELETE'))).d).toMatchObject({ grant: { application: { id: APP } } });
    for (const pair of [one, two]) {
      expect((await bearer(platform, '/api/users/@me', pair.access_token)).status).toBe(401);
      expect(await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: pair.refresh_token, client_id: APP })).toMatchObject(deadRefresh);
    }
    // Unknown tokens are fine (RFC 7009); by refresh token with the hint.
    expect((await postForm(platform, '/api/oauth2/token/revoke', { token: 'unknown', client_id: APP })).status).toBe(200);
    const three = await obtainTokens(platform, token, { client_id: APP, scope: 'identify' });
    expect((await postForm(platform, '/api/v10/oauth2/token/revoke', { token: three.refresh_token, token_type_hint: 'refresh_token', client_id: APP })).status).toBe(200);
    expect((await bearer(platform, '/api/users/@me', three.access_token)).status).toBe(401);
  });
});

describe('oauth2: Bearer access', () => {
  it('@me and the Bearer routes need their scopes; access tokens end after 7 days', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const token = platform.loginToken('alice');
    const narrow = await obtainTokens(platform, token, { client_id: APP, scope: 'rpc' });
    const me = await bearer<OAuthMe>(platform, '/api/v10/oauth2/@me', narrow.access_token);
    expect(me.body).toEqual({
      application: { id: APP, name: SEED.appName, icon: SEED.assets.logo, description: expect.any(String), rpc_origins: [] },
      scopes: ['rpc'],
      expires: new Date(clock.time + 604_800_000).toISOString(),
    });
    const missing = { status: 403, body: { code: 50026, message: 'Missing required OAuth2 scope' } };
    expect(await bearer(platform, '/api/users/@me', narrow.access_token)).toMatchObject(missing);
    expect(await bearer(platform, '/api/users/@me/guilds', narrow.access_token)).toMatchObject(missing);
    expect(await bearer(platform, `/api/guilds/${SEED.guildId}`, narrow.access_token)).toMatchObject(missing);
    // rpc reads channels.
    expect((await bearer<unknown[]>(platform, `/api/guilds/${SEED.guildId}/channels`, narrow.access_token)).body).toHaveLength(3);
    expect((await bearer(platform, `/api/channels/${SEED.channels.general}`, narrow.access_token)).body).toMatchObject({ id: SEED.channels.general, name: 'general' });
    // A game's token reads relationships with relationships.read (or the Social SDK's scopes): not with rpc alone.
    expect(await bearer(platform, '/api/users/@me/relationships', narrow.access_token)).toMatchObject(missing);
    // Routes that take no Bearer token: 401.
    expect((await bearer(platform, '/api/v10/oauth2/tokens', narrow.access_token)).status).toBe(401);

    const wide = await obtainTokens(platform, token, { client_id: APP, scope: 'identify guilds guilds.channels.read' });
    expect((await bearer<OAuthMe>(platform, '/api/oauth2/@me', wide.access_token)).body.user).toEqual({ id: SEED.users.alice, username: 'alice', discriminator: '0', global_name: 'Alice', avatar: null });
    expect((await bearer(platform, '/api/v10/users/@me', wide.access_token)).body).toMatchObject({ id: SEED.users.alice });
    expect((await bearer(platform, '/api/users/@me/guilds', wide.access_token)).body).toEqual([
      { id: SEED.guildId, name: SEED.guildName, icon: null, banner: SEED.guildBanner, owner: true, permissions: String((1n << 53n) - 1n), features: [] },
    ]);
    expect((await bearer(platform, `/api/guilds/${SEED.guildId}`, wide.access_token)).body).toMatchObject({ id: SEED.guildId, name: SEED.guildName, member_count: 4 });
    expect((await bearer(platform, `/api/channels/${SEED.channels.voice}`, wide.access_token)).body).toMatchObject({ type: 2, name: 'Voice' });
    // A user token reaches the new routes too; @me needs a Bearer token.
    expect((await api(platform, 'GET', `/api/guilds/${SEED.guildId}`, { token })).status).toBe(200);
    expect((await api(platform, 'GET', '/api/oauth2/@me', { token })).status).toBe(401);
    // Non-members and unknown ids.
    const erin = platform.admin.createUser('erin');
    const erinTokens = await obtainTokens(platform, platform.loginToken(erin.username), { client_id: APP, scope: 'guilds guilds.channels.read' });
    expect(await bearer(platform, `/api/guilds/${SEED.guildId}`, erinTokens.access_token)).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await bearer(platform, `/api/channels/${SEED.channels.general}`, erinTokens.access_token)).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await bearer(platform, '/api/channels/123456789012345678', erinTokens.access_token)).toMatchObject({ status: 404, body: { code: 10003 } });
    expect(await bearer(platform, '/api/users/@me', 'not-a-token')).toMatchObject({ status: 401, body: { code: 0, message: '401: Unauthorized' } });

    clock.advance(604_800_000);
    expect((await bearer(platform, '/api/users/@me', wide.access_token)).status).toBe(401);
    // The refresh token outlives the access token.
    expect((await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: wide.refresh_token, client_id: APP })).status).toBe(200);
  });
});

describe('oauth2: OpenID Connect', () => {
  it('openid adds an RS256 id_token that verifies against the JWKS and carries the nonce; the key persists', async () => {
    const platform = await startTestPlatform();
    const discovery = await api<{ issuer: string; jwks_uri: string; token_endpoint: string; id_token_signing_alg_values_supported: string[] }>(platform, 'GET', '/.well-known/openid-configuration');
    expect(discovery.body).toMatchObject({ issuer: platform.url, jwks_uri: `${platform.url}/api/oauth2/keys`, token_endpoint: `${platform.url}/api/oauth2/token`, id_token_signing_alg_values_supported: ['RS256'] });
    expect(discovery.body).not.toHaveProperty('userinfo_endpoint');
    const code = await authorizeCode(platform, platform.loginToken('carol'), { client_id: APP, scope: 'openid identify', nonce: 'n-0S6_WzA2Mj' });
    const tokens = await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP });
    const idToken = tokens.body.id_token as string;
    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string };
    expect(head.alg).toBe('RS256');
    const jwks = (await fetch(discovery.body.jwks_uri).then((r) => r.json())) as { keys: (JsonWebKey & { kid: string })[] };
    const jwk = jwks.keys.find((key) => key.kid === head.kid);
    expect(jwk).toBeDefined();
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${header}.${payload}x`), key, Buffer.from(signature, 'base64url'))).toBe(false);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({ iss: platform.url, sub: SEED.users.carol, aud: APP, iat: expect.any(Number), exp: (claims.iat as number) + 604800, nonce: 'n-0S6_WzA2Mj' });
    // Without openid, no id_token.
    const plain = await obtainTokens(platform, platform.loginToken('carol'), { client_id: APP, scope: 'identify' });
    expect(plain.id_token).toBeUndefined();
  });
});
