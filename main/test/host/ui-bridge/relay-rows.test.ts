/**
 * Issue 27 §4: a presence relay outcome's inspector row is kept in a few bytes after its
 * connection's opening (relay-row.ts), and shows exactly what the JSON row showed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventEntry } from '../../../src/host/ui-bridge/frame-entries.js';
import { FrameLog } from '../../../src/host/ui-bridge/frame-log.js';
import { decodeRelayRow, RelayRowWriter } from '../../../src/host/ui-bridge/relay-row.js';
import type { RelayOutcome, RelayOutcomeDetail } from '../../../src/host/presence/relay-outcomes.js';

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constant(''));
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1_764_355_200_123, 2 ** 53 - 1, -0, Number.NaN, Number.POSITIVE_INFINITY));
const detailArb: fc.Arbitrary<RelayOutcomeDetail> = fc.oneof(
  fc.constant({ kind: 'sent' as const }),
  fc.constant({ kind: 'unchanged' as const }),
  number.map((count) => ({ kind: 'coalesced' as const, count })),
  fc.tuple(number, number).map(([until, count]) => ({ kind: 'held' as const, until, count })),
  fc.tuple(text, text).map(([byApp, byConnection]) => ({ kind: 'shadowed' as const, by_application_id: byApp, by_connection_id: byConnection })),
  fc.constantFrom('hide-all' as const, 'app' as const).map((rule) => ({ kind: 'hidden' as const, rule })),
  fc.tuple(text, fc.option(number, { nil: null })).map(([reason, retry]) => ({ kind: 'rejected' as const, reason, retry_after_ms: retry })),
);
const outcomeArb = (connectionId: string): fc.Arbitrary<RelayOutcome> =>
  fc.tuple(text, number, fc.constantFrom('command' as const, 'disconnect' as const), fc.boolean(), number, detailArb).map(([applicationId, update, cause, cleared, at, detail]) => ({
    connection_id: connectionId,
    application_id: applicationId,
    update,
    cause,
    cleared,
    at,
    ...detail,
  }));

/** The log with connection `c1` past its opening (head 1: its first row). */
function logPastOpening(): FrameLog {
  const log = new FrameLog({ head: 1 });
  log.record({ connectionId: 'c1', direction: 'in', opcode: 0, payload: { v: 1, client_id: '1' }, at: 0 });
  return log;
}

describe('issue 27 §4: relay outcome rows', () => {
  it('every relay row shows what its JSON row shows, field order included, whatever the outcome', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(outcomeArb('c1'), number), { minLength: 1, maxLength: 20 }), (outcomes) => {
        const log = logPastOpening();
        const expected = outcomes.map(([outcome, at], i) => {
          const view = log.recordRelay(outcome, at).view();
          expect(view).toEqual(new EventEntry(i + 2, at, { kind: 'relay', connection: 'c1', outcome }).view());
          expect(JSON.stringify(view)).toBe(JSON.stringify(new EventEntry(i + 2, at, { kind: 'relay', connection: 'c1', outcome }).view()));
          return view;
        });
        expect(log.list().slice(1)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('past the opening it is kept as bytes, not JSON; in the opening and for a ring not made yet, as JSON', () => {
    const outcome: RelayOutcome = { connection_id: 'c1', application_id: '1000', update: 3, cause: 'command', cleared: false, at: 5, kind: 'held', until: 1_764_355_200_123, count: 2 };
    const log = logPastOpening();
    log.recordRelay(outcome, 7);
    const held = Buffer.concat(log.heldBytes());
    expect(held.toString('latin1')).not.toContain('"kind"');
    expect(decodeRelayRow(held, 'c1')).toEqual(outcome);

    const fresh = new FrameLog({ head: 4 });
    fresh.recordRelay({ ...outcome, connection_id: 'c2' }, 7);
    expect(fresh.heldBytes()).toEqual([]);
    expect(fresh.list()).toEqual([new EventEntry(1, 7, { kind: 'relay', connection: 'c2', outcome: { ...outcome, connection_id: 'c2' } }).view()]);
  });

  it('an outcome with a field not of its type is kept as JSON, shown as it came', () => {
    const odd = { connection_id: 'c1', application_id: '1000', update: '3', cause: 'command', cleared: false, at: 5, kind: 'held', until: 9, count: 1 } as unknown as RelayOutcome;
    const writer = new RelayRowWriter();
    expect(writer.encode(odd)).toBeUndefined();
    expect(writer.encode({ ...odd, update: 3, kind: 'later' } as unknown as RelayOutcome)).toBeUndefined();
    const log = logPastOpening();
    expect(log.recordRelay(odd, 7).view()).toEqual(new EventEntry(2, 7, { kind: 'relay', connection: 'c1', outcome: odd }).view());
  });

  it('a long reason grows the writer, and the next outcome is encoded from the start again', () => {
    const writer = new RelayRowWriter();
    const reason = 'é'.repeat(500);
    const rejected: RelayOutcome = { connection_id: 'c1', application_id: 'a', update: 1, cause: 'command', cleared: true, at: 2, kind: 'rejected', reason, retry_after_ms: null };
    expect(decodeRelayRow(Buffer.from(writer.encode(rejected) as Uint8Array), 'c1')).toEqual(rejected);
    const sent: RelayOutcome = { connection_id: 'c1', application_id: 'b', update: 2, cause: 'disconnect', cleared: true, at: 3, kind: 'sent' };
    expect(decodeRelayRow(Buffer.from(writer.encode(sent) as Uint8Array), 'c1')).toEqual(sent);
  });
});
