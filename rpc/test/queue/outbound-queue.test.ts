import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutboundQueue, type FrameSink } from '../../src/index.js';

class FakeSink implements FrameSink {
  destroyed = false;
  writable = true;
  writableLength = 0;
  readonly writes: Array<{ at: number; text: string }> = [];
  constructor(private readonly clock: { now: number }) {}
  write(frame: Buffer): boolean {
    this.writes.push({ at: this.clock.now, text: frame.toString() });
    return true;
  }
}

const GAP = 16;
let clock: { now: number };
let sink: FakeSink;
let overflowed: number;
let queue: OutboundQueue;

beforeEach(() => {
  vi.useFakeTimers();
  clock = { now: 1000 };
  sink = new FakeSink(clock);
  overflowed = 0;
  queue = new OutboundQueue(sink, {
    eventGapMs: GAP,
    maxBufferedBytes: 100,
    onOverflow: () => (overflowed += 1),
    now: () => clock.now,
  });
});
afterEach(() => vi.useRealTimers());

/** Advances the fake clock and the fake timers together. */
function advance(ms: number): void {
  for (let i = 0; i < ms; i += 1) {
    clock.now += 1;
    vi.advanceTimersByTime(1);
  }
}

describe('OutboundQueue', () => {
  it('writes replies at once, back to back (pipelined replies are not delayed)', () => {
    queue.reply(Buffer.from('r1'));
    queue.reply(Buffer.from('r2'));
    queue.reply(Buffer.from('r3'));
    expect(sink.writes.map((w) => w.text)).toEqual(['r1', 'r2', 'r3']);
  });

  it('holds an event until the gap after the previous write has passed', () => {
    queue.reply(Buffer.from('reply'));
    queue.event(Buffer.from('event'));
    expect(sink.writes).toHaveLength(1);
    advance(GAP - 1);
    expect(sink.writes).toHaveLength(1);
    advance(1);
    expect(sink.writes.map((w) => [w.text, w.at - 1000])).toEqual([
      ['reply', 0],
      ['event', GAP],
    ]);
  });

  it('never writes an event in the same turn that queued it, even after a long quiet time', () => {
    clock.now += 10_000;
    queue.event(Buffer.from('event'));
    expect(sink.writes).toHaveLength(0);
    advance(1);
    expect(sink.writes.map((w) => w.text)).toEqual(['event']);
  });

  it('spaces consecutive events by the gap', () => {
    queue.event(Buffer.from('e1'));
    queue.event(Buffer.from('e2'));
    queue.event(Buffer.from('e3'));
    advance(3 * GAP + 2);
    const times = sink.writes.map((w) => w.at);
    expect(sink.writes.map((w) => w.text)).toEqual(['e1', 'e2', 'e3']);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(GAP);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(GAP);
  });

  it('makes a reply that follows an event wait for the gap, keeping order', () => {
    queue.event(Buffer.from('event'));
    advance(1);
    queue.reply(Buffer.from('reply'));
    expect(sink.writes.map((w) => w.text)).toEqual(['event']);
    advance(GAP);
    expect(sink.writes.map((w) => w.text)).toEqual(['event', 'reply']);
    expect(sink.writes[1]!.at - sink.writes[0]!.at).toBeGreaterThanOrEqual(GAP);
  });

  it('drops queued frames on clear and writes nothing to a destroyed sink', () => {
    queue.event(Buffer.from('event'));
    queue.clear();
    advance(GAP * 2);
    expect(sink.writes).toHaveLength(0);
    sink.destroyed = true;
    queue.reply(Buffer.from('late'));
    expect(sink.writes).toHaveLength(0);
  });

  it('reports a peer that stops reading once its unsent bytes pass the limit', () => {
    sink.writableLength = 101;
    queue.reply(Buffer.from('x'));
    expect(overflowed).toBe(1);
  });
});

describe('OutboundQueue.final', () => {
  it('writes the closing frame at once, even right after an event, and drops what was queued', () => {
    queue.event(Buffer.from('event'));
    advance(1);
    queue.reply(Buffer.from('queued reply'));
    queue.final(Buffer.from('close'));
    expect(sink.writes.map((w) => w.text)).toEqual(['event', 'close']);
    advance(GAP * 2);
    expect(sink.writes.map((w) => w.text)).toEqual(['event', 'close']);
  });
});
