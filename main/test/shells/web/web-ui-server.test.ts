/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON messages */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { startTestServer, type TestServer } from '../../../../rpc/test/support/test-server.js';
import { BRIDGE_DEFLATE_PROTOCOL, BRIDGE_DEFLATE_THRESHOLD, INVOKE_CHANNELS } from '../../../../preload/src/contract.js';
import { ControlError } from '../../../src/host/control/control-backend.js';
import { isReservedPort } from '../../../src/host/control/control-server.js';
import { UiImages } from '../../../src/host/ui-bridge/ui-images.js';
import { startWebUi, type WebUi } from '../../../src/shells/web/web-ui-server.js';
import { ALICE, CONSENT_REQUESTS, GAMES, GRANTS, INVITES, JOIN_REQUESTS, STATUS } from '../../host/control/fake-backend.js';
import {
  APP_JS,
  BridgeClient,
  FakeSettings,
  FakeUiBackend,
  fakeRenderer,
  INDEX_HTML,
  OUTSIDE_SECRET,
  changeFriends,
  rawRequest,
  refusedUpgrade,
  sessionCookie,
  sleep,
} from '../../host/ui-bridge/support.js';

let backend: FakeUiBackend;
let settings: FakeSettings;
let rpc: TestServer;
let ui: WebUi;
let renderer: Awaited<ReturnType<typeof fakeRenderer>>;
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  backend = new FakeUiBackend();
  settings = new FakeSettings();
  rpc = await startTestServer();
  renderer = await fakeRenderer();
  // Topic rounds every 100 ms (the product's interval is longer: SNAPSHOT_INTERVAL_MS), so the spacing test is quick.
  ui = await startWebUi({ backend, server: rpc.server, settings, rendererDir: renderer.rendererDir, snapshotIntervalMs: 100 });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await ui.close();
  await rpc.close();
  await renderer.remove();
});

async function bridge(): Promise<BridgeClient> {
  const client = await BridgeClient.open(ui.port, await sessionCookie(ui.port, ui.token));
  cleanups.push(() => client.close());
  return client;
}

async function game(): Promise<RawClient> {
  const { client } = await RawClient.ready(rpc.path);
  cleanups.push(() => client.close());
  return client;
}

describe('web UI: HTTP access', () => {
  it('listens on loopback outside 6463-6472 and gives the tokenised URL', () => {
    expect(isReservedPort(ui.port)).toBe(false);
    expect(ui.url).toBe(`http://127.0.0.1:${ui.port}/?token=${ui.token}`);
    expect(ui.baseUrl).toBe(`http://127.0.0.1:${ui.port}/`);
    expect(ui.token.length).toBeGreaterThanOrEqual(32);
  });

  it('token flow: none → 401; ?token → 302 and a port-named HttpOnly SameSite=Strict cookie; cookie → index.html; wrong token → 401', async () => {
    const anonymous = await rawRequest(ui.port, '/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain('root');
    expect((await rawRequest(ui.port, '/assets/app.js')).status).toBe(401);

    const opened = await rawRequest(ui.port, `/?token=${ui.token}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/');
    const setCookie = opened.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(new RegExp(`^companion_ui_${ui.port}=[A-Za-z0-9_-]{43};`));
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain(ui.token);
    expect(ui.cookieName).toBe(`companion_ui_${ui.port}`);

    const cookie = setCookie.split(';')[0] as string;
    const page = await rawRequest(ui.port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toBe(INDEX_HTML);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');

    // Another host's cookie (another port) or a forged value does not open this one.
    expect((await rawRequest(ui.port, '/', { Cookie: `companion_ui_1234=${cookie.split('=')[1]}` })).status).toBe(401);
    expect((await rawRequest(ui.port, '/', { Cookie: `${ui.cookieName}=forged` })).status).toBe(401);

    const wrong = await rawRequest(ui.port, `/?token=${ui.token}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).not.toContain(ui.token);
  });

  it('refuses a foreign Host header (DNS rebinding) even with a valid cookie', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    for (const host of ['evil.example', `evil.example:${ui.port}`, `127.0.0.1:${ui.port + 1}`, `127.0.0.1`, `[::1]:${ui.port}`]) {
      const response = await rawRequest(ui.port, '/', { Host: host, Cookie: cookie });
      expect(response.status, host).toBe(421);
    }
    // The token flow too: no cookie for a rebound name.
    const rebound = await rawRequest(ui.port, `/?token=${ui.token}`, { Host: `evil.example:${ui.port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.headers['set-cookie']).toBeUndefined();
    expect((await rawRequest(ui.port, '/', { Host: `localhost:${ui.port}`, Cookie: cookie })).status).toBe(200);
  });

  it('refuses a foreign Origin (HTTP)', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${ui.port + 1}`, `https://127.0.0.1:${ui.port}`]) {
      expect((await rawRequest(ui.port, '/', { Origin: origin, Cookie: cookie })).status, origin).toBe(403);
    }
    expect((await rawRequest(ui.port, '/assets/app.js', { Origin: `http://127.0.0.1:${ui.port}`, Cookie: cookie })).status).toBe(200);
  });

  it('refuses path traversal, plain and encoded', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    for (const target of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%2fsecret.txt', '/..%5csecret.txt', '/assets%00/app.js', '/%zz']) {
      const response = await rawRequest(ui.port, target, { Cookie: cookie });
      expect(response.status, target).toBe(400);
      expect(response.body, target).not.toContain(OUTSIDE_SECRET);
    }
  });

  it('sends the CSP and hardening headers, content types, and the SPA fallback', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    const script = await rawRequest(ui.port, '/assets/app.js', { Cookie: cookie });
    expect(script.status).toBe(200);
    expect(script.body).toBe(APP_JS);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const csp = script.headers['content-security-policy'] ?? '';
    expect(csp).toContain(`default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:${ui.port}`);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['referrer-policy']).toBe('no-referrer');
    expect((await rawRequest(ui.port, '/assets/style.css', { Cookie: cookie })).headers['content-type']).toBe('text/css; charset=utf-8');
    // Refusals carry the headers too.
    expect((await rawRequest(ui.port, '/')).headers['content-security-policy']).toBe(csp);

    const route = await rawRequest(ui.port, '/friends/requests', { Cookie: cookie });
    expect(route.status).toBe(200);
    expect(route.body).toBe(INDEX_HTML);
    expect((await rawRequest(ui.port, '/assets/missing.js', { Cookie: cookie })).status).toBe(404);
    expect((await rawRequest(ui.port, '/', { Cookie: cookie }, 'POST')).status).toBe(405);
    const head = await rawRequest(ui.port, '/assets/app.js', { Cookie: cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('says how to build the UI when the renderer is not built', async () => {
    const bare = await startWebUi({ backend, server: rpc.server, settings, rendererDir: `${renderer.base}/not-built` });
    cleanups.push(() => bare.close());
    const cookie = await sessionCookie(bare.port, bare.token);
    const response = await rawRequest(bare.port, '/', { Cookie: cookie });
    expect(response.status).toBe(503);
    expect(response.body).toContain('not built');
    expect(response.body).toContain('vite build');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it("serves the host's pictures under cdn/ to a session only, sandboxed, from the platform's CDN", async () => {
    const cdn = http.createServer((req, res) => {
      if (req.url === '/app-icons/1234567890123456789/abc.png') res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => cdn.close(resolve)));
    const port = (cdn.address() as { port: number }).port;
    const images = new UiImages({ cdnBase: () => `http://127.0.0.1:${port}/`, assets: async () => [] });
    const withImages = await startWebUi({ backend, server: rpc.server, settings, rendererDir: renderer.rendererDir, images });
    cleanups.push(() => withImages.close());
    const path = '/cdn/app-icons/1234567890123456789/abc.png';
    expect((await rawRequest(withImages.port, path, { Host: `127.0.0.1:${withImages.port}` })).status).toBe(401);
    const cookie = await sessionCookie(withImages.port, withImages.token);
    const picture = await rawRequest(withImages.port, path, { Cookie: cookie, Host: `127.0.0.1:${withImages.port}` });
    expect(picture.status).toBe(200);
    expect(picture.headers['content-type']).toBe('image/svg+xml');
    expect(picture.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    expect(picture.body).toContain('<svg');
    expect((await rawRequest(withImages.port, '/cdn/app-icons/1234567890123456789/nope.png', { Cookie: cookie, Host: `127.0.0.1:${withImages.port}` })).status).toBe(404);
    // Without images (the UI's own server in this suite), cdn/ is 404, never the SPA's index.
    expect((await rawRequest(ui.port, path, { Cookie: await sessionCookie(ui.port, ui.token) })).status).toBe(404);
  });

  it('two servers use different cookies', async () => {
    const other = await startWebUi({ backend, server: rpc.server, settings, rendererDir: renderer.rendererDir });
    cleanups.push(() => other.close());
    expect(other.cookieName).not.toBe(ui.cookieName);
    const cookie = await sessionCookie(ui.port, ui.token);
    expect((await rawRequest(other.port, '/', { Cookie: cookie, Host: `127.0.0.1:${other.port}` })).status).toBe(401);
  });
});

describe('web UI: the WebSocket bridge', () => {
  it('refuses an upgrade without the cookie, from a foreign Origin, or for a foreign Host', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    const url = `ws://127.0.0.1:${ui.port}/bridge`;
    expect(await refusedUpgrade(url, {})).toBe(401);
    expect(await refusedUpgrade(url, { Cookie: cookie, Origin: 'http://evil.example' })).toBe(403);
    expect(await refusedUpgrade(url, { Cookie: cookie, Origin: 'null' })).toBe(403);
    expect(await refusedUpgrade(url, { Cookie: cookie, Host: `evil.example:${ui.port}` })).toBe(421);
    expect(await refusedUpgrade(`ws://127.0.0.1:${ui.port}/other`, { Cookie: cookie })).toBe(404);
    const client = await BridgeClient.open(ui.port, cookie);
    client.close();
  });

  it('maps every invoke channel to the backend', async () => {
    const client = await bridge();
    const snapshot = await client.invoke('companion:ready');
    expect(snapshot.status.account?.user.username).toBe('alice');
    expect(await client.invoke('companion:decide-consent', 'Rq_abc-123', 'approve')).toBeNull();
    expect(await client.invoke('companion:decide-consent', 'Rq_abc-123', 'deny')).toBeNull();
    expect(await client.invoke('companion:decide-consent', 'Rq_abc-123', 'dismiss')).toBeNull();
    expect(await client.invoke('companion:accept-join-request', '900')).toBeNull();
    expect(await client.invoke('companion:decline-join-request', '900')).toBeNull();
    expect(await client.invoke('companion:accept-invite', '901')).toEqual({ secret_delivered: true });
    expect(await client.invoke('companion:decline-invite', '902')).toBeNull();
    expect(await client.invoke('companion:decide-origin', 'OrIg1n-Req_000001', 'deny')).toBeNull();
    expect(await client.invoke('companion:forget-origin', 'OrIg1n-Req_000001')).toBeNull();
    expect((await client.invoke('companion:doctor')).clients[0]).toMatchObject({ name: 'pypresence', outcome: 'connects' });
    expect(await client.invoke('companion:update-presence', { policy: 'first-connected' })).toMatchObject({ policy: 'first-connected' });
    expect(await client.invoke('companion:set-recording', false)).toMatchObject({ recording: false });
    expect(await client.invoke('companion:watch-inspector', 0)).toEqual({ frames: [], outcomes: [] });
    expect(await client.invoke('companion:request-to-join', '200', null)).toEqual({ joined: false });
    expect(await client.invoke('companion:request-to-join', '200', '1234567890123456789')).toEqual({ joined: false });
    expect(await client.invoke('companion:send-invite', '200', null)).toEqual({ message_id: '777' });
    expect(await client.invoke('companion:send-dm', '200', 'gg')).toEqual({ message_id: '701' });
    expect(await client.invoke('companion:read-conversation', '200', true)).toBeNull();
    expect(await client.invoke('companion:change-relationship', '300', 'block')).toBeNull();
    expect(await client.invoke('companion:send-friend-request', 'zed')).toEqual({ accepted: false });
    expect(await client.invoke('companion:revoke-grant', '1234567890123456789')).toBeNull();
    expect(await client.invoke('companion:send-authorize-request', '1234567890123456789')).toEqual({ delivered: 2 });
    expect(await client.invoke('companion:login', 'alice')).toEqual({
      ...STATUS,
      account: { user: { id: ALICE.id, username: 'alice', discriminator: '0', global_name: 'Alice', avatar: null } },
    });
    expect((await client.invoke('companion:logout')).version).toBe(STATUS.version);
    expect(await client.invoke('companion:update-settings', { consent_policy: 'deny' })).toEqual({ consent_policy: 'deny', consent_always_ask: false, log_level: 'info', start_at_login: null });
    expect(await client.invoke('companion:update-settings', { consent_always_ask: true })).toEqual({ consent_policy: 'deny', consent_always_ask: true, log_level: 'info', start_at_login: null });
    expect(settings.updates).toEqual([{ consent_policy: 'deny' }, { consent_always_ask: true }]);
    expect(await client.invoke('companion:preview-device-code', ' bcdf-ghjk ')).toEqual({
      user_code: 'BCDF-GHJK',
      application: { id: '1234', name: 'Demo', icon: null },
      scopes: ['openid'],
      descriptions: [{ scope: 'openid', text: expect.any(String) }],
    });
    expect(await client.invoke('companion:decide-device-code', 'BCDF-GHJK', false)).toEqual({ approved: false });
    expect(await client.invoke('companion:close-device-screen', 'screen-1')).toBeNull();
    expect(await client.invoke('companion:update-detection', { enabled: false })).toMatchObject({ enabled: false });
    expect(await client.invoke('companion:running-programs')).toEqual([{ pid: 42, executable: 'mygame', path: '/opt/mygame/mygame' }]);
    expect(await client.invoke('companion:add-game', '/opt/mygame/mygame', 'My Game')).toMatchObject({ enabled: true });
    expect(await client.invoke('companion:remove-game', '1234567890123456789')).toMatchObject({ enabled: true });
    expect(await client.invoke('companion:set-voice', { mute: true })).toMatchObject({ mute: true, deaf: false, audio: false });

    const actions = backend.calls.filter((call) => !['status', 'games', 'friends', 'relationships', 'joinRequests', 'invites', 'conversations', 'consentRequests', 'grants', 'subscribe', 'originRequests', 'originDecisions', 'presence', 'recording', 'voice'].includes(call.method));
    expect(actions).toEqual([
      { method: 'approveConsent', args: ['Rq_abc-123'] },
      { method: 'denyConsent', args: ['Rq_abc-123'] },
      { method: 'dismissConsent', args: ['Rq_abc-123'] },
      { method: 'acceptJoinRequest', args: ['900'] },
      { method: 'declineJoinRequest', args: ['900'] },
      { method: 'acceptInvite', args: ['901'] },
      { method: 'declineInvite', args: ['902'] },
      { method: 'decideOrigin', args: ['OrIg1n-Req_000001', 'deny'] },
      { method: 'forgetOrigin', args: ['OrIg1n-Req_000001'] },
      { method: 'doctor', args: [] },
      { method: 'updatePresence', args: [{ policy: 'first-connected' }] },
      { method: 'setRecording', args: [false] },
      { method: 'requestToJoin', args: [{ user_id: '200' }] },
      { method: 'requestToJoin', args: [{ user_id: '200', application_id: '1234567890123456789' }] },
      { method: 'sendInvite', args: [{ user_id: '200' }] },
      { method: 'sendDm', args: ['200', 'gg'] },
      { method: 'readConversation', args: ['200', true] },
      { method: 'changeRelationship', args: ['300', 'block'] },
      { method: 'sendFriendRequest', args: ['zed'] },
      { method: 'revokeGrant', args: ['1234567890123456789'] },
      { method: 'sendAuthorizeRequest', args: ['1234567890123456789'] },
      { method: 'login', args: [{ username: 'alice' }] },
      { method: 'logout', args: [] },
      { method: 'previewDeviceCode', args: ['bcdf-ghjk'] },
      { method: 'decideDeviceCode', args: ['BCDF-GHJK', false] },
      { method: 'closeDeviceScreen', args: ['screen-1'] },
      { method: 'updateDetection', args: [{ enabled: false }] },
      { method: 'runningPrograms', args: [] },
      { method: 'addGame', args: ['/opt/mygame/mygame', 'My Game'] },
      { method: 'removeGame', args: ['1234567890123456789'] },
      { method: 'setVoice', args: [{ mute: true }] },
    ]);
    // Every channel of the contract was exercised above.
    expect([...client.sentChannels].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('answers invalid messages with an error and keeps the connection', async () => {
    const client = await bridge();
    const cases: [string, RegExp, number][] = [
      ['not json', /not valid JSON/, 0],
      [JSON.stringify([1, 2]), /^message/, 0],
      [JSON.stringify({ id: 5, channel: 'companion:nope', args: [] }), /unknown channel/, 5],
      [JSON.stringify({ id: 6, channel: 'other:ready', args: [] }), /unknown channel/, 6],
      [JSON.stringify({ id: 7, channel: 'companion:ready', args: [1] }), /^args/, 7],
      [JSON.stringify({ id: 8, channel: 'companion:accept-invite', args: [] }), /^args/, 8],
      [JSON.stringify({ id: 9, channel: 'companion:accept-invite', args: ['<script>'] }), /^args\.0/, 9],
      [JSON.stringify({ id: 10, channel: 'companion:decide-consent', args: ['x', 'maybe'] }), /^args\.1/, 10],
      [JSON.stringify({ id: 11, channel: 'companion:request-to-join', args: ['200'] }), /^args/, 11],
      [JSON.stringify({ id: 12, channel: 'companion:update-settings', args: [{ consent_policy: 'always' }] }), /^args\.0\.consent_policy/, 12],
      [JSON.stringify({ id: 13, channel: 'companion:update-settings', args: [{ extra: true }] }), /^args/, 13],
      [JSON.stringify({ id: 14, channel: 'companion:login', args: [''] }), /^args\.0/, 14],
      [JSON.stringify({ id: 15, channel: 'companion:ready', args: [], extra: 1 }), /^message/, 15],
      [JSON.stringify({ id: -1, channel: 'companion:ready', args: [] }), /^message\.id/, 0],
    ];
    for (const [text, error, id] of cases) {
      const before = client.messages.length;
      client.sendRaw(text);
      const answer = await client.waitFor((message) => client.messages.indexOf(message) >= before && 'ok' in message, text);
      expect(answer, text).toEqual({ id, ok: false, error: expect.stringMatching(error) });
    }
    expect(backend.calls.filter((call) => call.method === 'acceptInvite' || call.method === 'login' || call.method === 'approveConsent')).toEqual([]);
    expect(settings.updates).toEqual([]);
    // Still usable.
    expect(await client.invoke('companion:accept-invite', '901')).toEqual({ secret_delivered: true });
  });

  it('answers backend errors with their message only; unexpected ones as "internal error"', async () => {
    const client = await bridge();
    backend.failures.set('acceptInvite', new ControlError(409, 'This invite has expired'));
    expect(await client.request('companion:accept-invite', ['901'])).toEqual({ id: 1, ok: false, error: 'This invite has expired' });
    backend.failures.set('revokeGrant', new Error('secret internals at /home/x'));
    const reply = await client.request('companion:revoke-grant', ['1234567890123456789']);
    expect(reply).toEqual({ id: 2, ok: false, error: 'internal error' });
    expect(JSON.stringify(client.messages)).not.toMatch(/\n\s+at |internals/);
  });

  it('companion:ready answers the snapshot in the contract shape', async () => {
    const client = await bridge();
    const snapshot = await client.invoke('companion:ready');
    expect(Object.keys(snapshot).sort()).toEqual(['consent_requests', 'conversations', 'detection', 'device_screen', 'frames', 'friends', 'games', 'grants', 'invites', 'join_requests', 'origin_requests', 'origins', 'presence', 'recording', 'relationships', 'settings', 'status', 'voice']);
    expect(snapshot.games).toEqual(GAMES);
    expect(snapshot.relationships).toEqual([{ user: { id: '300', username: 'carol', discriminator: '0', global_name: 'Carol', avatar: null }, type: 'incoming' }]);
    expect(snapshot.join_requests).toEqual([{ id: '900', user: expect.objectContaining({ id: '200' }), application_id: JOIN_REQUESTS[0]?.application_id, received_at: 1 }]);
    expect(snapshot.join_requests[0]?.user).toEqual({ id: '200', username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null });
    expect(snapshot.invites[0]).toEqual({ id: '901', user: snapshot.join_requests[0]?.user, application_id: INVITES[0]?.application_id, activity: null, content: '', received_at: 2, expires_at: INVITES[0]?.expires_at, valid: true });
    const prompt = CONSENT_REQUESTS[0]!;
    expect(snapshot.consent_requests).toEqual([
      { id: prompt.id, application: prompt.application, scopes: prompt.scopes, expanded_scopes: prompt.expanded_scopes, descriptions: prompt.descriptions, integration_type: null, state: 'visible', expires_at: prompt.expires_at },
    ]);
    expect(snapshot.grants).toEqual(GRANTS.map((grant) => ({ ...grant, descriptions: expect.any(Array) })));
    expect(snapshot.settings).toEqual({ consent_policy: 'prompt', consent_always_ask: false, log_level: 'info', start_at_login: null });
    expect(snapshot.frames).toEqual([]);
    expect(snapshot.device_screen).toBeNull();
  });

  it('strips join secrets from activities in snapshots, whatever the backend hands over', async () => {
    const activity = { name: 'Demo', state: 'In a squad', party: { id: 'p1', size: [1, 4] }, secrets: { join: 'join-secret-XYZ' } };
    backend.games = () => [{ ...GAMES[0]!, activity: activity as any }];
    backend.friends = () => [{ user: ALICE, presence: { status: 'online', activities: [activity as any] } }];
    const client = await bridge();
    const snapshot = await client.invoke('companion:ready');
    expect(snapshot.games[0]?.activity).toEqual({ name: 'Demo', state: 'In a squad', party: { id: 'p1', size: [1, 4] } });
    expect(JSON.stringify(client.messages)).not.toContain('join-secret-XYZ');
  });

  it('queues pushes until companion:ready, then the ready snapshot carries what happened', async () => {
    const client = await bridge();
    const rawGame = await game();
    await rawGame.request('GET_SELECTED_VOICE_CHANNEL');
    changeFriends(backend, 1);
    await sleep(250);
    expect(client.pushes).toEqual([]);

    const snapshot = await client.invoke('companion:ready');
    // The handshake, READY, the command and its reply.
    expect(snapshot.frames.map((frame) => [frame.direction, frame.opcode, frame.cmd])).toEqual([
      ['in', Opcode.Handshake, null],
      ['out', Opcode.Frame, 'DISPATCH'],
      ['in', Opcode.Frame, 'GET_SELECTED_VOICE_CHANNEL'],
      ['out', Opcode.Frame, 'GET_SELECTED_VOICE_CHANNEL'],
    ]);
    expect(snapshot.frames.map((frame) => frame.seq)).toEqual([1, 2, 3, 4]);
    // Nothing already in the snapshot is pushed again.
    await sleep(200);
    expect(client.pushes).toEqual([]);

    expect(snapshot.friends[0]?.presence.activities).toEqual([{ name: 'Game 1', type: 0 }]);
    // The inspector comes on screen: frames are pushed from now on.
    expect(await client.invoke('companion:watch-inspector', 4)).toEqual({ frames: [], outcomes: [] });
    await rawGame.request('GET_SELECTED_VOICE_CHANNEL');
    changeFriends(backend, 2);
    const frames = await client.waitFor((message) => message.push === 'companion:frames', 'a frames push');
    expect(frames.payload.map((frame: any) => frame.seq)).toEqual([5, 6]);
    const topic = await client.waitFor((message) => message.push === 'companion:topic', 'a topic push');
    expect(topic.payload.topic).toBe('friends');
    expect(topic.payload.value[0].presence.activities).toEqual([{ name: 'Game 2', type: 0 }]);
  });

  it('pushes a changed topic once for a burst of backend changes, at most one per 100 ms', async () => {
    const client = await bridge();
    await client.invoke('companion:ready');
    for (let i = 0; i < 20; i++) {
      backend.games = () => [{ ...GAMES[0]!, activity: { name: 'Demo', state: `Level ${i}` } as any }];
      backend.emit({ type: 'game-activity', data: { i } });
    }
    await client.waitFor((message) => message.push === 'companion:topic', 'the first topic push');
    await sleep(200);
    expect(client.pushesOf('companion:topic').map((push) => push.topic)).toEqual(['games']);
    expect(client.pushesOf('companion:topic')[0].value[0].activity).toEqual({ name: 'Demo', state: 'Level 19' });

    // A steady stream of changes: pushes are spaced by at least ~100 ms.
    const times: number[] = [];
    client.ws.on('message', (data) => {
      if (String(data).startsWith('{"push":"companion:topic"')) times.push(Date.now());
    });
    const started = Date.now();
    for (let n = 0; Date.now() - started < 550; n++) {
      changeFriends(backend, n);
      await sleep(5);
    }
    await sleep(150);
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect(times.length).toBeLessThanOrEqual(7);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(90);

    // A settings change is no backend event but still reaches the UI.
    const before = client.pushesOf('companion:topic').length;
    await client.invoke('companion:update-settings', { consent_policy: 'approve' });
    const after = await client.waitFor(
      (message) => message.push === 'companion:topic' && message.payload.topic === 'settings' && message.payload.value.consent_policy === 'approve',
      'the new settings',
    );
    expect(after.payload.value).toMatchObject({ consent_policy: 'approve' });
    expect(client.pushesOf('companion:topic').length).toBeGreaterThan(before);
  });

  it('pushes frames in batches, in order, with secrets redacted', async () => {
    const client = await bridge();
    await client.invoke('companion:ready');
    await client.invoke('companion:watch-inspector', 0);
    const rawGame = await game();
    const batchTimes: number[] = [];
    client.ws.on('message', (data) => {
      if (String(data).startsWith('{"push":"companion:frames"')) batchTimes.push(Date.now());
    });
    rawGame.send(Opcode.Frame, { cmd: 'AUTHENTICATE', args: { access_token: 'tok-SECRET-abc123' }, nonce: 'n-auth' });
    rawGame.send(Opcode.Frame, {
      cmd: 'SET_ACTIVITY',
      args: { pid: 1, activity: { state: 'In a squad', party: { id: 'p', size: [1, 4] }, secrets: { join: 'join-SECRET-7f3a' } } },
      nonce: 'n-act',
    });
    for (let i = 0; i < 30; i++) rawGame.send(Opcode.Frame, { cmd: 'GET_SELECTED_VOICE_CHANNEL', nonce: `n-${i}` });
    await client.waitFor(() => client.pushesOf('companion:frames').flat().filter((frame: any) => frame.direction === 'out').length >= 33, 'every reply');
    const pushed = client.pushesOf('companion:frames');
    const all = pushed.flat();
    expect(pushed.length).toBeLessThan(all.length); // batched
    expect(all.map((frame: any) => frame.seq)).toEqual(all.map((_: unknown, i: number) => all[0].seq + i));
    for (let i = 1; i < batchTimes.length; i++) expect(batchTimes[i]! - batchTimes[i - 1]!).toBeGreaterThanOrEqual(40);

    const auth = all.find((frame: any) => frame.direction === 'in' && frame.cmd === 'AUTHENTICATE');
    expect(auth).toMatchObject({ connection_id: expect.any(String), opcode: Opcode.Frame, nonce: 'n-auth', evt: null, at: expect.any(Number) });
    expect(auth.payload).toEqual({ cmd: 'AUTHENTICATE', args: { access_token: '[redacted]' }, nonce: 'n-auth' });
    const activity = all.find((frame: any) => frame.direction === 'in' && frame.cmd === 'SET_ACTIVITY');
    expect(activity.payload.args.activity.secrets).toBe('[redacted]');
    expect(activity.payload.args.activity.state).toBe('In a squad');
    const everything = client.texts.join('\n');
    expect(everything).not.toContain('tok-SECRET-abc123');
    expect(everything).not.toContain('join-SECRET-7f3a');

    // The ring keeps them for the next snapshot, redacted as well.
    const later = await client.invoke('companion:ready');
    expect(later.frames.map((frame) => frame.seq)).toEqual(all.map((frame: any) => frame.seq));
    expect(JSON.stringify(later)).not.toContain('tok-SECRET-abc123');
  });

  it('issue 26 §4: keeps frames from its start, UI connected or not; listens for the topics only while one is', async () => {
    // The rings: frames, and the relay's outcomes among the host's events.
    expect(rpc.server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(1);
    const client = await bridge();
    expect(rpc.server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(2);
    client.close();
    await client.closed;
    await sleep(20);
    expect(rpc.server.listenerCount('frame')).toBe(1);
    expect(backend.listeners.size).toBe(1);
  });

  it('close() closes the bridges and the port, and stops keeping frames', async () => {
    const client = await bridge();
    await ui.close();
    expect(rpc.server.listenerCount('frame')).toBe(0);
    expect((await client.closed).code).toBe(1001);
    await expect(rawRequest(ui.port, '/')).rejects.toThrow();
  });
});

describe('web UI: compressed messages', () => {
  it('a page that offers the protocol gets messages of the threshold or more as raw DEFLATE, smaller ones as text', async () => {
    // Enough games that the snapshot passes the threshold.
    const many = Array.from({ length: 60 }, (_, i) => ({ ...GAMES[0]!, connection_id: `ipc-${i + 1}` }));
    backend.games = () => many;
    const client = await BridgeClient.open(ui.port, await sessionCookie(ui.port, ui.token), `http://127.0.0.1:${ui.port}`, [BRIDGE_DEFLATE_PROTOCOL]);
    cleanups.push(() => client.close());
    expect(client.ws.protocol).toBe(BRIDGE_DEFLATE_PROTOCOL);
    const snapshot = await client.invoke('companion:ready');
    expect(client.binaryMessages).toBe(1);
    expect(client.texts.at(-1)?.length).toBeGreaterThanOrEqual(BRIDGE_DEFLATE_THRESHOLD);
    expect(snapshot.games).toEqual(many);
    expect(snapshot.grants).toEqual(GRANTS.map((grant) => ({ ...grant, descriptions: expect.any(Array) })));
    await client.invoke('companion:decline-invite', '901');
    expect(client.binaryMessages).toBe(1); // the short answer came as text
  });

  it('a page that does not offer it gets text only', async () => {
    const client = await bridge();
    await client.invoke('companion:ready');
    expect(client.ws.protocol).toBe('');
    expect(client.binaryMessages).toBe(0);
  });
});
