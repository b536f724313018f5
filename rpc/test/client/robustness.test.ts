/* eslint-disable @typescript-eslint/no-explicit-any -- frames and replies are arbitrary JSON */
/**
 * Connection and Client behaviour a long-running game depends on: authorize while
 * reconnecting, disconnect() ending a browser authorize, a revoked token dropped and
 * reported, backoff that is not reset by a READY that does not last, keepalive after a
 * blocked event loop, discovery past another app's server, the custom-scheme authorize URL,
 * rich-presence results, and the invite's application.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, Opcode, RpcError, type RpcServerOptions } from '../../src/index.js';
import { AuthorizationArgs, Client, type ActivityInvite, type ConnectionStatus, type TokenInvalidated } from '../../client/index.js';
import { SdkConnection, type DisconnectDetail } from '../../client/connection/index.js';
import { Recorder } from '../compat/helpers.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/test-server.js';
import { FakeServer, READY_PAYLOAD, type FakeConnection } from './connection-support.js';

const APP_ID = '123456789012345678';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('companion-sdk-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function server(options: Partial<RpcServerOptions> = {}, dir?: string): Promise<TestServer> {
  const started = await startTestServer(options, dir);
  let closed = false;
  cleanups.push(() => (closed ? undefined : started.close()));
  return {
    ...started,
    close: async () => {
      closed = true;
      await started.close();
    },
  };
}

async function fakeServer(dir: string, name?: string): Promise<FakeServer> {
  const fake = await FakeServer.start(dir, name);
  cleanups.push(() => fake.close());
  return fake;
}

function sdkConnection(options: ConstructorParameters<typeof SdkConnection>[0] = {}): SdkConnection {
  const sdk = new SdkConnection({ backoff: { initialMs: 20, maxMs: 200, random: () => 0.5 }, ...options });
  cleanups.push(() => sdk.disconnect());
  return sdk;
}

function newClient(options: ConstructorParameters<typeof Client>[0] = {}): Client {
  const client = new Client({ logger: { sink: () => undefined }, ...options });
  cleanups.push(() => client.disconnect());
  return client;
}

function scopes(value = 'identify'): AuthorizationArgs {
  const args = new AuthorizationArgs();
  args.setScopes(value);
  return args;
}

/** `promise`, or a rejection after `ms` (so a test that would hang fails with a clear message). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms).unref())]);
}

function replyTo(conn: FakeConnection, payload: any, data: unknown = null): void {
  conn.write(encodeFrame(Opcode.Frame, { cmd: payload.cmd, data, evt: null, nonce: payload.nonce }));
}

describe('authorize while reconnecting', () => {
  it('does not stop the reconnecting and does not open the browser: ClientNotReady, the backoff goes on, and the connection comes back', async () => {
    const dir = await tempDir();
    const first = await server({}, dir);
    const opened: string[] = [];
    const client = newClient({
      env: { XDG_RUNTIME_DIR: dir },
      connection: { backoff: { initialMs: 150, maxMs: 300, random: () => 0.5 } },
      openUrl: (url) => void opened.push(url),
      browserAuthorizeTimeoutMs: 200,
    });
    client.setApplicationId(APP_ID);
    const statuses = new Recorder<ConnectionStatus>();
    client.setStatusChangedCallback((status) => statuses.push(status));
    const scheduled = new Recorder<number>();
    client.connection.on('reconnect-scheduled', (_delay, attempt) => scheduled.push(attempt));
    expect((await client.connect()).successful).toBe(true);

    await first.close();
    await statuses.until((s) => s === 'reconnecting');
    expect(client.getStatus()).toBe('reconnecting');

    const outcome = await client.authorize(scopes());
    expect(outcome).toMatchObject({ via: 'rpc', code: null, result: { successful: false, type: 'ClientNotReady', retryable: true } });
    expect(outcome.result.error).toContain('reconnecting');
    expect(opened).toEqual([]);
    expect(client.getStatus()).toBe('reconnecting');
    // The attempt authorize made counts in the schedule: the next one is attempt 1, not a restart.
    expect(scheduled.items).toEqual([0, 1]);

    // Companion comes back: the SDK finds it by itself.
    await server({}, dir);
    await statuses.until((s) => s === 'ready' && statuses.items.length > 2, 3000, 'ready after the companion is back');
    expect(client.getStatus()).toBe('ready');
  });

  it('SdkConnection.connect() while reconnecting rejects without resetting: the status stays reconnecting and the retries go on', async () => {
    const dir = await tempDir();
    const first = await server({}, dir);
    const sdk = sdkConnection({ env: { XDG_RUNTIME_DIR: dir }, backoff: { initialMs: 100, maxMs: 400, random: () => 0.5 } });
    const disconnects = new Recorder<DisconnectDetail>();
    sdk.on('disconnected', disconnects.push);
    const readies = new Recorder<unknown>();
    sdk.on('ready', readies.push);
    await sdk.connect(APP_ID);
    await first.close();
    await disconnects.until(() => true);
    expect(sdk.status).toBe('reconnecting');

    await expect(sdk.connect(APP_ID)).rejects.toMatchObject({ reason: 'no-socket' });
    expect(sdk.status).toBe('reconnecting');
    expect((sdk as any).retryTimer).toBeDefined();

    await server({}, dir);
    await readies.until(() => readies.items.length >= 2, 3000, 'READY after the companion is back');
    expect(sdk.status).toBe('ready');
  });
});

describe('disconnect() and a browser authorize in flight', () => {
  it('disconnect() aborts it: Aborted at once, the loopback listener closed', async () => {
    const dir = await tempDir();
    const opened = new Recorder<string>();
    const client = newClient({ connection: { socketPaths: [path.join(dir, 'discord-ipc-0')] }, platformBase: 'http://127.0.0.1:9', openUrl: opened.push, browserAuthorizeTimeoutMs: 30_000 });
    client.setApplicationId(APP_ID);
    const pending = client.authorize(scopes());
    const url = new URL(await opened.until(() => true));
    const redirect = url.searchParams.get('redirect_uri') ?? '';
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    await client.disconnect();
    const outcome = await within(pending, 2000, 'the aborted authorize');
    expect(outcome).toMatchObject({ via: 'browser', code: null, result: { type: 'Aborted' } });
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it('an AbortSignal passed to authorize aborts it too', async () => {
    const dir = await tempDir();
    const opened = new Recorder<string>();
    const client = newClient({ connection: { socketPaths: [path.join(dir, 'discord-ipc-0')] }, platformBase: 'http://127.0.0.1:9', openUrl: opened.push, browserAuthorizeTimeoutMs: 30_000 });
    client.setApplicationId(APP_ID);
    const controller = new AbortController();
    const called = new Recorder<string>();
    const pending = client.authorize(scopes(), (result) => called.push(result.type), { signal: controller.signal });
    await opened.until(() => true);
    controller.abort();
    expect((await within(pending, 2000, 'the aborted authorize')).result.type).toBe('Aborted');
    expect(called.items).toEqual(['Aborted']);
    // Already aborted: nothing is started.
    expect((await client.authorize(scopes(), undefined, { signal: controller.signal })).result.type).toBe('Aborted');
    expect(opened.items).toHaveLength(1);
  });
});

describe('a revoked token', () => {
  it('is dropped on CLOSE 4003 and the game is told; the reconnect does not send it again', async () => {
    const test = await server();
    const authenticated = new Recorder<string>();
    test.server.setCommandHandler('AUTHENTICATE', ({ request }) => {
      authenticated.push((request.args as { access_token: string }).access_token);
      return {};
    });
    const client = newClient({ connection: { socketPaths: [test.path], backoff: { initialMs: 20, maxMs: 100 } } });
    client.setApplicationId(APP_ID);
    const expired = new Recorder<TokenInvalidated>();
    client.setTokenExpirationCallback(expired.push);
    const statuses = new Recorder<[ConnectionStatus, string | null, number | null]>();
    client.setStatusChangedCallback((status, error, code) => statuses.push([status, error, code]));
    expect((await client.connect()).successful).toBe(true);
    expect((await client.updateToken('Bearer', 'token-1')).successful).toBe(true);
    expect(authenticated.items).toEqual(['token-1']);

    test.server.disconnectAll('Token revoked', 4003);
    expect(await expired.until(() => true)).toEqual({ reason: 'revoked', code: 4003, message: 'Token revoked' });
    await statuses.until(([s]) => s === 'ready' && statuses.items.length > 2, 3000, 'ready after the reconnect');
    expect(statuses.items[1]).toEqual(['reconnecting', '4003 Token revoked', 4003]);
    expect(client.connection.currentAccessToken).toBeNull();
    expect(authenticated.items).toEqual(['token-1']);

    // A new token is sent again after later reconnects.
    expect((await client.updateToken('Bearer', 'token-2')).successful).toBe(true);
    test.server.disconnectAll('restart');
    await authenticated.until((t) => t === 'token-2' && authenticated.items.length >= 3, 3000, 'token-2 restored');
    expect(expired.items).toHaveLength(1);
  });

  it('is dropped when the AUTHENTICATE that restores it is refused with 4009, and the game is told once', async () => {
    const test = await server();
    let valid = true;
    const authenticated = new Recorder<string>();
    test.server.setCommandHandler('AUTHENTICATE', ({ request }) => {
      authenticated.push((request.args as { access_token: string }).access_token);
      if (!valid) throw new RpcError(4009, 'Token does not match current user');
      return {};
    });
    const client = newClient({ connection: { socketPaths: [test.path], backoff: { initialMs: 20, maxMs: 100 } } });
    client.setApplicationId(APP_ID);
    const expired = new Recorder<TokenInvalidated>();
    client.setTokenExpirationCallback(expired.push);
    const readies = new Recorder<unknown>();
    client.connection.on('ready', readies.push);
    expect((await client.connect()).successful).toBe(true);
    expect((await client.updateToken('Bearer', 'token-1')).successful).toBe(true);

    valid = false;
    test.server.disconnectAll('restart');
    expect(await expired.until(() => true)).toEqual({ reason: 'invalid', code: 4009, message: 'Token does not match current user' });
    await readies.until(() => readies.items.length >= 2);
    expect(client.connection.currentAccessToken).toBeNull();

    test.server.disconnectAll('restart again');
    await readies.until(() => readies.items.length >= 3, 3000, 'the third READY');
    expect(authenticated.items).toEqual(['token-1', 'token-1']);
    expect(expired.items).toHaveLength(1);
  });
});

describe('backoff across short-lived connections', () => {
  it('a server that drops right after READY gets growing delays; a connection that stays up stableAfterMs resets them', async () => {
    const dir = await tempDir();
    const fake = await fakeServer(dir);
    let dropAfterReady = true;
    fake.onFrame = (conn, frame) => {
      if (frame.opcode !== Opcode.Handshake) return;
      conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
      if (dropAfterReady) setTimeout(() => conn.socket.destroy(), 5);
    };
    const sdk = sdkConnection({ socketPaths: [fake.path], pingIntervalMs: 0, backoff: { initialMs: 10, maxMs: 1000, random: () => 0.5 }, stableAfterMs: 100 });
    const scheduled = new Recorder<[number, number]>();
    sdk.on('reconnect-scheduled', (delay, attempt) => scheduled.push([delay, attempt]));
    const readies = new Recorder<unknown>();
    sdk.on('ready', readies.push);
    await sdk.connect(APP_ID);
    await scheduled.count(() => true, 4, 3000, 'four scheduled reconnects');
    dropAfterReady = false;
    expect(scheduled.items.slice(0, 4)).toEqual([
      [10, 0],
      [20, 1],
      [40, 2],
      [80, 3],
    ]);

    // This one stays: after stableAfterMs the next drop starts from the first delay again.
    const count = readies.items.length;
    await readies.until(() => readies.items.length > count, 3000, 'a lasting connection');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = scheduled.items.length;
    for (const conn of fake.connections.items) conn.socket.destroy();
    await scheduled.count(() => true, before + 1, 3000, 'the reconnect after a lasting connection');
    expect(scheduled.items[before]).toEqual([10, 0]);
  });
});

describe('keepalive after a blocked event loop', () => {
  it('does not drop a connection whose PONG is waiting unread when the deadline fires', async () => {
    const dir = await tempDir();
    const fake = await fakeServer(dir);
    fake.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
    };
    const sdk = sdkConnection({ socketPaths: [fake.path], pingIntervalMs: 20, pongTimeoutMs: 100 });
    const disconnects = new Recorder<DisconnectDetail>();
    sdk.on('disconnected', disconnects.push);
    await sdk.connect(APP_ID);
    const conn = await fake.connections.until(() => true);
    // The fake answers this PING at once; then the game's thread is busy for 3x the PONG limit,
    // so the PONG sits unread in the socket when the timers run again.
    await conn.frames.until((f) => f.opcode === Opcode.Ping);
    const end = Date.now() + 300;
    while (Date.now() < end) {
      // a long frame
    }
    const pings = conn.frames.items.filter((f) => f.opcode === Opcode.Ping).length;
    await conn.frames.count((f) => f.opcode === Opcode.Ping, pings + 5, 3000, 'PINGs after the pause');
    expect(disconnects.items).toEqual([]);
    expect(sdk.status).toBe('ready');
  });

  it('still drops a server that sends nothing after the PING', async () => {
    const dir = await tempDir();
    const fake = await fakeServer(dir);
    fake.answerPings = false;
    fake.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
    };
    const sdk = sdkConnection({ socketPaths: [fake.path], pingIntervalMs: 20, pongTimeoutMs: 60, autoReconnect: false });
    const disconnects = new Recorder<DisconnectDetail>();
    sdk.on('disconnected', disconnects.push);
    await sdk.connect(APP_ID);
    expect((await disconnects.until(() => true)).close).toMatchObject({ reason: 'keepalive-timeout', message: 'no PONG within 60 ms' });
  });
});

describe('discovery past a server that refuses the application', () => {
  it('a CLOSE 4000 at a lower index is skipped for the next socket; with none left the 4000 is reported', async () => {
    const dir = await tempDir();
    const other = await fakeServer(dir, 'discord-ipc-0');
    other.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeRawFrame(Opcode.Close, JSON.stringify({ code: 4000, message: 'Invalid Client ID' })));
    };
    const sdk = sdkConnection({ env: { XDG_RUNTIME_DIR: dir } });
    await expect(sdk.connect(APP_ID)).rejects.toMatchObject({ closeCode: 4000, fatal: true });

    const ours = await fakeServer(dir, 'discord-ipc-1');
    ours.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
    };
    await sdk.connect(APP_ID);
    expect(sdk.path).toBe(path.join(dir, 'discord-ipc-1'));
    expect(other.connections.items).toHaveLength(2);
  });
});

describe('authorize with only args.clientId()', () => {
  it('connects as that client id and authorizes over RPC', async () => {
    const test = await server();
    test.server.setCommandHandler('AUTHORIZE', ({ connection }) => ({ code: `code-for-${connection.clientId ?? ''}` }));
    const opened: string[] = [];
    const client = newClient({ connection: { socketPaths: [test.path] }, openUrl: (url) => void opened.push(url), browserAuthorizeTimeoutMs: 200 });
    const args = scopes();
    args.setClientId(APP_ID);
    const outcome = await client.authorize(args);
    expect(outcome).toMatchObject({ via: 'rpc', code: `code-for-${APP_ID}`, result: { successful: true } });
    expect(opened).toEqual([]);
  });
});

describe('customSchemeAuthorizeUrl', () => {
  it('builds the URL with the CustomSchemeParam redirect and the args state', () => {
    const client = newClient({ platformBase: 'http://127.0.0.1:4000/' });
    client.setApplicationId(APP_ID);
    const args = scopes('openid sdk.social_layer');
    args.setCustomSchemeParam('mygame');
    args.setState('state-1');
    expect(client.customSchemeAuthorizeUrl(args)).toEqual({
      url: `http://127.0.0.1:4000/oauth2/authorize?client_id=${APP_ID}&response_type=code&scope=openid%20sdk.social_layer&state=state-1&redirect_uri=mygame%3A%2Fauthorize%2Fcallback`,
      state: 'state-1',
      redirectUri: 'mygame:/authorize/callback',
    });
  });

  it('defaults to discord-<application id> and a generated state; args.clientId() wins over the application id', () => {
    const client = newClient({ platformBase: 'http://127.0.0.1:4000' });
    client.setApplicationId(APP_ID);
    const request = client.customSchemeAuthorizeUrl(scopes());
    expect(request.redirectUri).toBe(`discord-${APP_ID}:/authorize/callback`);
    expect(request.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(request.url).toBe(
      `http://127.0.0.1:4000/oauth2/authorize?client_id=${APP_ID}&response_type=code&scope=identify&state=${request.state}&redirect_uri=discord-${APP_ID}%3A%2Fauthorize%2Fcallback`,
    );
    expect(client.customSchemeAuthorizeUrl(scopes()).state).not.toBe(request.state);

    const sibling = scopes();
    sibling.setClientId('42');
    expect(client.customSchemeAuthorizeUrl(sibling)).toMatchObject({ redirectUri: 'discord-42:/authorize/callback' });
    expect(client.customSchemeAuthorizeUrl(sibling).url).toMatch(/^http:\/\/127\.0\.0\.1:4000\/oauth2\/authorize\?client_id=42&/);
    expect(() => newClient().customSchemeAuthorizeUrl(scopes())).toThrow(TypeError);
    expect(() => client.customSchemeAuthorizeUrl(AuthorizationArgs.nullobj)).toThrow(TypeError);
  });
});

describe('updateRichPresence when the connection drops mid-request', () => {
  it('is ok, as when not connected: the presence is kept and sent on the reconnect', async () => {
    const dir = await tempDir();
    const fake = await fakeServer(dir);
    fake.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
      if (frame.opcode !== Opcode.Frame || frame.payload.cmd !== 'SET_ACTIVITY') return;
      // The first connection dies before answering; later ones answer.
      if (conn === fake.connections.items[0]) conn.socket.destroy();
      else replyTo(conn, frame.payload, frame.payload.args.activity ?? null);
    };
    const client = newClient({ connection: { socketPaths: [fake.path], pingIntervalMs: 0, backoff: { initialMs: 20, maxMs: 100 } } });
    client.setApplicationId(APP_ID);
    expect((await client.connect()).successful).toBe(true);
    const result = await client.updateRichPresence({ state: 'In a squad' });
    expect(result).toMatchObject({ successful: true, type: 'None' });
    const second = await fake.connections.until((c) => c !== fake.connections.items[0], 3000, 'the reconnect');
    const restored = await second.frames.until((f) => f.opcode === Opcode.Frame && f.payload.cmd === 'SET_ACTIVITY');
    expect(restored.payload.args.activity).toEqual({ state: 'In a squad' });
  });
});

describe('invites', () => {
  it("reads the invite's application from its activity (a sibling app), else the game's id", async () => {
    const test = await server();
    const client = newClient({ connection: { socketPaths: [test.path] } });
    client.setApplicationId(APP_ID);
    expect((await client.connect()).successful).toBe(true);
    const invites = new Recorder<ActivityInvite>();
    expect((await client.setActivityInviteCreatedCallback(invites.push)).successful).toBe(true);
    const base = { type: 1, user: { id: '100000000000000002', username: 'bob' }, channel_id: '300', message_id: '400' };
    expect(test.server.dispatch('ACTIVITY_INVITE', { ...base, activity: { application_id: '999999999999999999', party: { id: 'p1' } } })).toBe(1);
    expect(test.server.dispatch('ACTIVITY_INVITE', { ...base, message_id: '401', activity: { party: { id: 'p2' } } })).toBe(1);
    await invites.count(() => true, 2);
    expect(invites.items.map((i) => [i.messageId, i.applicationId, i.partyId])).toEqual([
      ['400', '999999999999999999', 'p1'],
      ['401', APP_ID, 'p2'],
    ]);
  });
});
