/* eslint-disable @typescript-eslint/no-explicit-any -- frames and replies are arbitrary JSON */
/**
 * The SDK's connection layer against a real RpcServer on temp Unix sockets (and a byte-level
 * fake server for what a real server never does): discovery order, framing, request
 * timeouts, keepalive, close codes, reconnect with backoff and the state restored after it.
 */
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, listenIpc, Opcode, RpcServer, type ActivityChange, type IpcListener, type RpcConnection, type RpcServerOptions, type Subscription } from '../../src/index.js';
import {
  backoffDelay,
  candidateSocketPaths,
  ConnectError,
  discoveryDirectories,
  RpcRequestError,
  SANDBOX_SUBDIRECTORIES,
  SdkConnection,
  type ConnectionStatus,
  type DisconnectDetail,
} from '../../client/connection/index.js';
import { Recorder } from '../compat/helpers.js';
import { makeTempDir, startTestServer, TEST_IDENTITY, type TestServer } from '../support/test-server.js';
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
  cleanups.push(() => started.close());
  return started;
}

/** A real RpcServer bound in `dir` (lowest free index); closed after the test. */
async function bindIn(dir: string, rpc = new RpcServer({ identity: () => TEST_IDENTITY })): Promise<{ rpc: RpcServer; listener: IpcListener }> {
  await mkdir(dir, { recursive: true });
  const listener = await listenIpc({ dir, onConnection: (socket) => rpc.attach(socket) });
  cleanups.push(async () => {
    const closing = listener.close();
    await rpc.closeAll();
    await closing;
  });
  return { rpc, listener };
}

function connection(options: ConstructorParameters<typeof SdkConnection>[0] = {}): SdkConnection {
  const sdk = new SdkConnection({ backoff: { initialMs: 20, maxMs: 200, random: () => 0.5 }, ...options });
  cleanups.push(() => sdk.disconnect());
  return sdk;
}

function record<T extends unknown[]>(emitter: SdkConnection, event: 'status' | 'disconnected' | 'ready' | 'event' | 'reconnect-scheduled' | 'reconnect-failed'): Recorder<T> {
  const recorder = new Recorder<T>();
  (emitter as any).on(event, (...args: T) => recorder.push(args));
  return recorder;
}

describe('socket discovery', () => {
  it('lists, for each directory of the env rule, each index with the plain path first and then the sandbox sub-directories', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000/', TMPDIR: '/var/tmp', TEMP: '/run/user/1000' };
    expect(discoveryDirectories(env)).toEqual(['/run/user/1000', '/var/tmp', '/tmp']);
    const paths = candidateSocketPaths(env, 'linux');
    const perIndex = 1 + SANDBOX_SUBDIRECTORIES.length;
    expect(paths).toHaveLength(3 * 10 * perIndex);
    expect(paths.slice(0, 4)).toEqual([
      '/run/user/1000/discord-ipc-0',
      '/run/user/1000/snap.discord/discord-ipc-0',
      '/run/user/1000/app/com.discordapp.Discord/discord-ipc-0',
      '/run/user/1000/app/com.discordapp.DiscordCanary/discord-ipc-0',
    ]);
    expect(paths[perIndex]).toBe('/run/user/1000/discord-ipc-1');
    expect(paths[10 * perIndex]).toBe('/var/tmp/discord-ipc-0');
    expect(paths).toContain('/run/user/1000/.flatpak/com.discordapp.Discord/xdg-run/discord-ipc-9');
    expect(discoveryDirectories({})).toEqual(['/tmp']);
    expect(candidateSocketPaths({}, 'win32')).toEqual(Array.from({ length: 10 }, (_, i) => `\\\\?\\pipe\\discord-ipc-${i}`));
  });

  it('connects to the plain socket before a sandbox one at the same index, and to the lowest index', async () => {
    const dir = await tempDir();
    const sandboxed = await bindIn(path.join(dir, 'snap.discord'));
    const plain0 = await bindIn(dir);
    const plain1 = await bindIn(dir);
    expect([plain0.listener.index, plain1.listener.index, sandboxed.listener.index]).toEqual([0, 1, 0]);

    const first = connection({ env: { XDG_RUNTIME_DIR: dir } });
    await first.connect(APP_ID);
    expect(first.path).toBe(path.join(dir, 'discord-ipc-0'));

    // Without index 0 in the plain directory, the sandbox's index 0 comes before plain index 1.
    await first.disconnect();
    await plain0.listener.close();
    const second = connection({ env: { XDG_RUNTIME_DIR: dir } });
    await second.connect(APP_ID);
    expect(second.path).toBe(path.join(dir, 'snap.discord', 'discord-ipc-0'));
  });

  it('finds a socket that exists only in a sandbox sub-directory, and skips lower plain indices that nobody serves', async () => {
    const dir = await tempDir();
    const flatpak = await bindIn(path.join(dir, 'app', 'com.discordapp.Discord'));
    const sdk = connection({ env: { XDG_RUNTIME_DIR: dir } });
    const ready = await sdk.connect(APP_ID);
    expect(sdk.path).toBe(path.join(dir, 'app', 'com.discordapp.Discord', 'discord-ipc-0'));
    expect(ready.user).toMatchObject({ id: TEST_IDENTITY.user.id, username: 'tester' });
    expect([...flatpak.rpc.connections()].map((c) => c.clientId)).toEqual([APP_ID]);
  });

  it('follows a symlink from the plain path to a sandbox socket (the Flatpak workaround)', async () => {
    const dir = await tempDir();
    const flatpak = await bindIn(path.join(dir, 'app', 'com.discordapp.Discord'));
    await symlink(flatpak.listener.path, path.join(dir, 'discord-ipc-0'));
    const sdk = connection({ env: { XDG_RUNTIME_DIR: dir } });
    await sdk.connect(APP_ID);
    expect(sdk.path).toBe(path.join(dir, 'discord-ipc-0'));
  });

  it('with no socket anywhere, connect() rejects with no-socket and the status stays disconnected', async () => {
    const dir = await tempDir();
    const sdk = connection({ socketPaths: [path.join(dir, 'discord-ipc-0')] });
    const error = await sdk.connect(APP_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).reason).toBe('no-socket');
    expect(sdk.status).toBe('disconnected');
  });
});

describe('framing and requests', () => {
  it('reassembles READY written byte by byte, and a reply and an event coalesced in one write; each request is one write', async () => {
    const dir = await tempDir();
    const fake = await FakeServer.start(dir);
    cleanups.push(() => fake.close());
    fake.onFrame = (conn: FakeConnection, frame) => {
      if (frame.opcode === Opcode.Handshake) {
        const bytes = encodeFrame(Opcode.Frame, READY_PAYLOAD);
        // One byte per write, each in its own turn of the event loop.
        const writeFrom = (i: number): void => {
          if (i >= bytes.length) return;
          conn.write(bytes.subarray(i, i + 1));
          setImmediate(() => writeFrom(i + 1));
        };
        writeFrom(0);
      } else if (frame.opcode === Opcode.Frame && frame.payload.cmd === 'SUBSCRIBE') {
        const event = encodeFrame(Opcode.Frame, { cmd: 'DISPATCH', data: { secret: 's3cret' }, evt: 'ACTIVITY_JOIN', nonce: null });
        const reply = encodeFrame(Opcode.Frame, { cmd: 'SUBSCRIBE', data: { evt: frame.payload.evt }, evt: null, nonce: frame.payload.nonce });
        conn.write(Buffer.concat([reply, event, encodeFrame(Opcode.Ping, 'ping-1')]));
      }
    };
    const sdk = connection({ socketPaths: [fake.path], pingIntervalMs: 0 });
    const events = record<[string, unknown]>(sdk, 'event');
    const ready = await sdk.connect(APP_ID);
    expect(ready.user?.username).toBe('tester');

    const conn = await fake.connections.until(() => true);
    let chunks = 0;
    conn.socket.on('data', () => (chunks += 1));
    await sdk.subscribe('ACTIVITY_JOIN');
    expect(await events.until(([evt]) => evt === 'ACTIVITY_JOIN')).toEqual(['ACTIVITY_JOIN', { secret: 's3cret' }]);
    // The server's PING in the same chunk got a PONG with the same bytes.
    const pong = await conn.frames.until((f) => f.opcode === Opcode.Pong);
    expect(pong.raw.toString()).toBe('"ping-1"');
    expect(conn.frames.items.map((f) => f.opcode)).toEqual([Opcode.Handshake, Opcode.Frame, Opcode.Pong]);
    expect(conn.frames.items[0]!.payload).toEqual({ v: 1, client_id: APP_ID });
    expect(chunks).toBe(2); // the SUBSCRIBE frame and the PONG frame: one write each
  });

  it('a request without a reply rejects with a timeout after the configured time; the connection stays usable', async () => {
    const test = await server({ closeGraceMs: 50 });
    const answers: (() => void)[] = [];
    test.server.setCommandHandler('AUTHORIZE', () => new Promise((resolve) => answers.push(() => resolve({ code: 'late' }))));
    const sdk = connection({ socketPaths: [test.path], requestTimeoutMs: 150 });
    await sdk.connect(APP_ID);
    const started = Date.now();
    const error = await sdk.request('AUTHORIZE', { scopes: ['identify'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcRequestError);
    expect(error).toMatchObject({ kind: 'timeout', cmd: 'AUTHORIZE', code: null, retryable: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // A per-request timeout overrides the default.
    // The server runs one command at a time: answer the first, then the second times out at its own limit.
    const second = sdk.request('AUTHORIZE', { scopes: ['identify'] }, { timeoutMs: 40 });
    answers.shift()!();
    await expect(second).rejects.toMatchObject({ kind: 'timeout', message: 'AUTHORIZE: no reply within 40 ms' });
    answers.shift()!();
    // The late replies are dropped, and the connection goes on.
    expect(await sdk.request('SET_ACTIVITY', { pid: process.pid })).toBeNull();
    expect(sdk.status).toBe('ready');
  });

  it('an ERROR reply rejects with its code and message; requests while disconnected reject with not-connected', async () => {
    const test = await server();
    const sdk = connection({ socketPaths: [test.path] });
    await expect(sdk.request('GET_GUILDS', {})).rejects.toMatchObject({ kind: 'not-connected', retryable: true });
    await sdk.connect(APP_ID);
    await expect(sdk.request('NO_SUCH_COMMAND', {})).rejects.toMatchObject({ kind: 'rpc-error', code: 4002, message: 'Invalid command: NO_SUCH_COMMAND' });
    await expect(sdk.subscribe('NOT_AN_EVENT')).rejects.toMatchObject({ kind: 'rpc-error', code: 4004 });
    expect(sdk.subscribedEvents).toEqual([]);
  });
});

describe('keepalive', () => {
  it('PINGs on its interval and drops a connection whose PONG does not come, then reconnects', async () => {
    const dir = await tempDir();
    const fake = await FakeServer.start(dir);
    cleanups.push(() => fake.close());
    fake.answerPings = false;
    fake.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeFrame(Opcode.Frame, READY_PAYLOAD));
    };
    const sdk = connection({ socketPaths: [fake.path], pingIntervalMs: 40, pongTimeoutMs: 150 });
    const disconnects = record<[DisconnectDetail]>(sdk, 'disconnected');
    const readies = record<[unknown]>(sdk, 'ready');
    await sdk.connect(APP_ID);
    const first = await fake.connections.until(() => true);
    const ping = await first.frames.until((f) => f.opcode === Opcode.Ping);
    expect(typeof ping.payload).toBe('string');

    const [detail] = await disconnects.until(() => true, 3000, 'the keepalive drop');
    expect(detail).toMatchObject({ close: { reason: 'keepalive-timeout', code: null, message: 'no PONG within 150 ms' }, willReconnect: true, fatal: false });
    await readies.until(() => readies.items.length >= 2, 3000, 'READY after the reconnect');
    expect(fake.connections.items).toHaveLength(2);
  });

  it('a server that answers PINGs keeps the connection', async () => {
    const test = await server();
    const sdk = connection({ socketPaths: [test.path], pingIntervalMs: 20, pongTimeoutMs: 60 });
    const disconnects = record<[DisconnectDetail]>(sdk, 'disconnected');
    const pings = new Recorder<number>();
    const keepalive: [string, number, unknown][] = [];
    test.server.on('frame', (trace) => {
      if (trace.opcode === Opcode.Ping || trace.opcode === Opcode.Pong) keepalive.push([trace.direction, trace.opcode, trace.payload]);
      if (trace.opcode === Opcode.Ping) pings.push(trace.at);
    });
    await sdk.connect(APP_ID);
    // Five PINGs span more than the PONG limit.
    await pings.until(() => pings.items.length >= 5, 3000, 'five PINGs');
    expect(disconnects.items).toEqual([]);
    // The server's PONGs are traced too (the inspector shows the whole conversation), each
    // right after its PING, with the PING's payload.
    for (let i = 0; i + 1 < keepalive.length; i += 2) {
      const [ping, pong] = [keepalive[i], keepalive[i + 1]];
      expect(ping?.slice(0, 2)).toEqual(['in', Opcode.Ping]);
      expect(pong).toEqual(['out', Opcode.Pong, ping?.[2]]);
    }
    expect(sdk.status).toBe('ready');
  });
});

describe('close, reconnect and restore', () => {
  it('backoff doubles from the initial delay to the cap, with jitter inside ±25 %', () => {
    const mid = (attempt: number) => backoffDelay(attempt, { random: () => 0.5 });
    expect([0, 1, 2, 3, 6, 7, 20].map(mid)).toEqual([500, 1000, 2000, 4000, 32000, 60000, 60000]);
    expect(backoffDelay(0, { random: () => 0 })).toBe(375);
    expect(backoffDelay(0, { random: () => 0.999999 })).toBe(625);
    expect(backoffDelay(10, { random: () => 0.999999 })).toBe(60000);
  });

  it('after the server closes the connection it reconnects with backoff and re-sends the presence and the subscriptions', async () => {
    const dir = await tempDir();
    const first = await bindIn(dir);
    const sdk = connection({ env: { XDG_RUNTIME_DIR: dir } });
    const statuses = record<[ConnectionStatus, ConnectionStatus]>(sdk, 'status');
    const disconnects = record<[DisconnectDetail]>(sdk, 'disconnected');
    const scheduled = record<[number, number]>(sdk, 'reconnect-scheduled');
    const readies = record<[unknown]>(sdk, 'ready');

    // Registered before connecting: sent with the first READY.
    await sdk.subscribe('ACTIVITY_JOIN');
    await sdk.connect(APP_ID);
    await sdk.subscribe('ACTIVITY_INVITE');
    const activity = { state: 'In a squad', party: { id: 'party-1', size: [1, 4] }, secrets: { join: 'join-secret-1' } };
    const reply: any = await sdk.setPresence(activity);
    expect(reply).toMatchObject({ state: 'In a squad', application_id: APP_ID });

    // The server goes away: the close is surfaced with its code and message.
    const closing = first.listener.close();
    await first.rpc.closeAll('Companion is restarting');
    await closing;
    const [detail] = await disconnects.until(() => true);
    expect(detail).toEqual({ close: { code: 1000, message: 'Companion is restarting', reason: 'server-close' }, willReconnect: true, fatal: false });
    expect(sdk.status).toBe('reconnecting');
    // Attempts fail while nothing listens: the delays grow.
    await scheduled.until(() => scheduled.items.length >= 3, 3000, 'three scheduled attempts');
    expect(scheduled.items.slice(0, 3)).toEqual([
      [20, 0],
      [40, 1],
      [80, 2],
    ]);

    // A new server in the same place: the state comes back without the game doing anything.
    const second = new RpcServer({ identity: () => TEST_IDENTITY });
    const activities = new Recorder<ActivityChange>();
    const subscriptions = new Recorder<[RpcConnection, Subscription]>();
    second.on('activity', activities.push);
    second.on('subscribe', (conn, sub) => subscriptions.push([conn, sub]));
    await bindIn(dir, second);
    await readies.until(() => readies.items.length >= 2, 5000, 'READY from the new server');
    expect(sdk.status).toBe('ready');
    const change = await activities.until(() => true);
    expect(change.activity).toMatchObject({ state: 'In a squad', party: { id: 'party-1' }, secrets: { join: 'join-secret-1' } });
    expect(change.pid).toBe(process.pid);
    expect(subscriptions.items.map(([, sub]) => sub.evt).sort()).toEqual(['ACTIVITY_INVITE', 'ACTIVITY_JOIN']);
    const [conn] = [...second.connections()];
    expect([...conn!.subscriptions.values()].map((s) => s.evt).sort()).toEqual(['ACTIVITY_INVITE', 'ACTIVITY_JOIN']);
    expect(statuses.items.map(([s]) => s)).toEqual(['connecting', 'ready', 'reconnecting', 'ready']);

    // A cleared presence is not re-sent as an activity after the next drop.
    expect(await sdk.setPresence(null)).toBeNull();
    second.disconnectAll('again');
    await readies.until(() => readies.items.length >= 3, 5000, 'READY after the second drop');
    expect(activities.items.filter((a) => a.cause === 'command').map((a) => a.activity === null)).toEqual([false, true]);
  });

  it('a CLOSE 4000 on a reconnect stops reconnecting; a deliberate disconnect does not reconnect either', async () => {
    let known = true;
    const test = await server({ resolveApplication: () => (known ? { name: 'Game' } : null) });
    const sdk = connection({ socketPaths: [test.path] });
    const disconnects = record<[DisconnectDetail]>(sdk, 'disconnected');
    const failures = record<[ConnectError]>(sdk, 'reconnect-failed');
    const statuses = record<[ConnectionStatus, ConnectionStatus]>(sdk, 'status');
    await sdk.connect(APP_ID);

    known = false;
    test.server.disconnectAll('User logged out');
    const [failure] = await failures.until(() => true, 3000, 'the refused reconnect');
    expect(failure).toMatchObject({ reason: 'closed', closeCode: 4000, fatal: true, message: 'handshake failed: 4000 Invalid Client ID' });
    await statuses.until(([s]) => s === 'disconnected');
    expect(sdk.status).toBe('disconnected');
    expect(disconnects.items.map(([d]) => d.close.code)).toEqual([1000]);
    // Nothing is scheduled any more.
    expect((sdk as any).retryTimer).toBeUndefined();

    // A first connect refused with 4000 rejects as fatal.
    const refused = await sdk.connect(APP_ID).catch((e: unknown) => e);
    expect(refused).toMatchObject({ closeCode: 4000, fatal: true });
    expect(sdk.status).toBe('disconnected');

    known = true;
    await sdk.connect(APP_ID);
    const before = disconnects.items.length;
    await sdk.disconnect();
    expect(sdk.status).toBe('disconnected');
    expect(disconnects.items.slice(before).map(([d]) => d.willReconnect)).toEqual([false]);
  });

  it('a CLOSE 4004 during the handshake is fatal, with the server\'s message', async () => {
    const dir = await tempDir();
    const fake = await FakeServer.start(dir);
    cleanups.push(() => fake.close());
    fake.onFrame = (conn, frame) => {
      if (frame.opcode === Opcode.Handshake) conn.write(encodeRawFrame(Opcode.Close, JSON.stringify({ code: 4004, message: 'Invalid Version: 1' })));
    };
    const sdk = connection({ socketPaths: [fake.path] });
    await expect(sdk.connect(APP_ID)).rejects.toMatchObject({ closeCode: 4004, fatal: true, message: 'handshake failed: 4004 Invalid Version: 1' });
  });
});
