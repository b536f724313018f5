import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, Opcode, type ActivityChange, type RpcLogger, type RpcConnection } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitUntil } from '../support/wait.js';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

/** A 575-byte SET_ACTIVITY like the Rust crate's README example sends in its loop. */
function setActivity(i: number): Buffer {
  const activity = {
    state: `Level ${i}`.padEnd(100, '.'),
    details: 'Exploring the caves'.padEnd(110, '.'),
    timestamps: { start: 1_700_000_000 },
    assets: { large_image: 'cave', large_text: 'The caves'.padEnd(80, '.'), small_image: 'hero', small_text: 'Hero'.padEnd(60, '.') },
  };
  return encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', nonce: `n-${i}`, args: { pid: 4242, activity } });
}

describe('a game that never reads its replies', () => {
  it('keeps being read: 10,000 SET_ACTIVITY are all applied, memory stays bounded, and it is said once', async () => {
    const infos: string[] = [];
    const logger: RpcLogger = { debug: () => undefined, info: (_f, message) => void infos.push(message), warn: () => undefined, error: () => undefined };
    ts = await startTestServer({ logger });
    const applied: ActivityChange[] = [];
    ts.server.on('activity', (change) => applied.push(change));
    const notices: RpcConnection[] = [];
    ts.server.on('replies-dropped', (connection) => notices.push(connection));
    const { client } = await RawClient.ready(ts.path);
    client.socket.pause(); // never reads from here on
    const count = 10_000;
    // Writes as a blocking game would: each write waits for the socket to take it.
    await client.writeBlocking(setActivity, count);
    await waitUntil(() => applied.length === count, `all ${count} SET_ACTIVITY applied (got ${applied.length})`, 20_000);
    const last = applied.at(-1)?.activity as { state?: string } | undefined;
    expect(last?.state).toBe(`Level ${count - 1}`.padEnd(100, '.'));
    const [connection] = [...ts.server.connections()];
    expect(connection?.droppedReplies).toBeGreaterThan(count / 2);
    expect(client.isOpen).toBe(true);
    expect(notices).toHaveLength(1);
    expect(infos.filter((message) => message.startsWith('the client does not read its replies'))).toHaveLength(1);
    // Once it reads, it gets what was kept (the newest replies), the last one among them.
    client.socket.resume();
    await waitUntil(() => client.frames.some((frame) => frame.payload?.nonce === `n-${count - 1}`), 'the reply to the last SET_ACTIVITY', 10_000);
    const nonces = client.frames.slice(1).map((frame) => Number(String(frame.payload?.nonce).slice(2)));
    expect(nonces).toEqual([...nonces].sort((a, b) => a - b)); // in order, gaps where dropped
    expect(nonces.length).toBeLessThan(count);
  }, 60_000);

  it('a PING flood that is never read still pauses reading (PONGs are never dropped)', async () => {
    ts = await startTestServer();
    const { client } = await RawClient.ready(ts.path);
    client.socket.pause();
    const ping = encodeFrame(Opcode.Ping, 'x'.repeat(30_000));
    for (let i = 0; i < 400; i += 1) client.socket.write(ping);
    await waitUntil(() => client.socket.writableLength > 4 * 1024 * 1024, 'the server to stop reading', 5000);
    client.socket.resume();
    await waitUntil(() => client.frames.filter((frame) => frame.opcode === Opcode.Pong).length === 400, 'every PONG', 15_000);
  }, 30_000);
});
