import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IdleHeapRelease, releaseHeapWhenIdle } from '../../../src/host/compose/idle-heap-release.js';

const BUILT = new URL('../../../../out/main/src/host/compose/idle-heap-release.js', import.meta.url).href;
const MiB = 1024 * 1024;

function harness(heap: { bytes: number }): { release: IdleHeapRelease; collections: () => number } {
  let collections = 0;
  const release = new IdleHeapRelease({
    collect: () => {
      collections += 1;
      heap.bytes = Math.min(heap.bytes, 10 * MiB);
      return Promise.resolve(true);
    },
    checkMs: 3_600_000,
    minGrowthBytes: 2 * MiB,
    heapBytes: () => heap.bytes,
  });
  return { release, collections: () => collections };
}

describe('heap released when the games go quiet', () => {
  it('the first quiet period after start releases what start-up left', async () => {
    const heap = { bytes: 19 * MiB };
    const { release, collections } = harness(heap);
    await release.check();
    expect(collections()).toBeGreaterThan(0);
    expect(release.releases).toBe(1);
    expect(heap.bytes).toBe(10 * MiB);
    release.dispose();
  });

  it('nothing while updates keep coming; once a whole period passed without one, a release', async () => {
    const heap = { bytes: 10 * MiB };
    const { release } = harness(heap);
    await release.check(); // start-up's release
    heap.bytes = 40 * MiB;
    for (let period = 0; period < 5; period += 1) {
      release.touch();
      await release.check();
    }
    expect(release.releases).toBe(1);
    await release.check();
    expect(release.releases).toBe(2);
    expect(heap.bytes).toBe(10 * MiB);
    release.dispose();
  });

  it('a quiet host whose heap did not grow is left alone', async () => {
    const heap = { bytes: 19 * MiB };
    const { release } = harness(heap);
    await release.check();
    heap.bytes += MiB;
    await release.check();
    await release.check();
    expect(release.releases).toBe(1);
    release.dispose();
  });

  it('issue 27 §4: once a quiet period has been checked, no timer runs until a game sends an update', async () => {
    const heap = { bytes: 19 * MiB };
    const { release } = harness(heap);
    expect(release.armed).toBe(true);
    await release.check();
    expect(release.releases).toBe(1);
    expect(release.armed).toBe(false);
    release.touch();
    expect(release.armed).toBe(true);
    await release.check();
    expect(release.armed).toBe(true);
    heap.bytes = 40 * MiB;
    await release.check();
    expect(release.releases).toBe(2);
    expect(release.armed).toBe(false);
    release.dispose();
  });

  it('serve arms it again on a game’s update and on a gateway dispatch (V8’s memory reducer is off on Node 22 and 24), and stops it when the host closes', async () => {
    const server = new EventEmitter();
    const session = new EventEmitter();
    let close = (): void => undefined;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const release = releaseHeapWhenIdle({ server, session }, closed);
    expect(release.armed).toBe(true);
    await release.check(); // start-up's release, a real collection in this process
    expect(release.armed).toBe(false);
    session.emit('dispatch', 'PRESENCE_UPDATE', {});
    expect(release.armed).toBe(true);
    await release.check();
    await release.check();
    expect(release.armed).toBe(false);
    server.emit('activity', {});
    expect(release.armed).toBe(true);
    close();
    await closed;
    await Promise.resolve();
    expect(release.armed).toBe(false);
    session.emit('dispatch', 'PRESENCE_UPDATE', {});
    expect(release.armed).toBe(false);
  });

  it('a node without an inspector: the release stops trying', async () => {
    const heap = { bytes: 19 * MiB };
    let calls = 0;
    const release = new IdleHeapRelease({ collect: () => Promise.resolve((calls += 1) < 0), checkMs: 3_600_000, heapBytes: () => heap.bytes });
    await release.check();
    await release.check();
    expect(calls).toBe(1);
    expect(release.releases).toBe(0);
  });

  it('the collection gives the heap back to the OS, without --inspect or --expose-gc', () => {
    // A process of its own: its heap grown by garbage, then one collection.
    const script = `
      const v8 = await import('node:v8');
      const { memoryReducingCollection } = await import(${JSON.stringify(BUILT)});
      let keep = [];
      for (let round = 0; round < 20; round += 1) {
        const batch = [];
        for (let i = 0; i < 100000; i += 1) batch.push({ i, s: 'x' + i });
        if (round % 5 === 0) keep.push(batch);
      }
      keep = null;
      const before = v8.getHeapStatistics().total_heap_size;
      const done = await memoryReducingCollection();
      console.log(JSON.stringify({ done, before, after: v8.getHeapStatistics().total_heap_size }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const { done, before, after } = JSON.parse(run.stdout) as { done: boolean; before: number; after: number };
    expect(done).toBe(true);
    expect(after).toBeLessThan(before / 2);
  });
});
