import { encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binData, IncompleteValueError, InvalidValueError, valueEnd } from '../../src/recording/msgpack-extent.js';

describe('valueEnd: where a MessagePack value ends', () => {
  it('is the encoded length of any value, and every shorter prefix is incomplete', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.uint8Array({ maxLength: 300 }),
      fc.float(),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
      fc.string({ minLength: 200, maxLength: 70_000 }),
    );
    fc.assert(
      fc.property(value, fc.uint8Array({ maxLength: 8 }), (v, after) => {
        const bytes = encode(v, { useBigInt64: true });
        const withTail = new Uint8Array(bytes.length + after.length);
        withTail.set(bytes);
        withTail.set(after, bytes.length);
        expect(valueEnd(withTail, 0)).toBe(bytes.length);
        for (const cut of new Set([0, 1, Math.floor(bytes.length / 2), bytes.length - 1])) {
          if (cut < bytes.length) expect(() => valueEnd(bytes.subarray(0, cut), 0)).toThrow(IncompleteValueError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('extensions of every size, and values one after the other', () => {
    const parts = [
      Uint8Array.of(0xd4, 1, 0xaa),
      Uint8Array.of(0xd8, 1, ...new Array<number>(16).fill(0)),
      Uint8Array.of(0xc7, 3, 1, 7, 7, 7),
      Uint8Array.of(0xc8, 0, 2, 1, 7, 7),
      Uint8Array.of(0xc9, 0, 0, 0, 1, 1, 7),
      encode({ a: [1, 'x', null] }),
    ];
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    const ends: number[] = [];
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
      ends.push(at);
    }
    let pos = 0;
    const found: number[] = [];
    while (pos < all.length) found.push((pos = valueEnd(all, pos)));
    expect(found).toEqual(ends);
  });

  it('0xc1 starts no value; binData finds a bin and nothing else', () => {
    expect(() => valueEnd(Uint8Array.of(0x91, 0xc1), 0)).toThrow(InvalidValueError);
    const bin = encode(new Uint8Array([1, 2, 3]));
    expect(binData(bin, 0)).toEqual({ start: 2, end: 5 });
    expect(binData(encode('abc'), 0)).toBeUndefined();
  });
});
