import http from 'node:http';
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RpcConnection } from '../../src/index.js';
import {
  listenWebSocket,
  NOT_FOUND_BODY,
  type PeerCheck,
  type WebSocketListener,
  type WebSocketListenerOptions,
} from '../../src/transport/websocket-listener.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, TEST_IDENTITY, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';
import { freePorts, holdPort, WsClient } from '../support/ws-client.js';

const APP = '123456789012345678';
const ACTIVITY = { state: 'In a match', details: 'Ranked', timestamps: { start: 1_700_000_000_000 }, party: { id: 'p1', size: [1, 4] } };

let ts: TestServer;
let listener: WebSocketListener;
const originsAsked: [string, string][] = [];
const cleanups: (() => unknown)[] = [];

async function listen(options: Partial<WebSocketListenerOptions> = {}): Promise<WebSocketListener> {
  const result = await listenWebSocket({
    server: ts.server,
    ports: await freePorts(1),
    allowOrigin: (origin, clientId) => {
      originsAsked.push([origin, clientId]);
      return origin === 'https://approved.example';
    },
    ...options,
  });
  if (result.listener === null) throw new Error(`no listener: ${result.reason}`);
  const started = result.listener;
  cleanups.push(() => started.close());
  return started;
}

function client(query: string, options: Parameters<typeof WsClient.open>[2] = {}): WsClient {
  const opened = WsClient.open(listener.port, query, options);
  cleanups.push(() => opened.close());
  return opened;
}

async function ready(options: Parameters<typeof WsClient.open>[2] = {}, clientId = APP): Promise<WsClient> {
  const opened = client(`v=1&client_id=${clientId}&encoding=json`, options);
  const message = await opened.next();
  expect(message).toMatchObject({ cmd: 'DISPATCH', evt: 'READY' });
  return opened;
}

function get(port: number, path = '/', method = 'GET'): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeEach(async () => {
  originsAsked.length = 0;
  ts = await startTestServer();
  listener = await listen();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await ts.close();
});

describe('the WebSocket transport', () => {
  it('answers READY with exactly the IPC READY (user included)', async () => {
    const ipc = await RawClient.ready(ts.path, APP);
    cleanups.push(() => ipc.client.close());
    const ws = client(`v=1&client_id=${APP}&encoding=json`);
    const wsReady = await ws.next();
    expect(wsReady).toEqual(ipc.ready);
    expect(wsReady).toEqual({ cmd: 'DISPATCH', data: { v: 1, config: TEST_IDENTITY.config, user: TEST_IDENTITY.user }, evt: 'READY', nonce: null });
  });

  it('accepts npm discord-rpc\'s URL, which has no encoding parameter', async () => {
    const ws = client(`v=1&client_id=${APP}`);
    expect(await ws.next()).toMatchObject({ evt: 'READY' });
  });

  it('runs SET_ACTIVITY as IPC does (no pid needed), and the connection says it is a WebSocket from this user', async () => {
    const connections: RpcConnection[] = [];
    ts.server.on('ready', (connection) => connections.push(connection));
    const ipc = (await RawClient.ready(ts.path, APP)).client;
    cleanups.push(() => ipc.close());
    const ipcReply = await ipc.request('SET_ACTIVITY', { pid: 42, activity: ACTIVITY });
    const ws = await ready();
    const reply = await ws.request('SET_ACTIVITY', { activity: ACTIVITY }, ipcReply.nonce);
    expect(reply).toEqual(ipcReply);
    expect(reply.data).toMatchObject({ state: 'In a match', application_id: APP });

    const connection = connections.find((c) => c.transport === 'websocket');
    expect(connection?.activity).toMatchObject({ state: 'In a match' });
    expect(connections.find((c) => c.transport === 'ipc')?.remote).toEqual({ address: null, port: null, origin: null, uid: null });
    expect(connection?.remote).toMatchObject({ address: '127.0.0.1', origin: null });
    if (process.platform === 'linux') expect(connection?.remote.uid).toBe(process.geteuid?.());

    const cleared = await ws.request('SET_ACTIVITY', {});
    expect(cleared).toMatchObject({ cmd: 'SET_ACTIVITY', data: null, evt: null });
  });

  it('answers errors in the same envelope (unknown command, missing nonce)', async () => {
    const ws = await ready();
    expect(await ws.request('NOPE', {}, 'n1')).toEqual({ cmd: 'NOPE', data: { code: 4002, message: 'Invalid command: NOPE' }, evt: 'ERROR', nonce: 'n1' });
    ws.send({ cmd: 'SET_ACTIVITY', args: {} });
    expect(await ws.next()).toMatchObject({ evt: 'ERROR', data: { code: 4000, message: 'Payload requires a nonce' } });
  });

  it('delivers subscribed events as their own messages', async () => {
    const ws = await ready();
    ws.send({ cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: 'sub' });
    expect(await ws.next()).toEqual({ cmd: 'SUBSCRIBE', data: { evt: 'ACTIVITY_JOIN' }, evt: null, nonce: 'sub' });
    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 's1' })).toBe(1);
    expect(ts.server.dispatch('ACTIVITY_JOIN', { secret: 's2' })).toBe(1);
    expect(await ws.next()).toEqual({ cmd: 'DISPATCH', data: { secret: 's1' }, evt: 'ACTIVITY_JOIN', nonce: null });
    expect(await ws.next()).toEqual({ cmd: 'DISPATCH', data: { secret: 's2' }, evt: 'ACTIVITY_JOIN', nonce: null });
  });

  it.each([
    ['client_id=123456789012345678', 4004, 'Invalid Version: null'],
    ['v=2&client_id=123456789012345678', 4004, 'Invalid Version: 2'],
    ['v=&client_id=123456789012345678', 4004, 'Invalid Version: '],
    ['v=1&client_id=123456789012345678&encoding=etf', 4005, 'Invalid Encoding: etf'],
    ['v=1&client_id=123456789012345678&encoding=', 4005, 'Invalid Encoding: '],
    ['v=1&encoding=json', 4000, 'No Client ID Specified'],
    ['v=1&client_id=my-game', 4000, 'Invalid Client ID'],
  ])('closes %s with %i "%s" and sends nothing else', async (query, code, reason) => {
    const ws = client(query);
    expect(await ws.ended).toEqual({ close: { code, reason } });
    expect(ws.messages).toEqual([]);
  });

  it('cuts a long close reason to the 123 bytes a close frame holds', async () => {
    const ws = client(`v=${'9'.repeat(200)}&client_id=${APP}`);
    const ended = await ws.ended;
    expect(ended.close?.code).toBe(4004);
    expect(Buffer.byteLength(ended.close?.reason ?? '')).toBe(123);
    expect(ended.close?.reason.startsWith('Invalid Version: 999')).toBe(true);
  });

  it('closes with 1003 and the parser\'s text on bad JSON, and on a binary message', async () => {
    const ws = await ready();
    ws.ws.send('{not json');
    const ended = await ws.ended;
    expect(ended.close?.code).toBe(1003);
    expect(ended.close?.reason).toMatch(/^invalid JSON in FRAME frame/);

    const binary = await ready();
    binary.ws.send(Buffer.from('{}'), { binary: true });
    expect(await binary.ended).toEqual({ close: { code: 1003, reason: 'binary messages are not supported: send JSON text (encoding=json)' } });
  });

  it('keeps messages whole under QA output shaping (split and coalesced frames are reassembled)', async () => {
    const connections: RpcConnection[] = [];
    ts.server.on('ready', (connection) => connections.push(connection));
    const ws = await ready();
    connections[0]?.output.set({ coalesce: { frames: 2, windowMs: 20 }, split: { parts: 5, gapMs: 1 } });
    ws.send({ cmd: 'SET_ACTIVITY', args: { activity: { state: 'one' } }, nonce: 'a' });
    ws.send({ cmd: 'SET_ACTIVITY', args: { activity: { state: 'two' } }, nonce: 'b' });
    expect(await ws.next()).toMatchObject({ nonce: 'a', data: { state: 'one' } });
    expect(await ws.next()).toMatchObject({ nonce: 'b', data: { state: 'two' } });
    connections[0]?.output.set({ delayMs: 30 });
    ws.send({ cmd: 'NOPE', nonce: 'c' });
    expect(await ws.next()).toMatchObject({ nonce: 'c', evt: 'ERROR' });
  });

  it('says goodbye with 1000 when the server shuts down', async () => {
    const ws = await ready();
    await ts.server.closeAll();
    expect(await ws.ended).toEqual({ close: { code: 1000, reason: 'Companion is shutting down' } });
  });
});

describe('origins', () => {
  it('treats a connection without Origin as a local app', async () => {
    await ready();
    expect(originsAsked).toEqual([]);
  });

  it('lets in an origin the policy allows, and records it on the connection', async () => {
    const connections: RpcConnection[] = [];
    ts.server.on('ready', (connection) => connections.push(connection));
    await ready({ origin: 'https://approved.example' });
    expect(originsAsked).toEqual([['https://approved.example', APP]]);
    expect(connections[0]?.remote.origin).toBe('https://approved.example');
  });

  it('closes any other origin with 4001 "Invalid Origin" at once, before READY', async () => {
    const ws = client(`v=1&client_id=${APP}&encoding=json`, { origin: 'https://evil.example' });
    expect(await ws.ended).toEqual({ close: { code: 4001, reason: 'Invalid Origin' } });
    expect(ws.messages).toEqual([]);
    expect(originsAsked).toEqual([['https://evil.example', APP]]);
  });

  it('checks the version, encoding and client id before asking about the origin', async () => {
    const ws = client('v=1&client_id=nope', { origin: 'https://evil.example' });
    expect((await ws.ended).close?.code).toBe(4000);
    expect(originsAsked).toEqual([]);
  });

  it('refuses an origin when no policy is given', async () => {
    const bare = await listenWebSocket({ server: ts.server, ports: await freePorts(1) });
    if (bare.listener === null) throw new Error(bare.reason);
    cleanups.push(() => bare.listener?.close());
    const ws = WsClient.open(bare.listener.port, `v=1&client_id=${APP}`, { origin: 'https://approved.example' });
    cleanups.push(() => ws.close());
    expect((await ws.ended).close).toEqual({ code: 4001, reason: 'Invalid Origin' });
  });
});

describe('Host header (DNS rebinding)', () => {
  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('accepts %s:PORT', async (name) => {
    await ready({ host: `${name}:${listener.port}` });
  });

  it.each(['evil.example:PORT', '127.0.0.1', '127.0.0.1:1', 'localhost.evil.example:PORT', '127.0.0.2:PORT'])('refuses Host %s with HTTP 403 before the upgrade', async (host) => {
    const ws = client(`v=1&client_id=${APP}`, { host: host.replace('PORT', String(listener.port)) });
    expect(await ws.ended).toEqual({ status: 403 });
  });
});

describe('plain HTTP (npm discord-rpc\'s probe)', () => {
  it('answers GET / and every other request with the JSON 404', async () => {
    for (const [path, method] of [['/', 'GET'], ['/?v=1', 'GET'], ['/rpc', 'POST'], ['/', 'HEAD']] as const) {
      const reply = await get(listener.port, path, method);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.type).toBe('application/json');
      if (method !== 'HEAD') expect(reply.body).toBe(NOT_FOUND_BODY);
    }
    expect(JSON.parse(NOT_FOUND_BODY)).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('answers an upgrade on another path with 404', async () => {
    const ws = client(`v=1&client_id=${APP}`, { path: '/rpc' });
    expect(await ws.ended).toEqual({ status: 404 });
  });
});

describe('the peer check', () => {
  it('refuses with HTTP 403 a peer the check refuses, and lets in one it allows', async () => {
    const seen: unknown[] = [];
    const check: PeerCheck = async (peer, ours) => {
      seen.push({ peer, ours });
      return seen.length === 1 ? { allowed: false, reason: 'the peer belongs to another OS user' } : { allowed: true, uid: 4242 };
    };
    listener = await listen({ peerCheck: check });
    const refused = client(`v=1&client_id=${APP}`);
    expect(await refused.ended).toEqual({ status: 403 });
    const connections: RpcConnection[] = [];
    ts.server.on('ready', (connection) => connections.push(connection));
    await ready();
    expect(connections[0]?.remote.uid).toBe(4242);
    expect(seen[0]).toMatchObject({ peer: { address: '127.0.0.1' }, ours: { address: '127.0.0.1', port: listener.port } });
  });
});

describe('port selection', () => {
  it('takes the first free port of those given, in order', async () => {
    const [first, second, third] = await freePorts(3) as [number, number, number];
    const held = (await holdPort(first)) as net.Server;
    cleanups.push(() => new Promise<void>((resolve) => held.close(() => resolve())));
    const started = await listen({ ports: [first, second, third] });
    expect(started.port).toBe(second);
    expect(started.host).toBe('127.0.0.1');
  });

  it('uses 6463-6472 by default: 6463 or the first free one after it', async () => {
    const result = await listenWebSocket({ server: ts.server });
    if (result.listener === null) {
      // Every port of the range is taken on this machine: the reason says so.
      expect(result.reason).toContain('every RPC WebSocket port is taken');
      return;
    }
    const started = result.listener;
    cleanups.push(() => started.close());
    expect(started.port).toBeGreaterThanOrEqual(6463);
    expect(started.port).toBeLessThanOrEqual(6472);
    expect((await get(started.port)).status).toBe(404);
  });

  it('resolves listener null with a reason when every port is taken', async () => {
    const ports = await freePorts(2);
    for (const port of ports) {
      const held = (await holdPort(port)) as net.Server;
      cleanups.push(() => new Promise<void>((resolve) => held.close(() => resolve())));
    }
    const result = await listenWebSocket({ server: ts.server, ports });
    expect(result.listener).toBeNull();
    expect((result as { reason: string }).reason).toContain(`every RPC WebSocket port is taken (127.0.0.1:${ports.join(', ')})`);
  });

  it('frees its port on close, with clients still connected', async () => {
    const ws = await ready();
    const port = listener.port;
    await listener.close();
    await ws.ended;
    await waitUntil(() => [...ts.server.connections()].length === 0, 'the connection to finish');
    const again = await holdPort(port);
    expect(again).not.toBeNull();
    await new Promise<void>((resolve) => again?.close(() => resolve()));
    await listener.close(); // a second close is harmless
  });
});
