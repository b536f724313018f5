import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson, TopicCache } from '../../../src/host/ui-bridge/topic-cache.js';

describe('sameJson', () => {
  it('agrees with comparing JSON.stringify for any JSON-like values (key order included)', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b) || sameKeysInOtherOrder(a, b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
    );
  });

  it('treats an undefined property as absent, as JSON does, and tells arrays from objects', () => {
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ 0: 'x' }, ['x'])).toBe(false);
    expect(sameJson([1, [2, { c: 3 }]], [1, [2, { c: 3 }]])).toBe(true);
    expect(sameJson([1, [2, { c: 3 }]], [1, [2, { c: 4 }]])).toBe(false);
  });
});

/** Objects whose keys differ only in order are the same topic value (sameJson ignores order; JSON text does not). */
function sameKeysInOtherOrder(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([k, v]) => [k, sorted(v)])) : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

describe('TopicCache', () => {
  it('fills on the first take, then answers only the topics whose value changed', () => {
    const cache = new TopicCache();
    const values = { settings: { consent_policy: 'prompt' }, games: [] } as never;
    expect(cache.take(values)).toEqual([]);
    expect(cache.take(structuredClone(values))).toEqual([]);
    const changed = cache.take({ settings: { consent_policy: 'deny' }, games: [] } as never);
    expect(changed).toEqual([{ topic: 'settings', value: { consent_policy: 'deny' } }]);
    cache.clear();
    expect(cache.take({ settings: { consent_policy: 'approve' }, games: [] } as never)).toEqual([]);
  });
});
