/* eslint-disable @typescript-eslint/no-explicit-any -- replies are arbitrary JSON */
/**
 * Output shaping (`POST /v1/inject/output`), observed at the socket by raw clients: every
 * read is logged with its time and bytes. Delay makes replies late, split cuts a frame into
 * pieces that arrive in separate reads, coalesce puts several frames into one read; the
 * frames still decode, and the other connection is not affected.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Opcode } from '../../../../rpc/src/index.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { controlCall, DEMO_APP_ID, World, type Player } from '../../e2e/support/world.js';
import { connectionIdOf } from './support.js';

interface Chunk {
  readonly at: number;
  readonly bytes: number;
  /** Frames that completed in this read. */
  readonly frames: any[];
}

/** A raw IPC client's reads (RawClient keeps every read with its time and size), as this test looks at them. */
class ChunkClient {
  private readonly viewed: Chunk[] = [];

  private constructor(private readonly client: RawClient) {}

  static async ready(path: string, name: string): Promise<ChunkClient> {
    const client = await RawClient.connect(path, { maxPayload: 1 << 20 });
    const chunks = new ChunkClient(client);
    client.send(Opcode.Handshake, { v: 1, client_id: DEMO_APP_ID });
    await chunks.frameWhere((frame) => frame.evt === 'READY');
    client.send(Opcode.Frame, { cmd: 'SET_ACTIVITY', args: { pid: 4242, activity: { state: name } }, nonce: `activity-${name}` });
    await chunks.frameWhere((frame) => frame.nonce === `activity-${name}`);
    return chunks;
  }

  /** Every read so far, in order, each with the payloads of the frames it completed. */
  get chunks(): readonly Chunk[] {
    for (const read of this.client.reads.slice(this.viewed.length)) {
      this.viewed.push({ at: read.at, bytes: read.bytes, frames: read.frames.map((frame) => frame.payload) });
    }
    return this.viewed;
  }

  /** A command the server answers at once without side effects (4002 Invalid command). */
  ask(nonce: string): void {
    this.client.send(Opcode.Frame, { cmd: 'PROBE_REPLY', args: {}, nonce });
  }

  /** The read in which the frame matching `match` completed. */
  async frameWhere(match: (frame: any) => boolean, timeoutMs = 3000): Promise<Chunk> {
    await this.client.waitFor((frame) => match(frame.payload), 'the frame', timeoutMs);
    return this.chunks.find((chunk) => chunk.frames.some(match)) as Chunk;
  }

  close(): void {
    this.client.close();
  }
}

let world: World;
let alice: Player;
let target: ChunkClient;
let bystander: ChunkClient;
let targetId: string;

beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice', { qa: true });
  target = await ChunkClient.ready(alice.host.ipcPath, 'target');
  bystander = await ChunkClient.ready(alice.host.ipcPath, 'bystander');
  targetId = await connectionIdOf(alice, 'target');
});
afterEach(async () => {
  target.close();
  bystander.close();
  await world.close();
});

async function shape(body: Record<string, unknown>): Promise<any> {
  const reply = await controlCall(alice.host, 'POST', '/v1/inject/output', { connection_id: targetId, ...body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const isReply = (nonce: string) => (frame: any): boolean => frame.nonce === nonce;

describe('POST /v1/inject/output', () => {
  it('delay: replies arrive that much later and in order; the other connection is not delayed', async () => {
    expect(await shape({ delay_ms: 300 })).toEqual({ connection_id: targetId, shaping: { delay_ms: 300 } });
    const sent = performance.now();
    target.ask('d1');
    target.ask('d2');
    bystander.ask('b1');
    const other = await bystander.frameWhere(isReply('b1'));
    const first = await target.frameWhere(isReply('d1'));
    const second = await target.frameWhere(isReply('d2'));
    expect(other.at - sent).toBeLessThan(250);
    expect(first.at - sent).toBeGreaterThanOrEqual(290);
    expect(second.at).toBeGreaterThanOrEqual(first.at);
    expect(first.frames.find(isReply('d1'))).toMatchObject({ cmd: 'PROBE_REPLY', evt: 'ERROR', data: { code: 4002 } });
  });

  it('split: one frame arrives in as many reads as pieces, gap apart, and still decodes', async () => {
    expect((await shape({ split: { parts: 4, gap_ms: 25 } })).shaping).toEqual({ split: { parts: 4, gap_ms: 25 } });
    const before = target.chunks.length;
    target.ask('s1');
    const last = await target.frameWhere(isReply('s1'));
    const reads = target.chunks.slice(before, target.chunks.indexOf(last) + 1);
    // Four writes 25 ms apart: four reads, unless a busy machine read two pieces at once.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.length).toBeLessThanOrEqual(4);
    expect(reads.slice(0, -1).every((chunk) => chunk.frames.length === 0)).toBe(true);
    expect((reads.at(-1) as Chunk).at - (reads[0] as Chunk).at).toBeGreaterThanOrEqual(20);
    expect(last.frames).toEqual([expect.objectContaining({ cmd: 'PROBE_REPLY', nonce: 's1', data: expect.objectContaining({ code: 4002 }) })]);

    // The bystander's replies are whole frames in one read.
    const otherBefore = bystander.chunks.length;
    bystander.ask('b2');
    const whole = await bystander.frameWhere(isReply('b2'));
    expect(bystander.chunks.length - otherBefore).toBe(1);
    expect(whole.frames).toHaveLength(1);
  });

  it('coalesce: pipelined replies come in one read, and a lone frame leaves after the window', async () => {
    await shape({ coalesce: { frames: 3, window_ms: 2000 } });
    target.ask('c1');
    target.ask('c2');
    target.ask('c3');
    const together = await target.frameWhere(isReply('c3'));
    expect(together.frames.map((frame) => frame.nonce)).toEqual(['c1', 'c2', 'c3']);

    await shape({ coalesce: { frames: 5, window_ms: 100 } });
    const sent = performance.now();
    target.ask('w1');
    target.ask('w2');
    const windowed = await target.frameWhere(isReply('w2'));
    expect(windowed.frames.map((frame) => frame.nonce)).toEqual(['w1', 'w2']);
    expect(windowed.at - sent).toBeGreaterThanOrEqual(90);
  });

  it('reset: frames go out normally again; what was held is written at once', async () => {
    await shape({ delay_ms: 5000 });
    const sent = performance.now();
    target.ask('held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await shape({})).toEqual({ connection_id: targetId, shaping: null });
    const released = await target.frameWhere(isReply('held'));
    expect(released.at - sent).toBeLessThan(1000);
    target.ask('after');
    const after = await target.frameWhere(isReply('after'));
    expect(after.frames).toHaveLength(1);
  });

  it('names bad input: an unknown connection, values out of range', async () => {
    const unknown = await controlCall(alice.host, 'POST', '/v1/inject/output', { connection_id: 'c404', delay_ms: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('No game connection c404');
    const tooLong = await controlCall(alice.host, 'POST', '/v1/inject/output', { connection_id: targetId, delay_ms: 600_000 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('delay_ms: must be at most 60000');
    const onePart = await controlCall(alice.host, 'POST', '/v1/inject/output', { connection_id: targetId, split: { parts: 1 } });
    expect(onePart.status).toBe(400);
    expect(onePart.body.message).toBe('split.parts: must be at least 2');
  });
});
