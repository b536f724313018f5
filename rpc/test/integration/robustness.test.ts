import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, Opcode, type DisconnectInfo, type RpcServerOptions } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

async function server(options: Partial<RpcServerOptions> = {}): Promise<TestServer> {
  ts = await startTestServer(options);
  return ts;
}

const SET = (nonce: string, state = 'still here') =>
  encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce, args: { pid: 1, activity: { state } } });

describe('a client that never reads', () => {
  it('stops being read once its replies back up, keeps it, and answers everything once it reads', async () => {
    const t = await server();
    const flooder = await RawClient.connect(t.path);
    flooder.socket.pause(); // does not read its PONGs for now
    const ping = encodeRawFrame(Opcode.Ping, JSON.stringify('x'.repeat(60_000)));
    const count = 300; // ~18 MB of PINGs, far above what the server buffers for one client
    for (let i = 0; i < count; i += 1) flooder.socket.write(ping);
    // The server stops reading: the data waits in the flooder's own send buffer.
    await waitUntil(() => flooder.socket.writableLength > 8 * 1024 * 1024, 'the server to stop reading the flooder', 5000);
    const other = (await RawClient.ready(t.path)).client;
    expect((await other.request('SET_ACTIVITY', { pid: 2, activity: { state: 'fine' } })).evt).toBeNull();
    // Not dropped as a slow consumer: paused, not disconnected. This is a claim that something
    // does not happen, so it needs time: unpaused, the server would read on and drop it here.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(flooder.isOpen).toBe(true);
    expect([...t.server.connections()]).toHaveLength(2);
    // Once it reads, every PING gets its PONG.
    flooder.socket.resume();
    await waitUntil(() => flooder.frames.length === count, `${count} PONGs`, 15_000);
    expect(flooder.frames.every((frame) => frame.opcode === Opcode.Pong)).toBe(true);
  });
});

describe('a command whose handler is still running', () => {
  /** A slow command of the ordinary kind (AUTHORIZE is concurrent: see the test below). */
  function slowCommand(ts: TestServer, settle: Promise<unknown>, seen: { signal?: AbortSignal }, cmd = 'SET_CERTIFIED_DEVICES'): void {
    ts.server.setCommandHandler(cmd, async ({ signal }) => {
      seen.signal = signal;
      await settle;
      return { code: 'abc' };
    });
  }

  it('answers PING at once while the command is pending, and later frames wait their turn', async () => {
    const t = await server();
    let release!: () => void;
    slowCommand(t, new Promise<void>((resolve) => (release = resolve)), {});
    const { client } = await RawClient.ready(t.path);
    client.send(Opcode.Frame, { cmd: 'SET_CERTIFIED_DEVICES', nonce: 'auth', args: {} });
    client.sendRaw(SET('after'));
    client.send(Opcode.Ping, 'alive?');
    expect(await client.next()).toEqual({ opcode: Opcode.Pong, payload: 'alive?' });
    expect(await client.silentFor(50)).toBe(true);
    release();
    expect((await client.next()).payload).toMatchObject({ cmd: 'SET_CERTIFIED_DEVICES', nonce: 'auth', data: { code: 'abc' } });
    expect((await client.next()).payload).toMatchObject({ cmd: 'SET_ACTIVITY', nonce: 'after' });
  });

  it('AUTHORIZE is concurrent: later commands are answered while it waits, and its reply follows when ready', async () => {
    const t = await server();
    let release!: () => void;
    slowCommand(t, new Promise<void>((resolve) => (release = resolve)), {}, 'AUTHORIZE');
    const { client } = await RawClient.ready(t.path);
    client.send(Opcode.Frame, { cmd: 'AUTHORIZE', nonce: 'auth', args: {} });
    client.sendRaw(SET('after'));
    expect((await client.next()).payload).toMatchObject({ cmd: 'SET_ACTIVITY', nonce: 'after' });
    release();
    expect((await client.next()).payload).toMatchObject({ cmd: 'AUTHORIZE', nonce: 'auth', data: { code: 'abc' } });
  });

  it('tells the handler the client left, and finalises the connection even if the handler never settles', async () => {
    const t = await server({ closeGraceMs: 100 });
    const seen: { signal?: AbortSignal } = {};
    slowCommand(t, new Promise(() => undefined), seen);
    const disconnects: DisconnectInfo[] = [];
    const cleared: unknown[] = [];
    t.server.on('disconnect', (_c, info) => disconnects.push(info));
    t.server.on('activity', (change) => change.cause === 'disconnect' && cleared.push(change));
    const { client } = await RawClient.ready(t.path);
    await client.request('SET_ACTIVITY', { pid: 3, activity: { state: 'playing' } });
    client.send(Opcode.Frame, { cmd: 'SET_CERTIFIED_DEVICES', nonce: 'never', args: {} });
    await waitUntil(() => seen.signal !== undefined, 'the handler to start');
    client.close();
    await waitUntil(() => seen.signal?.aborted === true, 'the abort signal');
    await waitUntil(() => disconnects.length === 1, 'the disconnect despite the pending handler');
    expect(cleared).toHaveLength(1);
    expect([...t.server.connections()]).toHaveLength(0);
  });
});

describe('protocol details', () => {
  it('closes with 1003 on a PING with bad JSON, whether or not anyone traces frames', async () => {
    const { path } = await server();
    const client = await RawClient.connect(path);
    client.sendRaw(encodeRawFrame(Opcode.Ping, '{nope'));
    expect(await client.next()).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003 } });
  });

  it('processes the frames that came before an oversize header in the same write', async () => {
    const { path } = await server();
    const { client } = await RawClient.ready(path);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(Opcode.Frame, 0);
    header.writeUInt32LE(1024 ** 3, 4);
    client.sendRaw(Buffer.concat([SET('before'), header]));
    expect((await client.next()).payload).toMatchObject({ cmd: 'SET_ACTIVITY', nonce: 'before', evt: null });
    expect(await client.next()).toMatchObject({ opcode: Opcode.Close, payload: { code: 1003 } });
  });

  it('refuses an empty-string nonce, as the real client does', async () => {
    const { path } = await server();
    const { client } = await RawClient.ready(path);
    client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: '', args: { pid: 1 } });
    expect((await client.next()).payload.data).toEqual({ code: 4000, message: 'Payload requires a nonce' });
  });

  it('keys a subscription on the event and its own argument only, so stray args change nothing', async () => {
    const t = await server();
    const { client } = await RawClient.ready(t.path);
    for (const extra of [{}, { x: 1 }, { x: 2, y: 'z' }]) {
      client.send(Opcode.Frame, { cmd: 'SUBSCRIBE', evt: 'ACTIVITY_JOIN', nonce: JSON.stringify(extra), args: extra });
      await client.next();
    }
    const [connection] = [...t.server.connections()];
    expect(connection?.subscriptions.size).toBe(1);
    expect(t.server.dispatch('ACTIVITY_JOIN', { secret: 's' })).toBe(1);
  });

  it('closes a connection that does not complete the handshake in time, but not a ready one', async () => {
    const { path } = await server({ handshakeTimeoutMs: 150 });
    const ready = (await RawClient.ready(path)).client;
    const idle = await RawClient.connect(path);
    expect(await idle.next(2000)).toEqual({ opcode: Opcode.Close, payload: { code: 1003, message: 'did not handshake in time' } });
    await idle.closed;
    expect(ready.isOpen).toBe(true);
  });
});

describe('shutdown', () => {
  it('answers a handshake being decided with READY before it closes the connection (issue 27 §4: a game waiting while the host starts and is stopped)', async () => {
    let found: (app: { name: string }) => void = () => undefined;
    const lookup = new Promise<{ name: string }>((resolve) => (found = resolve));
    const t = await server({ resolveApplication: () => lookup });
    const waiting = await RawClient.connect(t.path);
    waiting.send(Opcode.Handshake, { v: 1, client_id: '123456789012345678' });
    await waitUntil(() => [...t.server.connections()].some((connection) => connection.handshakePending), 'the handshake to wait on its application');
    const closing = t.server.closeAll();
    found({ name: 'Late Game' });
    await closing;
    await waiting.closed;
    expect(waiting.frames.map((frame) => frame.payload)).toMatchObject([{ evt: 'READY' }, { code: 1000, message: 'Companion is shutting down' }]);
  });

  it('tells a client that connects during shutdown, and still finishes', async () => {
    const t = await server();
    const { client } = await RawClient.ready(t.path);
    const closing = t.server.closeAll();
    const late = await RawClient.connect(t.path);
    expect(await late.next()).toEqual({ opcode: Opcode.Close, payload: { code: 1000, message: 'Companion is shutting down' } });
    await closing;
    await client.closed;
    await t.close();
    ts = undefined;
  });
});
