import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, Opcode, type DisconnectInfo } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer;
const disconnects: DisconnectInfo[] = [];

beforeEach(async () => {
  ts = await startTestServer();
  disconnects.length = 0;
  ts.server.on('disconnect', (_connection, info) => disconnects.push(info));
});
afterEach(async () => ts.close());

/** A second, healthy client proves one client's violation does not affect the others. */
async function expectOthersUnaffected(other: RawClient): Promise<void> {
  const reply = await other.request('SET_ACTIVITY', { pid: 42, activity: { state: 'still here' } });
  expect(reply.evt).toBeNull();
  expect(reply.data.state).toBe('still here');
}

describe('framing over a real Unix socket', () => {
  it('reassembles a handshake and a command sent one byte at a time', async () => {
    const client = await RawClient.connect(ts.path);
    const bytes = Buffer.concat([
      encodeFrame(Opcode.Handshake, { v: 1, client_id: '123456789012345678' }),
      encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: 'byte', args: { pid: 1, activity: { state: 'split' } } }),
    ]);
    for (const byte of bytes) {
      client.sendRaw(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await client.next()).payload.evt).toBe('READY');
    const reply = (await client.next()).payload;
    expect(reply).toMatchObject({ cmd: 'SET_ACTIVITY', nonce: 'byte', evt: null, data: { state: 'split' } });
  });

  it('answers both of two frames that arrive in one write, in order', async () => {
    const { client } = await RawClient.ready(ts.path);
    client.sendRaw(
      Buffer.concat([
        encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: 'one', args: { pid: 1, activity: { state: 'first' } } }),
        encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: 'two', args: { pid: 1, activity: { state: 'second' } } }),
      ]),
    );
    expect((await client.next()).payload.nonce).toBe('one');
    expect((await client.next()).payload.nonce).toBe('two');
  });

  it('closes a connection that announces a 1 GiB frame with CLOSE 1003, before reading its body', async () => {
    const other = (await RawClient.ready(ts.path)).client;
    const { client } = await RawClient.ready(ts.path);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(Opcode.Frame, 0);
    header.writeUInt32LE(1024 * 1024 * 1024, 4);
    client.sendRaw(header);
    const close = await client.next();
    expect(close.opcode).toBe(Opcode.Close);
    expect(close.payload.code).toBe(1003);
    expect(close.payload.message).toMatch(/exceeds the limit/);
    await client.closed;
    await expectOthersUnaffected(other);
  });

  it('closes on garbage JSON with 1003 and keeps serving other connections', async () => {
    const other = (await RawClient.ready(ts.path)).client;
    const { client } = await RawClient.ready(ts.path);
    client.sendRaw(encodeRawFrame(Opcode.Frame, '{"cmd": nope'));
    const close = await client.next();
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003 } });
    expect(close.payload.message).toMatch(/^invalid JSON in FRAME frame/);
    await client.closed;
    await waitUntil(() => disconnects.some((d) => d.reason === 'protocol-error' && d.code === 1003), 'the protocol-error disconnect');
    await expectOthersUnaffected(other);
  });

  it('refuses a FRAME before the HANDSHAKE with CLOSE 1003', async () => {
    const client = await RawClient.connect(ts.path);
    client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: '1', args: { pid: 1 } });
    const close = await client.next();
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003, message: 'did not handshake' } });
    await client.closed;
  });

  it('refuses a second HANDSHAKE with CLOSE 1003', async () => {
    const { client } = await RawClient.ready(ts.path);
    client.send(Opcode.Handshake, { v: 1, client_id: '123456789012345678' });
    const close = await client.next();
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003, message: 'already did handshake' } });
    await client.closed;
  });

  it('closes on an unknown opcode with 1003 and other connections keep working', async () => {
    const other = (await RawClient.ready(ts.path)).client;
    const { client } = await RawClient.ready(ts.path);
    client.send(7, {});
    const close = await client.next();
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003 } });
    expect(close.payload.message).toMatch(/unknown opcode 7/);
    await client.closed;
    await expectOthersUnaffected(other);
  });

  it('answers PING with a PONG carrying the same bytes, before and after the handshake', async () => {
    const client = await RawClient.connect(ts.path);
    const body = '{"uuid":"a8f2b3c4-0000-4000-8000-000000000000","n":[1,2.5,"é"]}';
    client.sendRaw(encodeRawFrame(Opcode.Ping, body));
    const before = await client.next();
    expect(before.opcode).toBe(Opcode.Pong);
    expect(JSON.stringify(before.payload)).toBe(body);
    client.send(Opcode.Handshake, { v: 1, client_id: '123456789012345678' });
    expect((await client.next()).payload.evt).toBe('READY');
    client.send(Opcode.Ping, 12345);
    expect(await client.next()).toEqual({ opcode: Opcode.Pong, payload: 12345 });
  });

  it('echoes an empty PING body as an empty PONG', async () => {
    const client = await RawClient.connect(ts.path);
    client.sendRaw(encodeRawFrame(Opcode.Ping, ''));
    expect(await client.next()).toEqual({ opcode: Opcode.Pong, payload: null });
  });

  it('treats a probe that connects and sends nothing as an ordinary, silent disconnect', async () => {
    const probe = await RawClient.connect(ts.path);
    probe.close();
    await probe.closed;
    await waitUntil(() => disconnects.length > 0, 'the disconnect');
    expect(disconnects).toEqual([{ reason: 'peer-closed' }]);
  });

  it('treats a client CLOSE frame as a disconnect and clears its activity', async () => {
    const { client } = await RawClient.ready(ts.path);
    await client.request('SET_ACTIVITY', { pid: 7, activity: { state: 'playing' } });
    const cleared = new Promise((resolve) => ts.server.on('activity', (change) => change.activity === null && resolve(change)));
    client.send(Opcode.Close, { v: 1, client_id: '123456789012345678' });
    await client.closed;
    await cleared;
    await waitUntil(() => disconnects.length > 0, 'the disconnect');
    expect(disconnects[0]?.reason).toBe('peer-close-frame');
  });
});
