import { afterEach, describe, expect, it } from 'vitest';
import { encodeRawFrame, Opcode, type RpcLogger } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { freePorts, WsClient } from '../support/ws-client.js';
import { listenWebSocket } from '../../src/transport/websocket-listener.js';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
}

async function readyClient(): Promise<{ client: RawClient; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const record = (level: LogLine['level']) => (_fields: object, message: string) => void logs.push({ level, message });
  const logger: RpcLogger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  ts = await startTestServer({ logger });
  const { client } = await RawClient.ready(ts.path);
  return { client, logs };
}

/** Sends one FRAME body as it is and returns the reply; the socket must still answer afterwards. */
async function exchange(client: RawClient, body: string): Promise<{ cmd: unknown; evt: unknown; nonce: unknown; data: { code: number; message: string } }> {
  client.sendRaw(encodeRawFrame(Opcode.Frame, body));
  const reply = await client.next();
  expect(reply.opcode).toBe(Opcode.Frame);
  return reply.payload;
}

describe('type-confused input gets the protocol error, never an internal error', () => {
  it('a cmd that is an object is ERROR 4002 "Invalid command" and the socket stays', async () => {
    const { client, logs } = await readyClient();
    const reply = await exchange(client, '{"cmd":{"toString":1},"args":{},"nonce":"1"}');
    expect(reply).toEqual({ cmd: null, data: { code: 4002, message: 'Invalid command' }, evt: 'ERROR', nonce: '1' });
    expect((await client.request('NOT_A_COMMAND')).data).toEqual({ code: 4002, message: 'Invalid command: NOT_A_COMMAND' });
    expect(client.isOpen).toBe(true);
    expect(logs.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('a SUBSCRIBE evt that is an object is ERROR 4004 "Invalid event", logged below error level', async () => {
    const { client, logs } = await readyClient();
    for (let i = 0; i < 20; i += 1) {
      const reply = await exchange(client, `{"cmd":"SUBSCRIBE","evt":{"toString":1},"args":{},"nonce":"s${i}"}`);
      expect(reply.data).toEqual({ code: 4004, message: 'Invalid event' });
    }
    expect((await exchange(client, '{"cmd":"UNSUBSCRIBE","evt":["ACTIVITY_JOIN"],"args":{},"nonce":"u"}')).data.code).toBe(4004);
    expect((await exchange(client, '{"cmd":"SUBSCRIBE","evt":"NOPE","args":{},"nonce":"n"}')).data).toEqual({ code: 4004, message: 'Invalid event: NOPE' });
    expect(logs.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('a nonce nested 30,000 arrays deep is ERROR 4000 and the socket keeps answering', async () => {
    const { client, logs } = await readyClient();
    const deep = `{"cmd":"SET_ACTIVITY","args":{},"nonce":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const reply = await exchange(client, deep);
    expect(reply).toEqual({ cmd: null, data: { code: 4000, message: 'Payload nested deeper than 256 levels' }, evt: 'ERROR', nonce: null });
    // 256 levels are still taken (and echoed back).
    const fine = `${'['.repeat(255)}"n"${']'.repeat(255)}`;
    const echoed = await exchange(client, `{"cmd":"NOT_A_COMMAND","nonce":${fine}}`);
    expect(echoed.data.code).toBe(4002);
    expect(JSON.stringify(echoed.nonce)).toBe(fine);
    expect((await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'after' } })).evt).toBeNull();
    expect(logs.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('issue 25 §4.1: a request whose args nest deeper than 256 levels gets its ERROR with its own nonce', async () => {
    const { client, logs } = await readyClient();
    const deepArgs = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const before = await exchange(client, `{"cmd":"SET_ACTIVITY","nonce":"before-args","args":${deepArgs}}`);
    expect(before).toEqual({ cmd: null, data: { code: 4000, message: 'Payload nested deeper than 256 levels' }, evt: 'ERROR', nonce: 'before-args' });
    // After the deep member too, and with the nonce's JSON type kept.
    const after = await exchange(client, `{"cmd":"SET_ACTIVITY","args":{"activity":${deepArgs}},"nonce":42}`);
    expect(after).toEqual({ cmd: null, data: { code: 4000, message: 'Payload nested deeper than 256 levels' }, evt: 'ERROR', nonce: 42 });
    // The game's next request on the same socket is answered as usual.
    expect((await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'after' } })).evt).toBeNull();
    expect(logs.filter((line) => line.level === 'error')).toEqual([]);
    // The same over the WebSocket transport, where one message is one request.
    const result = await listenWebSocket({ server: ts!.server, ports: await freePorts(1) });
    if (result.listener === null) throw new Error(result.reason);
    const listener = result.listener;
    try {
      const { client: ws } = await WsClient.ready(listener.port);
      ws.ws.send(`{"cmd":"SET_ACTIVITY","args":{"pid":1,"activity":${deepArgs}},"nonce":"over-ws"}`);
      expect(await ws.next()).toEqual({ cmd: null, data: { code: 4000, message: 'Payload nested deeper than 256 levels' }, evt: 'ERROR', nonce: 'over-ws' });
      ws.close();
    } finally {
      await listener.close();
    }
  });

  it('brackets inside strings do not count as nesting', async () => {
    const { client } = await readyClient();
    const state = `${'['.repeat(300)}x`.slice(0, 128);
    const reply = await exchange(client, JSON.stringify({ cmd: 'SET_ACTIVITY', nonce: 'b', args: { pid: 1, activity: { state, details: '{'.repeat(128), large_text: '"['.repeat(64) } } }).padEnd(700, ' '));
    expect(reply.evt).toBeNull();
  });

  it('a deeply nested HANDSHAKE is closed with a message that says so', async () => {
    ts = await startTestServer();
    const client = await RawClient.connect(ts.path);
    client.sendRaw(encodeRawFrame(Opcode.Handshake, `{"v":1,"client_id":"123456789012345678","x":${'['.repeat(5000)}${']'.repeat(5000)}}`));
    const frame = await client.next();
    expect(frame.opcode).toBe(Opcode.Close);
    expect(frame.payload).toEqual({ code: 1003, message: 'HANDSHAKE frame: Payload nested deeper than 256 levels' });
  });
});
