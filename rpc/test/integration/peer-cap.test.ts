import { execFile } from 'node:child_process';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, Opcode, WEBSOCKET_PORT_RANGE, type PeerProcessFinder, type RpcServerOptions } from '../../src/index.js';
import { listenWebSocket, type WebSocketListener } from '../../src/transport/websocket-listener.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';
import { freePorts, WsClient } from '../support/ws-client.js';

const APP = '123456789012345678';
let ts: TestServer | undefined;
let listener: WebSocketListener | undefined;
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await listener?.close();
  listener = undefined;
  await ts?.close();
  ts = undefined;
});

/** Another program: a separate Node process that connects over IPC and prints what it got first. */
const IPC_GAME = `
const net = require('node:net');
const socket = net.connect(process.argv[1]);
const body = Buffer.from(JSON.stringify({ v: 1, client_id: '${APP}' }));
const header = Buffer.alloc(8);
header.writeUInt32LE(0, 0);
header.writeUInt32LE(body.length, 4);
socket.write(Buffer.concat([header, body]));
let input = Buffer.alloc(0);
socket.on('data', (chunk) => {
  input = Buffer.concat([input, chunk]);
  if (input.length < 8 || input.length < 8 + input.readUInt32LE(4)) return;
  process.stdout.write(JSON.stringify({ opcode: input.readUInt32LE(0), payload: JSON.parse(input.subarray(8, 8 + input.readUInt32LE(4)).toString()) }));
  socket.destroy();
});
`;

/** Another program over the WebSocket: prints its first message, or how the socket closed. */
const WS_GAME = `
const WebSocket = require('ws');
const ws = new WebSocket('ws://127.0.0.1:' + process.argv[1] + '/?v=1&client_id=${APP}&encoding=json');
const done = (text) => process.stdout.write(text, () => process.exit(0));
ws.on('message', (data) => done(String(data)));
ws.on('close', (code, reason) => done(JSON.stringify({ close: code, reason: String(reason) })));
ws.on('error', () => undefined);
`;

function otherProgram(script: string, arg: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, arg], { cwd: process.cwd(), timeout: 20_000 }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(JSON.parse(stdout));
    });
  });
}

async function server(options: Partial<RpcServerOptions>): Promise<TestServer> {
  ts = await startTestServer(options);
  return ts;
}

describe('issue 25 §4.3: one program cannot take every RPC connection', () => {
  it('over IPC: a process at its cap is refused with CLOSE 4002, another process still gets READY, a freed place is taken again', async () => {
    const { path, server: rpc } = await server({ maxConnectionsPerPeer: 3, maxConnections: 100 });
    const held = await Promise.all([1, 2, 3].map(async () => (await RawClient.ready(path)).client));
    const extra = await RawClient.connect(path);
    expect(await extra.next()).toEqual({ opcode: Opcode.Close, payload: { code: 4002, message: 'Too many connections from one program (at most 3)' } });
    await extra.closed;
    // Another program connects while this one holds its three.
    const other = await otherProgram(IPC_GAME, path);
    expect(other).toMatchObject({ opcode: Opcode.Frame, payload: { cmd: 'DISPATCH', evt: 'READY' } });
    // The held connections are served, and were told apart from the other program by process.
    for (const client of held) expect((await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'still served' } })).evt).toBeNull();
    expect(new Set([...rpc.connections()].map((connection) => rpc.peerOf(connection)))).toEqual(new Set([`process ${process.pid}`]));
    held[0]!.close();
    await waitUntil(() => [...rpc.connections()].length === 2, 'the closed connection to go', 5000);
    expect((await RawClient.ready(path)).ready.evt).toBe('READY');
  });

  it('over the WebSocket: the same cap per process, and the refusal is close code 4002 with the reason', async () => {
    const { server: rpc } = await server({ maxConnectionsPerPeer: 2, maxConnections: 100 });
    const result = await listenWebSocket({ server: rpc, ports: await freePorts(1) });
    if (result.listener === null) throw new Error(result.reason);
    listener = result.listener;
    const port = listener.port;
    const open = async (): Promise<WsClient> => {
      const client = WsClient.open(port, `v=1&client_id=${APP}&encoding=json`);
      cleanups.push(() => client.close());
      return client;
    };
    for (let i = 0; i < 2; i += 1) expect(await (await open()).next()).toMatchObject({ evt: 'READY' });
    const extra = await open();
    expect(await extra.ended).toEqual({ close: { code: 4002, reason: 'Too many connections from one program (at most 2)' } });
    expect(await otherProgram(WS_GAME, String(port))).toMatchObject({ cmd: 'DISPATCH', evt: 'READY' });
  });

  it('a connection that waits for its peer lookup loses nothing it sent meanwhile (IPC and WebSocket)', async () => {
    // A slow finder that tells every socket apart: each connection after the first waits for it.
    let lookups = 0;
    const peerProcesses: PeerProcessFinder = {
      supported: true,
      find: async (sockets) => {
        lookups += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return new Map(sockets.map((socket, index) => [socket, 1_000_000 + lookups * 1000 + index]));
      },
    };
    const { path, server: rpc } = await server({ maxConnectionsPerPeer: 1, maxConnections: 100, peerProcesses });
    await RawClient.ready(path);
    const ipc = await RawClient.connect(path);
    ipc.sendRaw(encodeFrame(Opcode.Handshake, { v: 1, client_id: APP }));
    ipc.sendRaw(encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'early' } }, nonce: 'early-ipc' }));
    expect((await ipc.next(5000)).payload).toMatchObject({ evt: 'READY' });
    expect((await ipc.next(5000)).payload).toMatchObject({ nonce: 'early-ipc', evt: null });
    const result = await listenWebSocket({ server: rpc, ports: await freePorts(1) });
    if (result.listener === null) throw new Error(result.reason);
    listener = result.listener;
    const ws = WsClient.open(listener.port, `v=1&client_id=${APP}&encoding=json`);
    cleanups.push(() => ws.close());
    await new Promise((resolve) => ws.ws.once('open', resolve));
    ws.send({ cmd: 'SET_ACTIVITY', args: { pid: 2, activity: { state: 'early' } }, nonce: 'early-ws' });
    expect(await ws.next(5000)).toMatchObject({ evt: 'READY' });
    expect(await ws.next(5000)).toMatchObject({ nonce: 'early-ws', evt: null });
    expect(lookups).toBeGreaterThanOrEqual(2);
  });

  it('without a way to tell processes, a WebSocket peer is its remote port range and an IPC peer only meets the total cap', async () => {
    const { path, server: rpc } = await server({ maxConnectionsPerPeer: 2, maxConnections: 100, peerProcesses: null });
    const ipc = await Promise.all([1, 2, 3].map(async () => (await RawClient.ready(path)).client));
    expect(ipc).toHaveLength(3);
    expect([...rpc.connections()].map((connection) => rpc.peerOf(connection))).toEqual([null, null, null]);
    const result = await listenWebSocket({ server: rpc, ports: await freePorts(1) });
    if (result.listener === null) throw new Error(result.reason);
    listener = result.listener;
    // Local ports picked by hand: three in one range of 256, one in the next.
    const base = WEBSOCKET_PORT_RANGE * (100 + Math.floor(Math.random() * 50));
    const fromPort = (localPort: number): WebSocket => {
      const ws = new WebSocket(`ws://127.0.0.1:${listener!.port}/?v=1&client_id=${APP}&encoding=json`, { localPort, localAddress: '127.0.0.1' } as WebSocket.ClientOptions);
      cleanups.push(() => ws.terminate());
      ws.on('error', () => undefined);
      return ws;
    };
    const outcome = (ws: WebSocket): Promise<string> =>
      new Promise((resolve) => {
        ws.once('message', (data: WebSocket.RawData) => resolve((JSON.parse(String(data)) as { evt: string }).evt));
        ws.once('close', (code: number, reason: Buffer) => resolve(`${code} ${String(reason)}`));
      });
    expect(await outcome(fromPort(base + 11))).toBe('READY');
    expect(await outcome(fromPort(base + 12))).toBe('READY');
    expect(await outcome(fromPort(base + 13))).toBe('4002 Too many connections from one program (at most 2)');
    expect(await outcome(fromPort(base + WEBSOCKET_PORT_RANGE + 11))).toBe('READY');
  });
});
