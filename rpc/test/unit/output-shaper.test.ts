import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, Opcode } from '../../src/index.js';
import { checkOutputShaping, OutputShaper, splitBuffer } from '../../src/server/output-shaper.js';
import type { FrameSink } from '../../src/server/outbound-queue.js';

class FakeSink implements FrameSink {
  readonly writes: Buffer[] = [];
  destroyed = false;
  writable = true;
  writableLength = 0;
  write(frame: Buffer): boolean {
    this.writes.push(Buffer.from(frame));
    return true;
  }
}

const frame = (n: number): Buffer => encodeFrame(Opcode.Frame, { n });

afterEach(() => {
  vi.useRealTimers();
});

describe('OutputShaper', () => {
  it('unset, writes each frame straight through', () => {
    const sink = new FakeSink();
    const shaper = new OutputShaper(sink);
    shaper.write(frame(1));
    expect(sink.writes).toEqual([frame(1)]);
    expect(shaper.current).toBeNull();
  });

  it('delays in order, counts held bytes as unsent, and a CLOSE flushes what is held first', () => {
    vi.useFakeTimers();
    let now = 0;
    const sink = new FakeSink();
    const shaper = new OutputShaper(sink, () => now);
    shaper.set({ delayMs: 100 });
    shaper.write(frame(1));
    shaper.write(frame(2));
    expect(sink.writes).toEqual([]);
    expect(shaper.writableLength).toBe(frame(1).length + frame(2).length);
    now = 100;
    vi.advanceTimersByTime(100);
    expect(sink.writes).toEqual([frame(1), frame(2)]);
    expect(shaper.writableLength).toBe(0);

    shaper.write(frame(3));
    const close = encodeFrame(Opcode.Close, { code: 1000, message: 'bye' });
    shaper.write(close);
    expect(sink.writes.slice(2)).toEqual([frame(3), close]);
  });

  it('splits into pieces gap apart, frames kept whole in order', () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    const shaper = new OutputShaper(sink);
    shaper.set({ split: { parts: 3, gapMs: 10 } });
    shaper.write(frame(1));
    shaper.write(frame(2));
    expect(sink.writes).toHaveLength(1);
    vi.advanceTimersByTime(10);
    expect(sink.writes).toHaveLength(2);
    vi.advanceTimersByTime(100);
    expect(sink.writes).toHaveLength(6);
    expect(Buffer.concat(sink.writes)).toEqual(Buffer.concat([frame(1), frame(2)]));
  });

  it('coalesces N frames into one write, or what came within the window', () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    const shaper = new OutputShaper(sink);
    shaper.set({ coalesce: { frames: 2, windowMs: 50 } });
    shaper.write(frame(1));
    shaper.write(frame(2));
    shaper.write(frame(3));
    expect(sink.writes).toEqual([Buffer.concat([frame(1), frame(2)])]);
    vi.advanceTimersByTime(50);
    expect(sink.writes).toEqual([Buffer.concat([frame(1), frame(2)]), frame(3)]);
  });

  it('clearing writes what is held at once; a gone socket drops it', () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    const shaper = new OutputShaper(sink);
    shaper.set({ delayMs: 1000 });
    shaper.write(frame(1));
    shaper.set(null);
    expect(sink.writes).toEqual([frame(1)]);

    shaper.set({ delayMs: 1000 });
    shaper.write(frame(2));
    sink.destroyed = true;
    vi.advanceTimersByTime(1000);
    expect(sink.writes).toEqual([frame(1)]);
    expect(shaper.writableLength).toBe(0);
  });

  it('checks its settings and says which is wrong', () => {
    expect(checkOutputShaping({})).toBeNull();
    expect(checkOutputShaping({ delayMs: 0 })).toBeNull();
    expect(() => checkOutputShaping({ delayMs: -1 })).toThrow('delayMs must be an integer from 0 to 60000, got -1');
    expect(() => checkOutputShaping({ split: { parts: 1, gapMs: 0 } })).toThrow(/^split.parts/);
    expect(() => checkOutputShaping({ coalesce: { frames: 2, windowMs: 0 } })).toThrow(/^coalesce.windowMs/);
  });

  it('splitBuffer makes no empty piece', () => {
    expect(splitBuffer(Buffer.from('abc'), 8).map((piece) => piece.toString())).toEqual(['a', 'b', 'c']);
    expect(splitBuffer(Buffer.from('abcdefgh'), 3).map((piece) => piece.length)).toEqual([3, 2, 3]);
  });
});
