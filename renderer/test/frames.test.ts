import { describe, expect, it } from 'vitest';
import { appendCapped, connectionIds, createFramePairer } from '../src/store/frames';
import { frame } from './fake-bridge';

describe('nonce pairing and round-trip time', () => {
  it('pairs an out reply with the in command of the same nonce on the same connection', () => {
    const pairer = createFramePairer();
    expect(pairer.pair(frame(1, { nonce: 'a', at: 100 }))).toMatchObject({ rttMs: null, pairSeq: null });
    expect(pairer.pair(frame(2, { nonce: 'a', direction: 'out', at: 145 }))).toMatchObject({ rttMs: 45, pairSeq: 1 });
    expect(pairer.waiting).toBe(0);
  });

  it('keeps connections apart: the same nonce on another connection is not a reply', () => {
    const pairer = createFramePairer();
    pairer.pair(frame(1, { connection_id: 'c1', nonce: 'n', at: 100 }));
    pairer.pair(frame(2, { connection_id: 'c2', nonce: 'n', at: 110 }));
    expect(pairer.pair(frame(3, { connection_id: 'c2', nonce: 'n', direction: 'out', at: 130 }))).toMatchObject({ rttMs: 20, pairSeq: 2 });
    expect(pairer.pair(frame(4, { connection_id: 'c1', nonce: 'n', direction: 'out', at: 200 }))).toMatchObject({ rttMs: 100, pairSeq: 1 });
  });

  it('pairs out of order replies and answers each command once', () => {
    const pairer = createFramePairer();
    pairer.pair(frame(1, { nonce: 'a', at: 0 }));
    pairer.pair(frame(2, { nonce: 'b', at: 5 }));
    expect(pairer.pair(frame(3, { nonce: 'b', direction: 'out', at: 9 }))).toMatchObject({ rttMs: 4, pairSeq: 2 });
    expect(pairer.pair(frame(4, { nonce: 'a', direction: 'out', at: 30 }))).toMatchObject({ rttMs: 30, pairSeq: 1 });
    expect(pairer.pair(frame(5, { nonce: 'a', direction: 'out', at: 40 }))).toMatchObject({ rttMs: null, pairSeq: null });
  });

  it('leaves frames without a nonce (dispatches, handshakes) unpaired', () => {
    const pairer = createFramePairer();
    pairer.pair(frame(1, { nonce: null }));
    expect(pairer.pair(frame(2, { nonce: null, direction: 'out', evt: 'READY', cmd: 'DISPATCH' }))).toMatchObject({ rttMs: null, pairSeq: null });
    expect(pairer.waiting).toBe(0);
  });

  it('a reply before its command (clock skew) never gives a negative time', () => {
    const pairer = createFramePairer();
    pairer.pair(frame(1, { nonce: 'a', at: 100 }));
    expect(pairer.pair(frame(2, { nonce: 'a', direction: 'out', at: 90 })).rttMs).toBe(0);
  });

  it('forgets the oldest unanswered commands beyond its cap', () => {
    const pairer = createFramePairer(3);
    for (let i = 1; i <= 5; i += 1) pairer.pair(frame(i, { nonce: `n${i}` }));
    expect(pairer.waiting).toBe(3);
    expect(pairer.pair(frame(6, { nonce: 'n1', direction: 'out' })).pairSeq).toBeNull();
    expect(pairer.pair(frame(7, { nonce: 'n5', direction: 'out' })).pairSeq).toBe(5);
  });
});

describe('appendCapped', () => {
  it('appends under the cap and drops the oldest beyond it', () => {
    expect(appendCapped([1, 2], [3], 5)).toEqual([1, 2, 3]);
    expect(appendCapped([1, 2, 3, 4], [5, 6, 7], 5)).toEqual([3, 4, 5, 6, 7]);
    expect(appendCapped([1], [2, 3, 4, 5, 6, 7], 3)).toEqual([5, 6, 7]);
  });

  it('returns the same list when nothing is added and never mutates its inputs', () => {
    const list = [1, 2];
    expect(appendCapped(list, [], 5)).toBe(list);
    const added = [3];
    appendCapped(list, added, 2);
    expect(list).toEqual([1, 2]);
    expect(added).toEqual([3]);
  });
});

describe('connectionIds', () => {
  it('lists connections in order of first appearance', () => {
    const pairer = createFramePairer();
    const rows = [frame(1, { connection_id: 'b' }), frame(2, { connection_id: 'a' }), frame(3, { connection_id: 'b' })].map((f) => pairer.pair(f));
    expect(connectionIds(rows)).toEqual(['b', 'a']);
  });
});
