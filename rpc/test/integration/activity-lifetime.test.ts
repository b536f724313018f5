import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFrame, Opcode, type ActivityChange } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer;
let changes: ActivityChange[];
beforeEach(async () => {
  ts = await startTestServer();
  changes = [];
  ts.server.on('activity', (change) => changes.push(change));
});
afterEach(async () => ts.close());

function waitForChanges(count: number): Promise<void> {
  return waitUntil(() => changes.length >= count, `${count} activity changes`);
}

describe('activity lifetime', () => {
  it('keeps one activity per connection', async () => {
    const a = (await RawClient.ready(ts.path, '111111111111111111')).client;
    const b = (await RawClient.ready(ts.path, '222222222222222222')).client;
    await a.request('SET_ACTIVITY', { pid: 1, activity: { state: 'game A' } });
    await b.request('SET_ACTIVITY', { pid: 2, activity: { state: 'game B' } });
    const live = [...ts.server.connections()].map((c) => [c.clientId, c.pid, c.activity?.state]);
    expect(live).toEqual([
      ['111111111111111111', 1, 'game A'],
      ['222222222222222222', 2, 'game B'],
    ]);
  });

  it('replies data null to a clear, for activity null and for activity absent', async () => {
    const { client } = await RawClient.ready(ts.path);
    await client.request('SET_ACTIVITY', { pid: 1, activity: { state: 'on' } });
    expect(await client.request('SET_ACTIVITY', { pid: 1, activity: null })).toMatchObject({ data: null, evt: null });
    expect(await client.request('SET_ACTIVITY', { pid: 1 })).toMatchObject({ data: null, evt: null });
    expect(changes.map((c) => c.activity?.state ?? null)).toEqual(['on', null, null]);
  });

  it('clears the activity when the connection closes, after the frames it already sent', async () => {
    const { client } = await RawClient.ready(ts.path);
    // Set, then close in the same write: the set must still be processed before the clear.
    client.socket.end(encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: 'last', args: { pid: 9, activity: { state: 'last words' } } }));
    await waitForChanges(2);
    expect(changes.map((c) => [c.cause, c.activity?.state ?? null])).toEqual([
      ['command', 'last words'],
      ['disconnect', null],
    ]);
    expect(changes[1]?.pid).toBe(9);
  });

  it('does not announce a clear on disconnect when the connection had no activity', async () => {
    const { client } = await RawClient.ready(ts.path);
    let disconnected = false;
    ts.server.on('disconnect', () => (disconnected = true));
    client.close();
    await waitUntil(() => disconnected, 'the disconnect');
    expect(changes).toEqual([]);
  });

  it('leaves other connections\' activities in place when one disconnects', async () => {
    const a = (await RawClient.ready(ts.path, '111111111111111111')).client;
    const b = (await RawClient.ready(ts.path, '222222222222222222')).client;
    await a.request('SET_ACTIVITY', { pid: 1, activity: { state: 'game A' } });
    await b.request('SET_ACTIVITY', { pid: 2, activity: { state: 'game B' } });
    a.close();
    await waitForChanges(3);
    expect([...ts.server.connections()].map((c) => c.activity?.state)).toEqual(['game B']);
  });
});
