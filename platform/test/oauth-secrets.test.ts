import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { OAuthGrant, TokenResponse } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, captureLogger, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { storedState } from './support/stored-state.js';
import { authorizeCode, bearer, pkce, postForm, startWebhookReceiver } from './support/oauth.js';

const APP = SEED.appId;
const TOKEN = '/api/oauth2/token';

describe('oauth2 secrets', () => {
  it('no client secret, code, token, verifier, id_token or private key in any log line (every level on)', async () => {
    const { logger, lines } = captureLogger();
    const dataDir = await tempDir();
    const platform = await startTestPlatform({ dataDir, logger });
    const secrets: string[] = [platform.adminToken];
    const token = platform.loginToken('alice');
    secrets.push(token);
    const { client } = await GatewayClient.ready(platform.gatewayUrl, token);
    const receiver = await startWebhookReceiver([500]);
    await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: receiver.url } });
    const backend = platform.admin.createApp({ name: 'Backend Game' });
    await api(platform, 'PATCH', `/_emulator/apps/${backend.id}`, { admin: true, body: { redirect_uris: ['http://127.0.0.1:5000/cb'] } });
    const apps = (await api<{ id: string; client_secret: string }[]>(platform, 'GET', '/_emulator/apps', { admin: true })).body;
    secrets.push(...apps.map((app) => app.client_secret));
    const backendSecret = apps.find((app) => app.id === backend.id)?.client_secret as string;

    // RPC flow with PKCE and openid, a wrong verifier first.
    const { verifier, challenge } = pkce();
    secrets.push(verifier, challenge);
    const code = await authorizeCode(platform, token, { client_id: APP, scope: 'openid identify guilds', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'nonce-secretish-1' });
    secrets.push(code);
    const wrongVerifier = pkce().verifier;
    secrets.push(wrongVerifier);
    await postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, code_verifier: wrongVerifier });
    const first = (await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP, code_verifier: verifier })).body;
    secrets.push(first.access_token, first.refresh_token as string, first.id_token as string);
    await bearer(platform, '/api/oauth2/@me', first.access_token);
    await bearer(platform, '/api/users/@me', first.access_token);
    const refreshed = (await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string, client_id: APP })).body;
    secrets.push(refreshed.access_token, refreshed.refresh_token as string, refreshed.id_token as string);
    await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string, client_id: APP });

    // Browser flow of a confidential client: a wrong secret, then Basic auth; then a revoke.
    const page = await fetch(`${platform.url}/oauth2/authorize?client_id=${backend.id}&scope=identify&state=st`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=bob&decision=approve',
    });
    const browserCode = new URL(page.headers.get('location') as string).searchParams.get('code') as string;
    secrets.push(browserCode);
    await postForm(platform, TOKEN, { grant_type: 'authorization_code', code: browserCode, client_id: backend.id, client_secret: 'wrong-secret-value-xyz' });
    secrets.push('wrong-secret-value-xyz');
    const bobTokens = (await postForm<TokenResponse>(platform, TOKEN, { grant_type: 'authorization_code', code: browserCode }, { basic: { id: backend.id, secret: backendSecret } })).body;
    secrets.push(bobTokens.access_token, bobTokens.refresh_token as string);
    await postForm(platform, '/api/oauth2/token/revoke', { token: bobTokens.access_token }, { basic: { id: backend.id, secret: backendSecret } });
    await bearer(platform, '/api/users/@me', bobTokens.access_token);

    // A grant deletion (gateway + webhook), then the webhook deliveries settle.
    const [grant] = (await api<OAuthGrant[]>(platform, 'GET', '/api/oauth2/tokens', { token })).body;
    await api(platform, 'DELETE', `/api/oauth2/tokens/${grant?.id}`, { token });
    await client.next(isDispatch('OAUTH2_GRANT_DELETE'));
    await receiver.waitFor(2);
    await stopTestPlatform(platform);

    // The private keys as stored.
    const state = await storedState(dataDir);
    secrets.push(state.oidc_key?.private_key ?? '', ...state.apps.map((app) => app.private_key));
    // Codes and tokens are stored hashed, never as issued.
    const stateText = JSON.stringify(state);
    for (const issued of [code, browserCode, first.access_token, first.refresh_token, refreshed.access_token, refreshed.refresh_token]) expect(stateText).not.toContain(issued);

    expect(lines.some((line) => line.includes('"level":"debug"'))).toBe(true);
    expect(lines.some((line) => line.includes('oauth2 token issued'))).toBe(true);
    expect(lines.some((line) => line.includes('webhook delivered'))).toBe(true);
    const all = lines.join('\n');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(all).not.toContain(secret);
      // Nor a recognisable piece of a PEM key.
      if (secret.includes('PRIVATE KEY')) expect(all).not.toContain(secret.split('\n')[1] as string);
    }
  });

  it('grants, tokens, client secrets and the id_token key survive a restart', async () => {
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir });
    const token = first.loginToken('alice');
    const code = await authorizeCode(first, token, { client_id: APP, scope: 'openid identify' });
    const tokens = (await postForm<TokenResponse>(first, TOKEN, { grant_type: 'authorization_code', code, client_id: APP })).body;
    const pending = await authorizeCode(first, token, { client_id: APP, scope: 'identify' });
    const secret = first.admin.apps()[0]?.client_secret;
    const keys = (await api(first, 'GET', '/api/oauth2/keys')).body;
    await stopTestPlatform(first);

    const second = await startTestPlatform({ dataDir });
    expect(second.admin.apps()[0]?.client_secret).toBe(secret);
    expect((await api(second, 'GET', '/api/oauth2/keys')).body).toEqual(keys);
    expect((await bearer(second, '/api/users/@me', tokens.access_token)).body).toMatchObject({ id: SEED.users.alice });
    expect((await api<OAuthGrant[]>(second, 'GET', '/api/oauth2/tokens', { token })).body).toHaveLength(1);
    expect((await postForm(second, TOKEN, { grant_type: 'authorization_code', code: pending, client_id: APP })).status).toBe(200);
    expect((await postForm(second, TOKEN, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: APP })).status).toBe(200);
  });
});
