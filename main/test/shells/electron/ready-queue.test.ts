import { describe, expect, it } from 'vitest';
import { ReadyQueue } from '../../../src/shells/electron/ready-queue.js';

type Msg = { channel: string; n: number };

function setup(limit?: number) {
  const sent: [number, Msg][] = [];
  const queue = new ReadyQueue<Msg>({
    send: (id, message) => sent.push([id, message]),
    coalesceKey: (message) => (message.channel === 'snapshot' ? 'snapshot' : null),
    ...(limit === undefined ? {} : { limit }),
  });
  return { sent, queue };
}

describe('ReadyQueue', () => {
  it('holds pushes until the window is ready, then flushes them in order', () => {
    const { sent, queue } = setup();
    queue.reset(1);
    queue.push(1, { channel: 'frames', n: 1 });
    queue.push(1, { channel: 'frames', n: 2 });
    queue.push(1, { channel: 'frames', n: 3 });
    expect(sent).toEqual([]);
    expect(queue.queued(1)).toBe(3);
    queue.markReady(1);
    expect(sent.map(([, m]) => m.n)).toEqual([1, 2, 3]);
    queue.push(1, { channel: 'frames', n: 4 });
    expect(sent.map(([, m]) => m.n)).toEqual([1, 2, 3, 4]);
    expect(queue.isReady(1)).toBe(true);
  });

  it('keeps windows apart', () => {
    const { sent, queue } = setup();
    queue.reset(1);
    queue.reset(2);
    queue.broadcast({ channel: 'frames', n: 1 });
    queue.markReady(2);
    expect(sent).toEqual([[2, { channel: 'frames', n: 1 }]]);
    queue.markReady(1);
    expect(sent).toEqual([
      [2, { channel: 'frames', n: 1 }],
      [1, { channel: 'frames', n: 1 }],
    ]);
  });

  it('keeps only the latest queued snapshot, in the place of the newest', () => {
    const { sent, queue } = setup();
    queue.reset(1);
    queue.push(1, { channel: 'snapshot', n: 1 });
    queue.push(1, { channel: 'frames', n: 2 });
    queue.push(1, { channel: 'snapshot', n: 3 });
    queue.markReady(1);
    expect(sent.map(([, m]) => m.n)).toEqual([2, 3]);
  });

  it('queues again after a reload, keeping what is queued', () => {
    const { sent, queue } = setup();
    queue.reset(1);
    queue.markReady(1);
    queue.unready(1);
    queue.push(1, { channel: 'frames', n: 1 });
    expect(sent).toEqual([]);
    queue.markReady(1);
    expect(sent.map(([, m]) => m.n)).toEqual([1]);
  });

  it('drops the oldest beyond the limit and reports how many', () => {
    const { sent, queue } = setup(2);
    queue.reset(1);
    for (let n = 1; n <= 5; n++) queue.push(1, { channel: 'frames', n });
    expect(queue.markReady(1)).toBe(3);
    expect(sent.map(([, m]) => m.n)).toEqual([4, 5]);
  });

  it('clears a destroyed window and ignores unknown ones', () => {
    const { sent, queue } = setup();
    queue.reset(1);
    queue.push(1, { channel: 'frames', n: 1 });
    queue.forget(1);
    expect(queue.queued(1)).toBe(0);
    queue.push(1, { channel: 'frames', n: 2 });
    expect(queue.markReady(1)).toBe(0);
    queue.push(9, { channel: 'frames', n: 3 });
    expect(sent).toEqual([]);
    expect(queue.windowIds()).toEqual([]);
  });

  it('stops flushing when a send destroys the window', () => {
    const sent: number[] = [];
    const queue: ReadyQueue<Msg> = new ReadyQueue<Msg>({
      send: (id, message) => {
        sent.push(message.n);
        if (message.n === 2) queue.forget(id);
      },
    });
    queue.reset(1);
    for (let n = 1; n <= 4; n++) queue.push(1, { channel: 'frames', n });
    queue.markReady(1);
    expect(sent).toEqual([1, 2]);
  });
});
