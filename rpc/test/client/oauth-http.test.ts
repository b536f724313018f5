import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientResultError, type ClientResult } from '../../client/client-result.js';
import { getToken, refreshToken, revokeToken, scrubSecrets, DEFAULT_HTTP_TIMEOUT_MS } from '../../client/oauth-http.js';
import { createAuthorizationCodeVerifier } from '../../client/pkce.js';
import { getDefaultPresenceScopes } from '../../client/scopes.js';
import { rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';

const TIMEOUT = DEFAULT_HTTP_TIMEOUT_MS;

/** The ClientResult a promise rejects with (fails the test if it resolves or rejects otherwise). */
async function failure(promise: Promise<unknown>): Promise<ClientResult> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ClientResultError);
    return (error as ClientResultError).result;
  }
  throw new Error('expected a rejection');
}

function expectNoSecrets(result: ClientResult, secrets: string[]): void {
  const text = `${result.error} ${String(result)} ${JSON.stringify(result)}`;
  for (const secret of secrets) expect(text).not.toContain(secret);
}

async function pkceCode(platform: TestPlatform, scope = getDefaultPresenceScopes()): Promise<{ code: string; verifier: string }> {
  const pair = createAuthorizationCodeVerifier();
  const code = await rpcAuthorizationCode(platform, { scope, code_challenge: pair.challenge().challenge(), code_challenge_method: 'S256', nonce: 'n-1' });
  return { code, verifier: pair.verifier() };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function localServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('getToken / refreshToken / revokeToken against the emulator', () => {
  it('exchanges a PKCE code, refreshes, and revokes', async () => {
    const platform = await startTestPlatform();
    const { code, verifier } = await pkceCode(platform);
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, codeVerifier: verifier, timeoutMs: TIMEOUT });
    expect(token.tokenType).toBe('Bearer');
    expect(token.expiresIn).toBe(604800);
    expect(token.accessToken.length).toBeGreaterThan(10);
    expect(token.refreshToken.length).toBeGreaterThan(10);
    expect(token.scope.split(' ')).toEqual(expect.arrayContaining(['openid', 'identify', 'activities.write']));
    expect(token.idToken?.split('.')).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.idToken?.split('.')[1] ?? '', 'base64url').toString()) as { aud: string; nonce: string };
    expect(payload).toMatchObject({ aud: SEED_APP_ID, nonce: 'n-1' });

    const me = await fetch(`${platform.url}/api/v10/oauth2/@me`, { headers: { Authorization: `Bearer ${token.accessToken}` } });
    expect(me.status).toBe(200);

    // The code is single-use.
    const reused = await failure(getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, codeVerifier: verifier, timeoutMs: TIMEOUT }));
    expect(reused).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'invalid_grant', status: 400, successful: false, retryable: false });
    expectNoSecrets(reused, [code, verifier]);

    const refreshed = await refreshToken({ platformBase: `${platform.url}/`, applicationId: BigInt(SEED_APP_ID), refreshToken: token.refreshToken, timeoutMs: TIMEOUT });
    expect(refreshed.accessToken).not.toBe(token.accessToken);
    expect(refreshed.refreshToken).not.toBe(token.refreshToken);
    const stale = await failure(refreshToken({ platformBase: platform.url, applicationId: SEED_APP_ID, refreshToken: token.refreshToken, timeoutMs: TIMEOUT }));
    expect(stale).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'invalid_grant' });
    expect(stale.error).toBe('invalid_grant: Invalid "refresh_token" in request');
    expectNoSecrets(stale, [token.refreshToken]);

    await revokeToken({ platformBase: platform.url, applicationId: SEED_APP_ID, token: refreshed.accessToken, timeoutMs: TIMEOUT });
    const revoked = await fetch(`${platform.url}/api/v10/oauth2/@me`, { headers: { Authorization: `Bearer ${refreshed.accessToken}` } });
    expect(revoked.status).toBe(401);
    const dead = await failure(refreshToken({ platformBase: platform.url, applicationId: SEED_APP_ID, refreshToken: refreshed.refreshToken, timeoutMs: TIMEOUT }));
    expect(dead.oauthError).toBe('invalid_grant');
    // Revoking an unknown token is fine (RFC 7009).
    await revokeToken({ platformBase: platform.url, applicationId: SEED_APP_ID, token: 'not-a-token', tokenTypeHint: 'access_token', timeoutMs: TIMEOUT });
  });

  it('maps a wrong or missing verifier and an unknown grant without secrets in messages', async () => {
    const platform = await startTestPlatform();
    const { code, verifier } = await pkceCode(platform);
    const wrong = createAuthorizationCodeVerifier().verifier();
    const bad = await failure(getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, codeVerifier: wrong, timeoutMs: TIMEOUT }));
    expect(bad).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'invalid_grant' });
    expectNoSecrets(bad, [code, wrong]);
    const missing = await failure(getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: TIMEOUT }));
    expect(missing).toMatchObject({ type: 'InvalidRequest', oauthError: 'invalid_request', status: 400 });
    expectNoSecrets(missing, [code]);
    const unknown = await failure(getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code: 'made-up-code', codeVerifier: verifier, timeoutMs: TIMEOUT }));
    expect(unknown.oauthError).toBe('invalid_grant');
    // A refused exchange does not use the code up.
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, codeVerifier: verifier, timeoutMs: TIMEOUT });
    expect(token.tokenType).toBe('Bearer');
  });

  it('reports a wrong client secret as AuthorizationFailed 401 without the secret', async () => {
    const platform = await startTestPlatform();
    const app = platform.admin.createApp({ name: 'Confidential' });
    const secret = 'wrong-secret-value-123456';
    const result = await failure(refreshToken({ platformBase: platform.url, applicationId: app.id, clientSecret: secret, refreshToken: 'refresh-xyz-secret', timeoutMs: TIMEOUT }));
    expect(result).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'invalid_client', status: 401 });
    expectNoSecrets(result, [secret, 'refresh-xyz-secret']);
  });
});

describe('transport failures', () => {
  it('a refused connection is a retryable NetworkError', async () => {
    const base = await localServer((_req, res) => res.end());
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    const result = await failure(getToken({ platformBase: base, applicationId: '1', code: 'secret-code-1', timeoutMs: TIMEOUT }));
    expect(result).toMatchObject({ type: 'NetworkError', retryable: true, status: 0 });
    expect(result.error).toContain('ECONNREFUSED');
    expectNoSecrets(result, ['secret-code-1']);
  });

  it('no answer within timeoutMs is a Timeout; an aborted signal is Aborted', async () => {
    const base = await localServer(() => undefined); // never answers
    const started = Date.now();
    const timedOut = await failure(getToken({ platformBase: base, applicationId: '1', code: 'c', timeoutMs: 150 }));
    expect(timedOut).toMatchObject({ type: 'Timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(5000);
    const controller = new AbortController();
    const pending = failure(revokeToken({ platformBase: base, applicationId: '1', token: 't', timeoutMs: TIMEOUT, signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect((await pending).type).toBe('Aborted');
  });

  it('a non-OAuth HTTP error carries status, code and Retry-After; 5xx is ServerError', async () => {
    const base = await localServer((req, res) => {
      if (req.url?.endsWith('/revoke') === true) {
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down');
        return;
      }
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '3' }).end(JSON.stringify({ code: 0, message: 'You are being rate limited.', retry_after: 2.5 }));
    });
    const limited = await failure(getToken({ platformBase: base, applicationId: '1', code: 'c0de-secret', timeoutMs: TIMEOUT }));
    expect(limited).toMatchObject({ type: 'HttpError', status: 429, retryable: true, retryAfter: 3, error: 'HTTP 429: You are being rate limited.' });
    const down = await failure(revokeToken({ platformBase: base, applicationId: '1', token: 't', timeoutMs: TIMEOUT }));
    expect(down).toMatchObject({ type: 'ServerError', status: 503, retryable: true });
  });

  it('a server that echoes secrets has them cut out', async () => {
    const base = await localServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant', error_description: `bad code ${form.get('code') ?? ''} / ${form.get('code_verifier') ?? ''} / ${body}` }));
      });
    });
    const code = 'the/secret+code=1';
    const verifier = createAuthorizationCodeVerifier().verifier();
    const result = await failure(getToken({ platformBase: base, applicationId: '1', code, codeVerifier: verifier, clientSecret: 'cs-secret', timeoutMs: TIMEOUT }));
    expectNoSecrets(result, [code, verifier, 'cs-secret', encodeURIComponent(code)]);
    expect(result.error).toContain('[redacted]');
  });

  it('rejects bad arguments before sending', async () => {
    await expect(getToken({ platformBase: 'http://127.0.0.1:1', applicationId: '1', code: '', timeoutMs: TIMEOUT })).rejects.toThrow(TypeError);
    await expect(getToken({ platformBase: 'http://127.0.0.1:1', applicationId: 'x', code: 'c', timeoutMs: TIMEOUT })).rejects.toThrow(RangeError);
    await expect(getToken({ platformBase: 'http://127.0.0.1:1', applicationId: '1', code: 'c', timeoutMs: 0 })).rejects.toThrow(RangeError);
    // Raw, percent-encoded and form-encoded forms.
    expect(scrubSecrets('x a b y a%20b a+b', ['a b'])).toBe('x [redacted] y [redacted] [redacted]');
  });
});
