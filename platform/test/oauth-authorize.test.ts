import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { SOCIAL_LAYER_PRESENCE_SCOPES, type AuthorizePreview, type OAuthGrant, type TokenResponse } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { authorizeCode, pkce, postForm, query } from './support/oauth.js';

const APP = SEED.appId;

describe('oauth2: authorize preview', () => {
  it('shows the app, the requested and expanded scopes, the user, and whether a grant covers them', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const path = `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'openid sdk.social_layer_presence rpc', response_type: 'code' })}`;
    const preview = await api<AuthorizePreview>(platform, 'GET', path, { token });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      application: { id: APP, name: SEED.appName, icon: SEED.assets.logo, description: expect.any(String), verified: true },
      scopes: ['openid', 'sdk.social_layer_presence', 'rpc'],
      expanded_scopes: ['openid', ...SOCIAL_LAYER_PRESENCE_SCOPES, 'rpc'],
      user: { id: SEED.users.alice, username: 'alice' },
      authorized: false,
    });
    await authorizeCode(platform, token, { client_id: APP, scope: 'openid sdk.social_layer_presence rpc' });
    expect((await api<AuthorizePreview>(platform, 'GET', path, { token })).body.authorized).toBe(true);
    // A subset is covered; a new scope or another integration type is not.
    expect((await api<AuthorizePreview>(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify' })}`, { token })).body.authorized).toBe(true);
    expect((await api<AuthorizePreview>(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify guilds' })}`, { token })).body.authorized).toBe(false);
    expect((await api<AuthorizePreview>(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify', integration_type: '1' })}`, { token })).body.authorized).toBe(false);
    // Another user has no grant.
    expect((await api<AuthorizePreview>(platform, 'GET', path, { token: platform.loginToken('bob') })).body.authorized).toBe(false);
  });

  it('answers the error the request would get, in the RFC form', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const preview = (params: Record<string, string | undefined>) => api(platform, 'GET', `/api/v10/oauth2/authorize?${query({ client_id: APP, ...params })}`, { token });
    expect(await preview({ scope: '' })).toMatchObject({ status: 400, body: { error: 'invalid_scope', error_description: 'The request has no scopes' } });
    expect(await preview({})).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(await preview({ scope: 'identify bogus.scope' })).toMatchObject({ status: 400, body: { error: 'invalid_scope', error_description: 'The scope "bogus.scope" is not a valid scope' } });
    for (const scope of ['rpc.voice.read', 'identify.premium', 'messages.read', 'rpc.notifications.read']) {
      expect(await preview({ scope: `identify ${scope}` })).toEqual(
        expect.objectContaining({ status: 400, body: { error: 'invalid_scope', error_description: `The scope "${scope}" requires approval` } }),
      );
    }
    expect(await preview({ scope: 'identify', code_challenge: pkce().challenge, code_challenge_method: 'plain' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await preview({ scope: 'identify', code_challenge: 'short', code_challenge_method: 'S256' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await preview({ scope: 'identify', redirect_uri: 'http://127.0.0.1:9999/evil' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Invalid "redirect_uri" in request.' },
    });
    expect(await preview({ scope: 'identify', integration_type: '7' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await preview({ scope: 'identify', response_type: 'token' })).toMatchObject({ status: 400, body: { error: 'unsupported_response_type' } });
    expect(await api(platform, 'GET', `/api/v10/oauth2/authorize?${query({ scope: 'identify' })}`, { token })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    // The user's token is needed (API error form).
    expect(await api(platform, 'GET', `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'identify' })}`)).toMatchObject({ status: 401, body: { code: 0 } });
  });

  it('apps registered on first use are approved for the rpc* family; strict mode knows no such app', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const fresh = '424242424242424242';
    // Registered on first use the way the host does it (a look-up never registers).
    expect((await api(platform, 'POST', `/api/v10/oauth2/applications/${fresh}/rpc`, { token, body: {} })).status).toBe(201);
    const ok = await api<AuthorizePreview>(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: fresh, scope: 'rpc rpc.voice.read rpc.voice.write rpc.notifications.read rpc.activities.write' })}`, { token });
    expect(ok).toMatchObject({ status: 200, body: { application: { id: fresh, verified: false } } });
    expect(await api(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: fresh, scope: 'identify.premium' })}`, { token })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'The scope "identify.premium" requires approval' },
    });
    // Admin-created apps are approved for nothing until PATCHed.
    const created = platform.admin.createApp({ name: 'Made Game' });
    expect(await api(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: created.id, scope: 'rpc' })}`, { token })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    await api(platform, 'PATCH', `/_emulator/apps/${created.id}`, { admin: true, body: { approved_scopes: ['rpc'] } });
    expect((await api(platform, 'GET', `/api/oauth2/authorize?${query({ client_id: created.id, scope: 'rpc' })}`, { token })).status).toBe(200);

    const strict = await startTestPlatform({ strictApps: true });
    expect(await api(strict, 'GET', `/api/oauth2/authorize?${query({ client_id: fresh, scope: 'identify' })}`, { token: strict.loginToken('alice') })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client' },
    });
  });
});

describe('oauth2: POST authorize', () => {
  it('rpc: answers {code, state}, records the grant and sends OAUTH2_GRANT_CREATE to the user sessions', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const { client } = await GatewayClient.ready(platform.gatewayUrl, token);
    const response = await api<{ code: string; state: string }>(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'identify rpc', state: 'st-1', integration_type: '1' })}`, {
      token,
      body: { authorize: true, rpc: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), state: 'st-1' });
    const event = await client.next(isDispatch('OAUTH2_GRANT_CREATE'));
    const grant = (event.d as { grant: OAuthGrant }).grant;
    expect(grant).toEqual({ id: expect.any(String), application: { id: APP, name: SEED.appName, icon: SEED.assets.logo }, scopes: ['identify', 'rpc'], integration_type: 1, created_at: expect.any(String) });
    expect((await api<OAuthGrant[]>(platform, 'GET', '/api/v10/oauth2/tokens', { token })).body).toEqual([grant]);
    // Widening: same grant id, union of scopes.
    await authorizeCode(platform, token, { client_id: APP, scope: 'guilds' });
    const widened = (await client.next(isDispatch('OAUTH2_GRANT_CREATE'))).d as { grant: OAuthGrant };
    expect(widened.grant).toMatchObject({ id: grant.id, scopes: ['identify', 'rpc', 'guilds'], integration_type: 1 });
    expect((await api<OAuthGrant[]>(platform, 'GET', '/api/oauth2/tokens', { token: platform.loginToken('bob') })).body).toEqual([]);
    // A request with no state answers no state; a deny in rpc mode is access_denied.
    const noState = await api(platform, 'POST', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify' })}`, { token, body: { authorize: true, rpc: true } });
    expect(Object.keys(noState.body as object)).toEqual(['code']);
    expect(await api(platform, 'POST', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify' })}`, { token, body: { authorize: false, rpc: true } })).toMatchObject({
      status: 400,
      body: { error: 'access_denied', error_description: 'The resource owner or authorization server denied the request' },
    });
    // The same validation as the preview.
    expect(await api(platform, 'POST', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'rpc.voice.write' })}`, { token, body: { authorize: true, rpc: true } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    expect((await api(platform, 'POST', `/api/oauth2/authorize?${query({ client_id: APP, scope: 'identify' })}`, { token, body: {} })).body).toMatchObject({ code: 50035 });
  });

  it('browser flow: {location} with code and state on the registered redirect; deny redirects access_denied', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const first = await api<{ location: string }>(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'identify', state: 'a b&c' })}`, {
      token,
      body: { authorize: true },
    });
    const location = new URL(first.body.location);
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1/callback');
    expect(location.searchParams.get('state')).toBe('a b&c');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const mobile = `discord-${APP}:/authorize/callback`;
    const second = await api<{ location: string }>(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'identify', redirect_uri: mobile })}`, {
      token,
      body: { authorize: true },
    });
    expect(second.body.location).toMatch(new RegExp(`^discord-${APP}:/authorize/callback\\?code=[A-Za-z0-9_-]{43}$`));

    const denied = await api<{ location: string }>(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: APP, scope: 'identify', state: 's9' })}`, { token, body: { authorize: false } });
    const deniedUrl = new URL(denied.body.location);
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBe('s9');
    expect(deniedUrl.searchParams.get('code')).toBeNull();

    // An app without a registered redirect cannot run a browser flow (it can run an rpc one).
    const bare = platform.admin.createApp({ name: 'No Redirects' });
    expect(await api(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: bare.id, scope: 'identify' })}`, { token, body: { authorize: true } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Missing "redirect_uri" in request.' },
    });
    expect((await api(platform, 'POST', `/api/v10/oauth2/authorize?${query({ client_id: bare.id, scope: 'identify' })}`, { token, body: { authorize: true, rpc: true } })).status).toBe(200);
  });
});

describe('oauth2: the browser authorize page', () => {
  const page = (platform: { url: string }, search: string, init: RequestInit = {}) => fetch(`${platform.url}/oauth2/authorize?${search}`, { redirect: 'manual', ...init });
  const submit = (platform: { url: string }, search: string, fields: Record<string, string>) =>
    page(platform, search, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  it('shows the scopes in plain words and escapes everything it echoes', async () => {
    const platform = await startTestPlatform();
    const evil = platform.admin.createApp({ name: '<script>alert(1)</script> & "Co"' });
    await api(platform, 'PATCH', `/_emulator/apps/${evil.id}`, { admin: true, body: { redirect_uris: ['http://127.0.0.1/cb'] } });
    const response = await page(platform, query({ client_id: evil.id, scope: 'identify guilds', state: '"><img src=x onerror=alert(1)>' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('Know your username, avatar and banner');
    expect(html).toContain('Know what servers you are in');
    expect(html).toMatch(/<form method="post" action="\/oauth2\/authorize\?[^"]*"/);
  });

  it('approve redirects with code and state (redeemable with the redirect); deny with access_denied', async () => {
    const platform = await startTestPlatform();
    const { verifier, challenge } = pkce();
    const search = query({ client_id: APP, scope: 'identify', state: 'xyz', redirect_uri: 'http://127.0.0.1/callback', code_challenge: challenge, code_challenge_method: 'S256' });
    const approved = await submit(platform, search, { username: 'bob', decision: 'approve' });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location') as string);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code') as string;
    const tokens = await postForm<TokenResponse>(platform, '/api/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: APP,
      redirect_uri: 'http://127.0.0.1/callback',
      code_verifier: verifier,
    });
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'identify' } });
    expect((await api(platform, 'GET', '/api/users/@me', { token: `Bearer ${tokens.body.access_token}` })).body).toMatchObject({ id: SEED.users.bob });

    const denied = await submit(platform, search, { username: 'bob', decision: 'deny' });
    expect(denied.status).toBe(302);
    const deniedUrl = new URL(denied.headers.get('location') as string);
    expect([deniedUrl.searchParams.get('error'), deniedUrl.searchParams.get('state')]).toEqual(['access_denied', 'xyz']);

    const unknown = await submit(platform, search, { username: 'mallory<b>', decision: 'approve' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Unknown username &quot;mallory&lt;b&gt;&quot;');
  });

  it('redirects scope errors to the app; shows an error page for an unknown app or redirect', async () => {
    const platform = await startTestPlatform({ strictApps: true });
    const bad = await page(platform, query({ client_id: APP, scope: 'identify nope', state: 's' }));
    expect(bad.status).toBe(302);
    const url = new URL(bad.headers.get('location') as string);
    expect([url.origin + url.pathname, url.searchParams.get('error'), url.searchParams.get('state')]).toEqual(['http://127.0.0.1/callback', 'invalid_scope', 's']);
    const unknownApp = await page(platform, query({ client_id: '999999999999999999', scope: 'identify' }));
    expect(unknownApp.status).toBe(400);
    expect(await unknownApp.text()).toContain('invalid_client');
    const badRedirect = await page(platform, query({ client_id: APP, scope: 'identify', redirect_uri: 'https://evil.example/' }));
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.headers.get('location')).toBeNull();
  });
});
