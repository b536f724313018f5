import { describe, expect, it } from 'vitest';
import { SerialWrites } from '../../src/base/serial-writes.js';

/** A write that waits until the test lets it finish, counting how many ran and the most at once. */
function gatedWrite(): { write: () => Promise<void>; release: () => void; started: () => number; mostAtOnce: () => number } {
  let started = 0;
  let running = 0;
  let most = 0;
  let gates: (() => void)[] = [];
  return {
    write: async () => {
      started += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running -= 1;
    },
    release: () => {
      const open = gates;
      gates = [];
      for (const gate of open) gate();
    },
    started: () => started,
    mostAtOnce: () => most,
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SerialWrites: one write at a time, the changes asked for meanwhile written together', () => {
  it('runs one write, then one more for every request made while it ran', async () => {
    const gate = gatedWrite();
    const writes = new SerialWrites(gate.write);
    const first = writes.request();
    await settle();
    const second = writes.request();
    const third = writes.request();
    expect(second).toBe(third);
    expect(gate.started()).toBe(1);
    gate.release();
    await first;
    await settle();
    gate.release();
    await second;
    expect(gate.started()).toBe(2);
    expect(gate.mostAtOnce()).toBe(1);
  });

  it('a failed write rejects its requests, does not stop the next, and flush waits for all', async () => {
    let calls = 0;
    const writes = new SerialWrites(async () => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
    });
    await expect(writes.request()).rejects.toThrow('disk full');
    await expect(writes.request()).resolves.toBeUndefined();
    await writes.flush();
    expect(calls).toBe(2);
  });
});
