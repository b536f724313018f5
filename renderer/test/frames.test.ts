import { describe, expect, it } from 'vitest';
import { defaultWidths, FRAME_COLUMNS, gridTemplate, MAX_COLUMN_WIDTH, parseWidths, rowWidth } from '../src/lib/frame-columns';
import { appendCapped, chipKey, connectionIds, createFramePairer, facetValues, filterRows, nextChipState, sortRows, type FrameRow } from '../src/store/frames';
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

describe('filter chips, negated words and sorting', () => {
  const rows = (): FrameRow[] => {
    const pairer = createFramePairer();
    return [
      frame(1, { cmd: 'SET_ACTIVITY', nonce: 'a', at: 0 }),
      frame(2, { cmd: 'SET_ACTIVITY', nonce: 'a', direction: 'out', at: 30 }),
      frame(3, { opcode: 3, cmd: null, payload: 'ping' }),
      frame(4, { opcode: 4, cmd: null, direction: 'out', payload: 'ping' }),
      frame(5, { cmd: 'SUBSCRIBE', nonce: 'b', at: 50 }),
      frame(6, { cmd: 'SUBSCRIBE', nonce: 'b', direction: 'out', at: 55 }),
    ].map((f) => pairer.pair(f));
  };
  const seqs = (list: readonly FrameRow[]): number[] => list.map((row) => row.frame.seq);

  it('offers a chip per direction, opcode and command present', () => {
    expect(facetValues(rows())).toEqual({ direction: ['in', 'out'], opcode: ['FRAME', 'PING', 'PONG'], command: ['SET_ACTIVITY', 'SUBSCRIBE'] });
  });

  it("a chip on 'only' keeps its value alone in its facet; on 'hide' hides it; facets combine", () => {
    const all = rows();
    expect(seqs(filterRows(all, { connectionId: null, text: '', chips: { [chipKey('direction', 'out')]: 'only' } }))).toEqual([2, 4, 6]);
    expect(seqs(filterRows(all, { connectionId: null, text: '', chips: { [chipKey('opcode', 'PING')]: 'hide', [chipKey('opcode', 'PONG')]: 'hide' } }))).toEqual([1, 2, 5, 6]);
    expect(seqs(filterRows(all, { connectionId: null, text: '', chips: { [chipKey('command', 'SUBSCRIBE')]: 'only', [chipKey('direction', 'in')]: 'only' } }))).toEqual([5]);
    expect(seqs(filterRows(all, { connectionId: null, text: '', chips: { [chipKey('command', 'SET_ACTIVITY')]: 'only', [chipKey('command', 'SUBSCRIBE')]: 'only' } }))).toEqual([1, 2, 5, 6]);
  });

  it('a chip cycles: off, only, hide, off', () => {
    expect([nextChipState(undefined), nextChipState('only'), nextChipState('hide')]).toEqual(['only', 'hide', undefined]);
  });

  it('search words must all be found; a word starting with - must not be (hide PING)', () => {
    const all = rows();
    expect(seqs(filterRows(all, { connectionId: null, text: '-ping -pong' }))).toEqual([1, 2, 5, 6]);
    expect(seqs(filterRows(all, { connectionId: null, text: 'subscribe out' }))).toEqual([6]);
    expect(seqs(filterRows(all, { connectionId: null, text: '  -  ' }))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('sorts by time either way, by command, and by round trip with unanswered rows last', () => {
    const all = rows();
    expect(seqs(sortRows(all, { key: 'time', descending: true }))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(seqs(sortRows(all, { key: 'cmd', descending: false }))).toEqual([3, 4, 1, 2, 5, 6]);
    expect(seqs(sortRows(all, { key: 'rtt', descending: false }))).toEqual([6, 2, 1, 3, 4, 5]);
    expect(seqs(sortRows(all, { key: 'rtt', descending: true }))).toEqual([2, 6, 1, 3, 4, 5]);
    // The input is left as it was.
    expect(seqs(all)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('column widths', () => {
  it('defaults fit a UUID nonce and SET_ACTIVITY whole; stored widths are kept within bounds, anything else gives the defaults', () => {
    const nonce = FRAME_COLUMNS.findIndex((column) => column.id === 'nonce');
    // 36 characters of a 12 px monospace font are about 260 px.
    expect(defaultWidths()[nonce]).toBeGreaterThanOrEqual(270);
    expect(parseWidths(JSON.stringify(defaultWidths().map(() => 5)))).toEqual(FRAME_COLUMNS.map((column) => column.min));
    expect(parseWidths(JSON.stringify(defaultWidths().map(() => 5000)))).toEqual(FRAME_COLUMNS.map(() => MAX_COLUMN_WIDTH));
    expect(parseWidths('[1, 2]')).toEqual(defaultWidths());
    expect(parseWidths('not json')).toEqual(defaultWidths());
    expect(parseWidths(null)).toEqual(defaultWidths());
    expect(gridTemplate([10, 20])).toBe('10px 20px');
    expect(rowWidth([10, 20])).toBe(10 + 20 + 6 + 20);
  });
});

describe('consent decisions on AUTHORIZE replies', () => {
  it('the decision the host listed between an AUTHORIZE and its reply goes on the reply; other replies get none', () => {
    const pairer = createFramePairer();
    const host = (seq: number, connection: string, evt: string) => frame(seq, { direction: 'host', opcode: -1, cmd: 'consent', evt, connection_id: connection, nonce: null });
    pairer.pair(frame(1, { cmd: 'AUTHORIZE', nonce: 'a' }));
    pairer.pair(host(2, 'c1', 'denied (player)'));
    expect(pairer.pair(frame(3, { cmd: 'AUTHORIZE', nonce: 'a', direction: 'out', evt: 'ERROR' })).decision).toBe('denied (player)');
    // A decision listed before the command answered an earlier one, not this.
    pairer.pair(frame(4, { cmd: 'AUTHORIZE', nonce: 'b' }));
    expect(pairer.pair(frame(5, { cmd: 'AUTHORIZE', nonce: 'b', direction: 'out', evt: 'ERROR' })).decision).toBeNull();
    // Another connection's decision is not this one's.
    pairer.pair(frame(6, { cmd: 'AUTHORIZE', nonce: 'c' }));
    pairer.pair(host(7, 'c2', 'dismissed (player)'));
    pairer.pair(host(8, 'c1', 'dismissed (player)'));
    expect(pairer.pair(frame(9, { cmd: 'AUTHORIZE', nonce: 'c', direction: 'out', evt: 'ERROR' })).decision).toBe('dismissed (player)');
    pairer.pair(frame(10, { cmd: 'SET_ACTIVITY', nonce: 'd' }));
    expect(pairer.pair(frame(11, { cmd: 'SET_ACTIVITY', nonce: 'd', direction: 'out' })).decision).toBeUndefined();
  });
});
