import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriptionKey } from '../../src/index.js';

/** Rebuilds `record` with its keys inserted in the order given by `order`. */
function reorder(record: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  // fromEntries defines own properties, so a generated "__proto__" key stays a plain key.
  return Object.fromEntries(order.map((key) => [key, record[key]]));
}

describe('subscriptionKey', () => {
  it('does not depend on the order of the args keys', () => {
    const a = subscriptionKey('VOICE_STATE_CREATE', { channel_id: '1', guild_id: '2' });
    const b = subscriptionKey('VOICE_STATE_CREATE', { guild_id: '2', channel_id: '1' });
    expect(a).toBe(b);
  });

  it('does not depend on key order for any args (property)', () => {
    const argsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: 1,
      maxKeys: 6,
    });
    fc.assert(
      fc.property(
        argsArb.chain((args) => fc.tuple(fc.constant(args), fc.shuffledSubarray(Object.keys(args), {
          minLength: Object.keys(args).length,
        }))),
        ([args, order]) => {
          expect(subscriptionKey('EVT', reorder(args, order))).toBe(subscriptionKey('EVT', args));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives different keys for different events with the same args', () => {
    expect(subscriptionKey('SPEAKING_START', { channel_id: '1' })).not.toBe(
      subscriptionKey('SPEAKING_STOP', { channel_id: '1' }),
    );
    expect(subscriptionKey('ACTIVITY_JOIN', {})).not.toBe(subscriptionKey('ACTIVITY_SPECTATE', {}));
  });

  it('gives different keys for different args values, key sets, and for args versus no args', () => {
    const keys = [
      subscriptionKey('SPEAKING_START', {}),
      subscriptionKey('SPEAKING_START', { channel_id: '1' }),
      subscriptionKey('SPEAKING_START', { channel_id: '2' }),
      subscriptionKey('SPEAKING_START', { channel_id: 1 }),
      subscriptionKey('SPEAKING_START', { guild_id: '1' }),
      subscriptionKey('SPEAKING_START', { channel_id: '1', guild_id: '1' }),
      subscriptionKey('SPEAKING_START', { channel_id: null }),
      subscriptionKey('SPEAKING_START', { channel_id: ['1'] }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives different keys whenever the JSON args differ (property)', () => {
    const argsArb = fc.dictionary(fc.constantFrom('a', 'b', 'channel_id', 'guild_id'), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(argsArb, argsArb, (x, y) => {
        const canonical = (args: Record<string, unknown>): string =>
          JSON.stringify(Object.keys(args).sort().map((key) => [key, args[key]]));
        fc.pre(canonical(x) !== canonical(y));
        expect(subscriptionKey('EVT', x)).not.toBe(subscriptionKey('EVT', y));
      }),
      { numRuns: 300 },
    );
  });
});
