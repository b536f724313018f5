import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, TEST_IDENTITY, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer;
beforeEach(async () => {
  ts = await startTestServer();
});
afterEach(async () => ts.close());

async function handshake(payload: unknown) {
  const client = await RawClient.connect(ts.path);
  client.send(Opcode.Handshake, payload);
  const frame = await client.next();
  return { client, frame };
}

describe('handshake', () => {
  it('answers a valid handshake with READY: nonce null, config and the full user', async () => {
    const { frame } = await handshake({ v: 1, client_id: '123456789012345678' });
    expect(frame.opcode).toBe(Opcode.Frame);
    expect(frame.payload).toEqual({
      cmd: 'DISPATCH',
      data: { v: 1, config: TEST_IDENTITY.config, user: TEST_IDENTITY.user },
      evt: 'READY',
      nonce: null,
    });
    expect(Object.keys(frame.payload)).toEqual(['cmd', 'data', 'evt', 'nonce']);
    expect(typeof frame.payload.data.user.id).toBe('string');
  });

  it('accepts v as the string "1" and a client_id given as a safe integer', async () => {
    const { frame } = await handshake({ v: '1', client_id: 1234567 });
    expect(frame.payload.evt).toBe('READY');
  });

  it.each([
    [{ v: 1 }, 4000, 'No Client ID Specified'],
    [{ v: 1, client_id: '' }, 4000, 'No Client ID Specified'],
    [{ v: 1, client_id: 'my-game' }, 4000, 'Invalid Client ID'],
    [{ v: 1, client_id: 123456789012345680 }, 4000, 'Invalid Client ID'],
    [{ v: 2, client_id: '123456789012345678' }, 4004, 'Invalid Version: 2'],
    [{ v: null, client_id: '123456789012345678' }, 4004, 'Invalid Version: null'],
  ])('refuses %j with a CLOSE frame %i "%s", never an ERROR frame', async (payload, code, message) => {
    const { client, frame } = await handshake(payload);
    expect(frame).toEqual({ opcode: Opcode.Close, payload: { code, message } });
    await client.closed;
    expect(client.frames).toHaveLength(1);
  });

  it('counts a refused handshake as a disconnect of that connection only', async () => {
    const reasons: string[] = [];
    ts.server.on('disconnect', (_c, info) => reasons.push(info.reason));
    const good = (await RawClient.ready(ts.path)).client;
    const { client } = await handshake({ v: 3, client_id: '123456789012345678' });
    await client.closed;
    await waitUntil(() => reasons.length > 0, 'the disconnect');
    expect(reasons).toEqual(['handshake-refused']);
    expect((await good.request('SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN' })).data).toEqual({ evt: 'ACTIVITY_JOIN' });
  });
});
