import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsentBroker } from '../../../src/host/auth/consent-broker.js';
import { consentControlEvents } from '../../../src/host/control/consent-views.js';
import { ControlError } from '../../../src/host/control/control-backend.js';
import {
  isReservedPort,
  listenOutsideReserved,
  startControlServer,
  type ControlServer,
  type ControlServerOptions,
} from '../../../src/host/control/control-server.js';
import { createLogger } from '../../../src/base/logger.js';
import { CONSENT_REQUESTS, FakeBackend, FRIENDS, GAMES, GRANTS, INVITES, JOIN_REQUESTS, RELATIONSHIPS, STATUS } from './fake-backend.js';

const TOKEN = 'control-Tk-0123456789abcdef';

let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(overrides: Partial<ControlServerOptions> = {}) {
  const backend = new FakeBackend();
  server = await startControlServer({ backend, token: TOKEN, ...overrides });
  return { backend, server };
}

function call(path: string, init: { method?: string; body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? TOKEN}`;
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const requestInit: RequestInit = { method: init.method ?? 'GET', headers };
  if (body !== undefined) requestInit.body = body;
  return fetch(`${server?.url ?? ''}${path}`, requestInit);
}

async function json(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

/** Every route with a body that would pass validation. */
const ROUTES: readonly { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/v1/status' },
  { method: 'GET', path: '/v1/games' },
  { method: 'GET', path: '/v1/friends' },
  { method: 'GET', path: '/v1/join-requests' },
  { method: 'POST', path: '/v1/join-requests/900/accept' },
  { method: 'POST', path: '/v1/join-requests/900/decline' },
  { method: 'GET', path: '/v1/invites' },
  { method: 'POST', path: '/v1/invites/901/accept' },
  { method: 'POST', path: '/v1/invites', body: { user_id: '200' } },
  { method: 'POST', path: '/v1/friends/200/join', body: {} },
  { method: 'GET', path: '/v1/account' },
  { method: 'POST', path: '/v1/account/login', body: { username: 'alice' } },
  { method: 'POST', path: '/v1/account/logout' },
  { method: 'GET', path: '/v1/events' },
  { method: 'GET', path: '/v1/consent' },
  { method: 'POST', path: '/v1/consent/Rq_abc-123/approve' },
  { method: 'POST', path: '/v1/consent/Rq_abc-123/deny' },
  { method: 'GET', path: '/v1/grants' },
  { method: 'DELETE', path: '/v1/grants/1234567890123456789' },
  { method: 'POST', path: '/v1/games/1234567890123456789/authorize-request' },
  { method: 'GET', path: '/v1/no-such-route' },
];

describe('control API authentication', () => {
  const variants: readonly [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token-0123456789' }],
    ['a token prefix', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['the token with a suffix', { authorization: `Bearer ${TOKEN}x` }],
    ['another scheme', { authorization: `Basic ${TOKEN}` }],
    ['the bare token', { authorization: TOKEN }],
  ];

  it.each(ROUTES.flatMap((route) => variants.map(([label, headers]) => ({ ...route, label, headers }))))(
    '$method $path with $label → 401',
    async ({ method, path, body, headers }) => {
      const { backend } = await start();
      const response = await call(path, { method, body, token: null, headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const payload = await json(response);
      expect(payload.error).toBe('unauthorized');
      expect(typeof payload.message).toBe('string');
      expect(backend.calls).toEqual([]);
    },
  );

  it('accepts the scheme in any case', async () => {
    await start();
    const response = await call('/v1/status', { token: null, headers: { authorization: `bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
  });
});

describe('control API routes', () => {
  const cases: readonly { method: string; path: string; body?: unknown; calls: unknown[][]; response: unknown }[] = [
    { method: 'GET', path: '/v1/status', calls: [['status']], response: STATUS },
    { method: 'GET', path: '/v1/games', calls: [['games']], response: { games: GAMES } },
    { method: 'GET', path: '/v1/friends', calls: [['friends'], ['relationships']], response: { friends: FRIENDS, relationships: RELATIONSHIPS } },
    { method: 'GET', path: '/v1/join-requests', calls: [['joinRequests']], response: { join_requests: JOIN_REQUESTS } },
    { method: 'POST', path: '/v1/join-requests/900/accept', calls: [['acceptJoinRequest', '900']], response: { ok: true } },
    { method: 'POST', path: '/v1/join-requests/9%3A1/decline', calls: [['declineJoinRequest', '9:1']], response: { ok: true } },
    { method: 'GET', path: '/v1/invites', calls: [['invites']], response: { invites: INVITES } },
    { method: 'POST', path: '/v1/invites/901/accept', body: {}, calls: [['acceptInvite', '901']], response: { secret_delivered: true } },
    {
      method: 'POST',
      path: '/v1/invites',
      body: { user_id: '200', application_id: '1234567890123456789', content: 'come play', extra: 1 },
      calls: [['sendInvite', { user_id: '200', application_id: '1234567890123456789', content: 'come play' }]],
      response: { message_id: '777' },
    },
    { method: 'POST', path: '/v1/invites', body: { user_id: '200' }, calls: [['sendInvite', { user_id: '200' }]], response: { message_id: '777' } },
    { method: 'POST', path: '/v1/friends/200/join', calls: [['requestToJoin', { user_id: '200' }]], response: { joined: false } },
    {
      method: 'POST',
      path: '/v1/friends/200/join',
      body: { application_id: '1234567890123456789' },
      calls: [['requestToJoin', { user_id: '200', application_id: '1234567890123456789' }]],
      response: { joined: false },
    },
    { method: 'GET', path: '/v1/account', calls: [['status']], response: { account: STATUS.account } },
    { method: 'POST', path: '/v1/account/login', body: { username: 'alice' }, calls: [['login', { username: 'alice' }]], response: { account: STATUS.account } },
    { method: 'POST', path: '/v1/account/login', body: { token: 'user-Tk-abc' }, calls: [['login', { token: 'user-Tk-abc' }]], response: { account: STATUS.account } },
    { method: 'POST', path: '/v1/account/logout', calls: [['logout']], response: { ok: true } },
    { method: 'GET', path: '/v1/consent', calls: [['consentRequests']], response: { consent_requests: CONSENT_REQUESTS } },
    { method: 'POST', path: '/v1/consent/Rq_abc-123/approve', calls: [['approveConsent', 'Rq_abc-123']], response: { ok: true } },
    { method: 'POST', path: '/v1/consent/Rq_abc-123/approve', body: {}, calls: [['approveConsent', 'Rq_abc-123']], response: { ok: true } },
    { method: 'POST', path: '/v1/consent/Rq_abc-123/deny', calls: [['denyConsent', 'Rq_abc-123']], response: { ok: true } },
    { method: 'GET', path: '/v1/grants', calls: [['grants']], response: { grants: GRANTS } },
    { method: 'DELETE', path: '/v1/grants/1234567890123456789', calls: [['revokeGrant', '1234567890123456789']], response: { ok: true } },
    {
      method: 'POST',
      path: '/v1/games/1234567890123456789/authorize-request',
      calls: [['sendAuthorizeRequest', '1234567890123456789']],
      response: { delivered: 2 },
    },
  ];

  it.each(cases)('$method $path → backend', async ({ method, path, body, calls, response }) => {
    const { backend } = await start();
    const answer = await call(path, { method, body });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await json(answer)).toEqual(response);
    expect(backend.calls.map((c) => [c.method, ...c.args])).toEqual(calls);
  });

  it('ignores the query string', async () => {
    await start();
    expect((await call('/v1/games?x=1')).status).toBe(200);
  });
});

describe('control API validation', () => {
  const cases: readonly { path: string; body?: unknown; raw?: string; field: string }[] = [
    { path: '/v1/invites', body: {}, field: 'user_id' },
    { path: '/v1/invites', body: { user_id: 200 }, field: 'user_id' },
    { path: '/v1/invites', body: { user_id: 'bob' }, field: 'user_id' },
    { path: '/v1/invites', body: { user_id: '200', application_id: 'x' }, field: 'application_id' },
    { path: '/v1/invites', body: { user_id: '200', content: 'x'.repeat(2001) }, field: 'content' },
    { path: '/v1/invites', body: [{ user_id: '200' }], field: 'body' },
    { path: '/v1/invites', raw: '{"user_id": ', field: 'body' },
    { path: '/v1/friends/bob/join', body: {}, field: 'user_id' },
    { path: '/v1/friends/200/join', body: { application_id: 5 }, field: 'application_id' },
    { path: '/v1/account/login', body: {}, field: 'username' },
    { path: '/v1/account/login', body: { username: '' }, field: 'username' },
    { path: '/v1/account/login', body: { username: 'x'.repeat(33) }, field: 'username' },
    { path: '/v1/account/login', body: { token: 7 }, field: 'token' },
    { path: '/v1/account/login', body: { username: 'alice', token: 'abc' }, field: 'body' },
    { path: '/v1/account/login', body: 'alice', field: 'body' },
    { path: '/v1/join-requests/a%20b/accept', field: 'id' },
    { path: '/v1/invites/901/accept', body: 5, field: 'body' },
    { path: '/v1/account/logout', body: null, field: 'body' },
  ];

  it.each(cases)('POST $path $body → 400 naming $field', async ({ path, body, raw, field }) => {
    const { backend } = await start();
    const init: Parameters<typeof call>[1] = { method: 'POST', body };
    if (raw !== undefined) init.raw = raw;
    const response = await call(path, init);
    expect(response.status).toBe(400);
    const payload = await json(response);
    expect(payload.error).toBe('invalid_request');
    expect(payload.message).toMatch(new RegExp(`^${field}: `));
    expect(backend.calls.filter((c) => c.method !== 'status')).toEqual([]);
  });
});

describe('control API validation of the consent, grant and authorize-request routes', () => {
  const cases: readonly { method: string; path: string; body?: unknown; field: string }[] = [
    { method: 'POST', path: '/v1/consent/a%20b/approve', field: 'id' },
    { method: 'POST', path: '/v1/consent/a%2Fb/deny', field: 'id' },
    { method: 'POST', path: `/v1/consent/${'x'.repeat(129)}/approve`, field: 'id' },
    { method: 'POST', path: '/v1/consent/Rq_abc-123/approve', body: 5, field: 'body' },
    { method: 'POST', path: '/v1/consent/Rq_abc-123/deny', body: [], field: 'body' },
    { method: 'DELETE', path: '/v1/grants/demo', field: 'application_id' },
    { method: 'DELETE', path: `/v1/grants/${'1'.repeat(21)}`, field: 'application_id' },
    { method: 'POST', path: '/v1/games/demo/authorize-request', field: 'application_id' },
    { method: 'POST', path: '/v1/games/1234567890123456789/authorize-request', body: 'now', field: 'body' },
  ];

  it.each(cases)('$method $path $body → 400 naming $field', async ({ method, path, body, field }) => {
    const { backend } = await start();
    const response = await call(path, { method, body });
    expect(response.status).toBe(400);
    const payload = await json(response);
    expect(payload.error).toBe('invalid_request');
    expect(payload.message).toMatch(new RegExp(`^${field}: `));
    expect(backend.calls).toEqual([]);
  });

  it('answers the backend\'s 404 for a request that is not pending and 405 for wrong methods', async () => {
    const { backend } = await start();
    backend.failures.set('approveConsent', new ControlError(404, 'no pending consent request Rq_gone'));
    const gone = await call('/v1/consent/Rq_gone/approve', { method: 'POST' });
    expect(gone.status).toBe(404);
    expect(await json(gone)).toEqual({ error: 'not_found', message: 'no pending consent request Rq_gone' });

    const getGrant = await call('/v1/grants/1234567890123456789');
    expect(getGrant.status).toBe(405);
    expect(getGrant.headers.get('allow')).toBe('DELETE');
    const deleteAll = await call('/v1/grants', { method: 'DELETE' });
    expect(deleteAll.status).toBe(405);
    expect(deleteAll.headers.get('allow')).toBe('GET');
    expect((await call('/v1/consent/Rq_abc-123', { method: 'POST' })).status).toBe(404);
  });
});

describe('control API errors', () => {
  it('answers 404 for an unknown route and 405 with Allow for a wrong method', async () => {
    await start();
    const missing = await call('/v1/nothing');
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe('not_found');
    expect((await call('/status')).status).toBe(404);
    expect((await call('/v1/status/')).status).toBe(404);

    const wrong = await call('/v1/status', { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await json(wrong)).error).toBe('method_not_allowed');
    const del = await call('/v1/invites', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 413 for a body over 64 KiB, declared or streamed, and stays usable', async () => {
    const { backend } = await start();
    const big = JSON.stringify({ user_id: '200', content: 'x'.repeat(64 * 1024) });
    const declared = await call('/v1/invites', { method: 'POST', raw: big });
    expect(declared.status).toBe(413);
    expect((await json(declared)).error).toBe('payload_too_large');

    // Chunked, without Content-Length: counted while reading.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL('/v1/invites', server?.url);
      const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(4096));
      req.end();
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: 'payload_too_large' });

    // Exactly at the limit is still read (and then validated).
    const atLimit = JSON.stringify({ user_id: '200', content: '' }).padEnd(64 * 1024, ' ');
    expect((await call('/v1/invites', { method: 'POST', raw: atLimit })).status).toBe(200);
    expect(backend.calls.map((c) => c.method)).toEqual(['sendInvite']);
  });

  it('maps a backend error with a status to that status and message, others to a generic 500', async () => {
    const { backend } = await start();
    backend.failures.set('acceptInvite', new ControlError(404, 'no invite 901'));
    const notFound = await call('/v1/invites/901/accept', { method: 'POST' });
    expect(notFound.status).toBe(404);
    expect(await json(notFound)).toEqual({ error: 'not_found', message: 'no invite 901' });

    backend.failures.set('sendInvite', Object.assign(new Error('activity not joinable'), { status: 409, code: 'not_joinable' }));
    const conflict = await call('/v1/invites', { method: 'POST', body: { user_id: '200' } });
    expect(conflict.status).toBe(409);
    expect(await json(conflict)).toEqual({ error: 'not_joinable', message: 'activity not joinable' });

    backend.failures.set('games', new Error('database path /secret/thing exploded'));
    const crash = await call('/v1/games');
    expect(crash.status).toBe(500);
    expect(await json(crash)).toEqual({ error: 'internal_error', message: 'internal error' });

    backend.failures.set('friends', Object.assign(new Error('odd'), { status: 200 }));
    expect((await call('/v1/friends')).status).toBe(500);
  });
});

describe('control API events', () => {
  async function openStream(path = '/v1/events') {
    const controller = new AbortController();
    const response = await fetch(`${server?.url ?? ''}${path}`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    /** Reads until the stream holds `pattern`. */
    const until = async (pattern: RegExp): Promise<string> => {
      while (!pattern.test(buffered)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${String(pattern)}: ${buffered}`);
        buffered += decoder.decode(value, { stream: true });
      }
      return buffered;
    };
    return { response, reader, until, abort: () => controller.abort() };
  }

  it('streams backend events as SSE with heartbeats, and unsubscribes when the client leaves', async () => {
    const { backend } = await start({ heartbeatMs: 40 });
    const stream = await openStream();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.until(/: connected\n\n/);
    expect(backend.listeners.size).toBe(1);

    backend.emit({ type: 'presence', data: { user_id: '200', status: 'idle' } });
    backend.emit({ type: 'bad\ntype', data: undefined });
    const text = await stream.until(/event: bad type\n/);
    expect(text).toContain('id: 1\nevent: presence\ndata: {"user_id":"200","status":"idle"}\n\n');
    expect(text).toContain('id: 2\nevent: bad type\ndata: null\n\n');
    await stream.until(/: heartbeat\n\n/);

    stream.abort();
    await expect.poll(() => backend.listeners.size).toBe(0);
  });

  it('streams the consent broker\'s events as consent-request, consent-settled and consent-auto-approved', async () => {
    const { backend } = await start();
    let covered = false;
    const broker = new ConsentBroker({ grants: { covers: () => covered }, newId: () => 'Rq_1', clock: { now: () => 1000, setTimeout: () => 0, clearTimeout: () => undefined } });
    const stream = await openStream();
    await stream.until(/: connected\n\n/);
    const unsubscribe = consentControlEvents(broker, (event) => backend.emit(event));
    const input = {
      applicationId: '1234567890123456789',
      applicationName: 'Demo',
      applicationIcon: null,
      verified: false,
      scopes: ['identify'],
      integrationType: null,
      prompt: 'consent' as const,
      connectionId: 'ipc-1',
    };
    const asked = broker.ask(input);
    expect(broker.decide('Rq_1', 'deny')).toBe(true);
    await expect(asked).resolves.toEqual({ kind: 'denied' });
    covered = true;
    await expect(broker.ask(input)).resolves.toEqual({ kind: 'approved', remembered: true });
    const text = await stream.until(/event: consent-auto-approved\n/);
    unsubscribe();
    const events = [...text.matchAll(/event: (\S+)\ndata: (.*)\n\n/g)].map((m) => [m[1], JSON.parse(m[2] ?? 'null') as unknown]);
    const view = {
      id: 'Rq_1',
      application: { id: '1234567890123456789', name: 'Demo', icon: null, verified: false },
      scopes: ['identify'],
      expanded_scopes: ['identify'],
      descriptions: [{ scope: 'identify', text: 'Know your username, avatar and banner' }],
      integration_type: null,
      prompt: 'consent',
      connection_id: 'ipc-1',
      created_at: 1000,
    };
    expect(events).toEqual([
      ['consent-request', { ...view, state: 'visible', visible_at: 1000, expires_at: 301_000 }],
      ['consent-settled', { request: { ...view, state: 'settled', visible_at: 1000, expires_at: 301_000 }, outcome: { kind: 'denied' } }],
      ['consent-auto-approved', { ...view, state: 'settled', visible_at: null, expires_at: null }],
    ]);
    stream.abort();
  });

  it('close() ends open streams', async () => {
    const { backend, server: running } = await start();
    const stream = await openStream();
    await stream.until(/: connected/);
    await running.close();
    server = undefined;
    await expect(stream.until(/never/)).rejects.toThrow(/stream ended|terminated/);
    expect(backend.listeners.size).toBe(0);
  });
});

describe('control API port and token', () => {
  it('skips ports in 6463-6472 and closes the listeners it rejected', async () => {
    const ports = [6463, 6472, 40000];
    const closed: number[] = [];
    const chosen = await listenOutsideReserved(async () => {
      const port = ports.shift() as number;
      return { port, close: async () => void closed.push(port) };
    });
    expect(chosen.port).toBe(40000);
    // The rejected ones stayed open while retrying (the OS could not give them back), then closed.
    expect(closed.sort()).toEqual([6463, 6472]);
  });

  it('gives up after the attempts and closes everything', async () => {
    const closed: number[] = [];
    await expect(listenOutsideReserved(async () => ({ port: 6465, close: async () => void closed.push(6465) }), 3)).rejects.toThrow(/6463-6472/);
    expect(closed).toEqual([6465, 6465, 6465]);
  });

  it('knows the range', () => {
    expect([6462, 6463, 6467, 6472, 6473].map(isReservedPort)).toEqual([false, true, true, true, false]);
  });

  it('listens on 127.0.0.1 outside the range with a random 32-byte token by default', async () => {
    const backend = new FakeBackend();
    server = await startControlServer({ backend });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(isReservedPort(server.port)).toBe(false);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startControlServer({ backend });
    expect(other.token).not.toBe(server.token);
    await other.close();
    const response = await fetch(`${server.url}/v1/status`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(response.status).toBe(200);
  });

  it('refuses a non-loopback host and a weak token', async () => {
    const backend = new FakeBackend();
    await expect(startControlServer({ backend, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(startControlServer({ backend, token: 'short' })).rejects.toThrow(/16 characters/);
  });
});

describe('control API logs', () => {
  it('never logs the control token or a login token, even when errors quote them', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const logger = createLogger({ level: 'trace', destination });
    const { backend } = await start({ logger });
    const loginToken = 'user-Login-Tk-55aa66bb';

    await call('/v1/status');
    await call('/v1/status', { token: `${TOKEN}-wrong` });
    await call(`/v1/status?token=${TOKEN}`, { token: null });
    await call(`/v1/${TOKEN}`);
    await call('/v1/account/login', { method: 'POST', body: { token: loginToken } });
    await call('/v1/account/login', { method: 'POST', body: { token: loginToken, username: 'x' } });
    backend.failures.set('login', new Error(`platform refused token ${loginToken} (control ${TOKEN})`));
    const failed = await call('/v1/account/login', { method: 'POST', body: { token: loginToken } });
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain(loginToken);
    backend.failures.set('status', Object.assign(new Error(`upstream 503 for ${TOKEN}`), { status: 503 }));
    expect((await call('/v1/status')).status).toBe(503);

    const log = lines.join('');
    // The log did record the requests and the failure, so the check below is not vacuous.
    expect(log).toContain('control API request');
    expect(log).toContain('control API: backend failed');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(loginToken);
  });
});
