import { afterEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

describe('the connection cap', () => {
  it('answers one connection too many with CLOSE 4002 and keeps serving the others', async () => {
    ts = await startTestServer({ maxConnections: 3 });
    const held = await Promise.all([1, 2, 3].map(async () => (await RawClient.ready(ts!.path)).client));
    const extra = await RawClient.connect(ts.path);
    const refusal = await extra.next();
    expect(refusal).toEqual({ opcode: Opcode.Close, payload: { code: 4002, message: 'Too many connections (at most 3)' } });
    await extra.closed;
    for (const client of held) expect((await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'still served' } })).evt).toBeNull();
    // A place that frees up is taken again.
    held[0]!.close();
    await waitUntil(() => [...ts!.server.connections()].length === 2, 'the closed connection to go', 5000);
    const { ready } = await RawClient.ready(ts.path);
    expect(ready.evt).toBe('READY');
  });

});
