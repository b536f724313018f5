import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformApi, PlatformApiError } from '../../../src/host/gateway/platform-api.js';
import { json, ScriptedHttp } from './support/scripted-http.js';

const TOKEN = 'api-T0ken-0a1b2c3d4e5f';

let http: ScriptedHttp;
beforeEach(async () => {
  http = await ScriptedHttp.start();
});
afterEach(async () => {
  await http.close();
});

async function rejection(promise: Promise<unknown>): Promise<PlatformApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformApiError);
  return error as PlatformApiError;
}

describe('PlatformApi', () => {
  it('sends the user token without prefix and parses JSON', async () => {
    const user = { id: '1', username: 'alice' };
    http.route = (_request, response) => json(response, 200, user);
    const api = new PlatformApi({ baseUrl: `${http.baseUrl}/`, token: TOKEN });
    expect(await api.me()).toEqual(user);
    const [request] = http.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/api/v10/users/@me');
    expect(request?.headers.authorization).toBe(TOKEN);
  });

  it("an HTTP error keeps the platform's own words apart (the first form problem named), without method, path or token", async () => {
    http.route = (_request, response) =>
      json(response, 400, { code: 50035, message: 'Invalid Form Body', errors: { activity: { _errors: [{ code: 'invalid_form', message: `not joinable ${TOKEN}` }] } } });
    const api = new PlatformApi({ baseUrl: `${http.baseUrl}/`, token: TOKEN });
    const error = await api.sendMessage('1', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as PlatformApiError).message).toContain('failed (400)');
    expect((error as PlatformApiError).reason).toBe('Invalid Form Body: not joinable [redacted]');
  });

  it('uses the routes of the contract', async () => {
    http.route = (request, response) => {
      if (request.url.endsWith('/decline-activity-request')) {
        response.writeHead(204).end();
        return;
      }
      const answers: Record<string, unknown> = {
        '/api/v10/gateway': { url: 'ws://127.0.0.1:9/gateway' },
        '/api/v10/auth/login': { user_id: '1', token: 'fresh' },
        '/api/v10/users/@me/relationships': [{ id: '2', type: 1, user: { id: '2' } }],
        '/api/v10/oauth2/applications/123/rpc': { id: '123', name: 'Game' },
        '/api/v10/users/@me/channels': { id: 'dm1', type: 1 },
        '/api/v10/channels/dm1/messages': { id: 'm1' },
        '/api/v10/users/2/activities/123/join': { secret: 's' },
      };
      json(response, 200, answers[request.url] ?? {});
    };
    const api = new PlatformApi({ baseUrl: http.baseUrl });
    expect(await api.gatewayUrl()).toBe('ws://127.0.0.1:9/gateway');
    expect(await api.login('alice')).toEqual({ user_id: '1', token: 'fresh' });
    expect(http.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    api.setToken('fresh');
    expect(await api.relationships()).toHaveLength(1);
    expect(await api.application('123')).toMatchObject({ name: 'Game' });
    expect(await api.openDm('2')).toMatchObject({ id: 'dm1' });
    expect(await api.sendMessage('dm1', { activity: { type: 1, party_id: 'p' }, application_id: '123' })).toEqual({ id: 'm1' });
    await api.declineActivityRequest('dm1', 'm9');
    expect(await api.joinActivity('2', '123', 'm1')).toEqual({ secret: 's' });
    expect(await api.joinActivity('2', '123')).toEqual({ secret: 's' });

    const sent = http.requests.map((r) => [r.method, r.url, r.body]);
    expect(sent).toEqual([
      ['GET', '/api/v10/gateway', ''],
      ['POST', '/api/v10/auth/login', '{"login":"alice"}'],
      ['GET', '/api/v10/users/@me/relationships', ''],
      ['GET', '/api/v10/oauth2/applications/123/rpc', ''],
      ['POST', '/api/v10/users/@me/channels', '{"recipient_id":"2"}'],
      ['POST', '/api/v10/channels/dm1/messages', '{"activity":{"type":1,"party_id":"p"},"application_id":"123"}'],
      ['POST', '/api/v10/channels/dm1/messages/m9/decline-activity-request', ''],
      ['POST', '/api/v10/users/2/activities/123/join', '{"message_id":"m1"}'],
      ['POST', '/api/v10/users/2/activities/123/join', '{}'],
    ]);
    expect(http.requests.at(-1)?.headers['content-type']).toBe('application/json');
    expect(http.requests.at(-1)?.headers.authorization).toBe('fresh');
  });

  it('returns null for an unknown application', async () => {
    http.route = (_request, response) => json(response, 404, { code: 10002, message: 'Unknown Application' });
    expect(await new PlatformApi({ baseUrl: http.baseUrl }).application('999')).toBeNull();
  });

  it('keeps ids inside their path segment', async () => {
    http.route = (_request, response) => json(response, 200, {});
    await new PlatformApi({ baseUrl: http.baseUrl }).application('../../users/@me');
    expect(http.requests[0]?.url).toBe('/api/v10/oauth2/applications/..%2F..%2Fusers%2F%40me/rpc');
  });

  it('throws PlatformApiError with status, code and message', async () => {
    http.route = (_request, response) => json(response, 403, { code: 50001, message: 'Missing Access' });
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl, token: TOKEN }).joinActivity('2', '123'));
    expect(error.status).toBe(403);
    expect(error.code).toBe(50001);
    expect(error.message).toContain('Missing Access');
    expect(error.retryAfter).toBeUndefined();
  });

  it('reports retry_after on 429', async () => {
    http.route = (_request, response) =>
      json(response, 429, { message: 'You are being rate limited.', retry_after: 1.25, global: false }, { 'Retry-After': '2' });
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl, token: TOKEN }).sendMessage('dm1', { content: 'hi' }));
    expect(error.status).toBe(429);
    expect(error.code).toBe(0);
    expect(error.retryAfter).toBe(1.25);
  });

  it('never puts the token into an error message, even when the server echoes it', async () => {
    http.route = (request, response) => json(response, 401, { code: 0, message: `bad token ${request.headers.authorization ?? ''}` });
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl, token: TOKEN }).me());
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(TOKEN);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(String(error.stack)).not.toContain(TOKEN);
  });

  it('refuses authenticated calls without a token', async () => {
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl }).me());
    expect(error.status).toBe(401);
    expect(http.requests).toHaveLength(0);
  });

  it('times out', async () => {
    http.route = () => {}; // never answers
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl, token: TOKEN, timeoutMs: 50 }).me());
    expect(error.status).toBe(0);
    expect(error.message).toContain('no answer within 50 ms');
  });

  it('reports a network error with its code', async () => {
    const dead = await ScriptedHttp.start();
    const port = new URL(dead.baseUrl).port;
    await dead.close();
    const error = await rejection(new PlatformApi({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN }).me());
    expect(error.status).toBe(0);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    http.route = (_request, response) => response.writeHead(200).end('<html>');
    const error = await rejection(new PlatformApi({ baseUrl: http.baseUrl, token: TOKEN }).me());
    expect(error.message).toContain('invalid JSON');
  });
});
