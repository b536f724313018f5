/**
 * Issue 27 §4: the inspector's rings record a frame at next to no cost (rows after a
 * connection's opening kept off the heap, row-store.ts), and keep every promise they made:
 * the same views, no secret in memory, bounded by what they really hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameLog } from '../../../src/host/ui-bridge/frame-log.js';
import { FrameEntry, keptJson, type FrameLinter } from '../../../src/host/ui-bridge/frame-entries.js';
import { SLOT_BYTES } from '../../../src/host/ui-bridge/row-store.js';
import { RingsBySize, type SizeLinks } from '../../../src/host/ui-bridge/rings-by-size.js';

const key = fc.oneof(
  fc.constantFrom('nonce', 'code', 'secret', 'secrets', 'access_token', 'refresh_token', 'token', 'password', 'state', 'party', 'cmd', 'evt', 'args', 'data', 'activity'),
  fc.string({ maxLength: 6 }),
);
const payloadArb = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
})).object;
/** A payload with a secret somewhere in it, at a random depth. */
const secretArb = fc.tuple(fc.constantFrom('access_token', 'code', 'secret', 'secrets', 'refresh_token', 'password'), fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10 })).map(([name, value, depth]) => {
  let payload: Record<string, unknown> = { [name]: `kept-nowhere-${value}` };
  for (let i = 0; i < depth; i++) payload = { cmd: 'SET_ACTIVITY', [i % 2 === 0 ? 'args' : 'data']: payload };
  return payload;
});
const linter: FrameLinter = {
  applicationOf: (connectionId) => `app-${connectionId}`,
  lint: (applicationId, args, at) => [{ code: 'x', field: `${applicationId}:${JSON.stringify(args ?? null).length}:${at}`, message: 'm', severity: 'warning' }],
};

describe('issue 27 §4: rows kept off the heap', () => {
  it("every row's view is what the objects-only ring shows (today's FrameEntry), whatever the payload, secrets at any depth", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(payloadArb, secretArb), fc.boolean(), fc.boolean(), fc.constantFrom('c1', 'c2')), { minLength: 1, maxLength: 60 }), (frames) => {
        const log = new FrameLog({ head: 2 }, linter);
        const expected = frames.map(([payload, wire, incoming, connectionId], i) => {
          const trace = { connectionId, direction: incoming ? ('in' as const) : ('out' as const), opcode: 1, at: 1_000 + i };
          const withCmd: Record<string, unknown> = incoming && i % 3 === 0 ? { ...payload, cmd: 'SET_ACTIVITY' } : payload;
          const jsonOf = wire ? Buffer.from(JSON.stringify(withCmd)) : undefined;
          log.record({ ...trace, payload: withCmd, json: jsonOf });
          const lint = incoming && withCmd['cmd'] === 'SET_ACTIVITY' ? { linter, applicationId: linter.applicationOf(connectionId) } : undefined;
          return new FrameEntry(i + 1, trace, keptJson(withCmd, jsonOf), lint).view();
        });
        expect(log.list()).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('never holds a token, a code or a secret in the bytes it keeps', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 20, maxLength: 40 }), (payloads) => {
        const log = new FrameLog({ head: 1 });
        for (const payload of payloads) log.record({ connectionId: 'c1', direction: 'in', opcode: 1, payload, at: 0, json: Buffer.from(JSON.stringify(payload)) });
        const held = Buffer.concat(log.heldBytes()).toString('latin1');
        expect(held).toContain('[redacted]');
        expect(held).not.toContain('kept-nowhere');
        expect(JSON.stringify(log.list())).not.toContain('kept-nowhere');
      }),
      { numRuns: 100 },
    );
  });

  it('counts what it holds (every chunk in full, every slot) and keeps it within the bounds per ring and over all', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 6_000 })), { minLength: 50, maxLength: 400 }), (frames) => {
        const log = new FrameLog({ head: 2, maxEntries: 100, maxBytes: 40_000, maxTotalEntries: 300, maxTotalBytes: 120_000 });
        for (const [connection, size] of frames) {
          log.record({ connectionId: `c${connection}`, direction: 'in', opcode: 1, payload: { cmd: 'PING', state: 'x'.repeat(size) }, at: 0 });
          const chunks = log.heldBytes().reduce((sum, chunk) => sum + chunk.length, 0);
          expect(log.kept.bytes).toBeGreaterThan(chunks);
          expect(log.kept.entries).toBeLessThanOrEqual(300);
          // One row larger than the bounds is kept alone; otherwise everything held is counted within them.
          expect(log.kept.bytes).toBeLessThanOrEqual(120_000 + 6_100 + 8 * 128 * SLOT_BYTES);
        }
        expect(log.list()).toHaveLength(log.kept.entries);
      }),
      { numRuns: 100 },
    );
  });

  it("frees a ring's chunks as its rows go: a busy connection trimmed by the total holds no more than it counts", () => {
    const log = new FrameLog({ head: 1, maxEntries: 2_000, maxBytes: 1024 * 1024, maxTotalEntries: 500, maxTotalBytes: 16 * 1024 * 1024 });
    const payload = { cmd: 'SET_ACTIVITY', args: { activity: { state: 'y'.repeat(400) } } };
    for (let i = 0; i < 20_000; i++) log.record({ connectionId: 'busy', direction: 'in', opcode: 1, payload, at: 0, json: Buffer.from(JSON.stringify(payload)) });
    expect(log.kept.entries).toBe(500);
    const chunks = log.heldBytes().reduce((sum, chunk) => sum + chunk.length, 0);
    // 499 rows of about 450 bytes: at most two chunks of slack (a quarter of the data each, 64 KiB at most).
    expect(chunks).toBeLessThanOrEqual(499 * 460 + 2 * 65_536);
    expect(log.list().at(1)).toMatchObject({ dropped_before: 20_000 - 500 });
  });
});

describe('issue 27 §4: the biggest ring without a scan of them all', () => {
  interface Ring extends SizeLinks<Ring> {
    readonly id: number;
    count: number;
  }

  it('always answers a ring with the most entries, the first to reach that count among equals', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: -3, max: 3 })), { maxLength: 300 }), (steps) => {
        const rings: Ring[] = Array.from({ length: 10 }, (_, id) => ({ id, count: 0, sizePrev: undefined, sizeNext: undefined }));
        const sizes = new RingsBySize<Ring>();
        const reached = new Map<Ring, number>();
        steps.forEach(([which, delta], step) => {
          const ring = rings[which] as Ring;
          const after = Math.max(0, ring.count + delta);
          sizes.move(ring, ring.count, after);
          if (after !== ring.count) reached.set(ring, step);
          ring.count = after;
          const most = Math.max(...rings.map((each) => each.count));
          const expected = most === 0 ? undefined : rings.filter((each) => each.count === most).sort((a, b) => (reached.get(a) ?? 0) - (reached.get(b) ?? 0))[0];
          expect(sizes.biggest()?.id).toBe(expected?.id);
        });
      }),
      { numRuns: 300 },
    );
  });
});
