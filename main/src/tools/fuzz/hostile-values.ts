import { nested, RawJson } from './raw-json.js';
import type { SeededRandom } from './seeded-random.js';

/** A value of the wrong type (or the right type at its worst), with a name for the report. */
export interface Hostile {
  readonly value: unknown;
  readonly name: string;
}

/** An object with these own properties, `__proto__` included (a literal would set the prototype). */
function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) withOwnKey(object, key, value);
  return object;
}

const NUMBERS: readonly Hostile[] = [
  { value: 0, name: '0' },
  { value: -1, name: '-1' },
  { value: 1.5, name: '1.5' },
  { value: new RawJson('-0'), name: '-0' },
  { value: 1e308, name: '1e308' },
  { value: -1e308, name: '-1e308' },
  { value: 2 ** 53 + 2, name: '2^53+2' },
  { value: 4294967296, name: '2^32' },
  { value: new RawJson('1e400'), name: '1e400 (Infinity)' },
  { value: new RawJson('-1e400'), name: '-1e400' },
  { value: new RawJson('1E-400'), name: '1E-400' },
  { value: new RawJson('123456789012345678901234567890'), name: '30-digit integer' },
  { value: new RawJson('18446744073709551616'), name: '2^64' },
];

const STRINGS: readonly Hostile[] = [
  { value: '', name: 'empty string' },
  { value: ' ', name: 'space' },
  { value: 'NaN', name: '"NaN"' },
  { value: 'Infinity', name: '"Infinity"' },
  { value: 'undefined', name: '"undefined"' },
  { value: 'null', name: '"null"' },
  { value: '0x10', name: '"0x10"' },
  { value: '1e400', name: '"1e400"' },
  { value: '__proto__', name: '"__proto__"' },
  { value: 'constructor', name: '"constructor"' },
  { value: 'toString', name: '"toString"' },
  { value: 'hasOwnProperty', name: '"hasOwnProperty"' },
  { value: '\ud800', name: 'lone high surrogate' },
  { value: 'a\udfffb', name: 'lone low surrogate' },
  { value: '\u0000', name: 'NUL' },
  { value: '\u202eevil\u200d\ufeff', name: 'bidi/zero-width' },
  { value: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧‍👦 ﷽', name: 'astral unicode' },
  { value: '9'.repeat(25), name: '25 digits' },
  { value: '18446744073709551616', name: '"2^64"' },
  { value: '123456789012345678901', name: '21 digits' },
  { value: 'https://example.com/\u0000', name: 'url with NUL' },
];

/** Built afresh each time: mutations change them in place. */
const OBJECTS: readonly (() => Hostile)[] = [
  () => ({ value: {}, name: '{}' }),
  () => ({ value: { toString: 1 }, name: '{toString}' }),
  () => ({ value: { valueOf: 1 }, name: '{valueOf}' }),
  () => ({ value: { toString: 'x', valueOf: 'y' }, name: '{toString,valueOf}' }),
  () => ({ value: own([['__proto__', { polluted: true, toString: 1 }]]), name: '{__proto__}' }),
  () => ({ value: { constructor: { prototype: { polluted: true } } }, name: '{constructor.prototype}' }),
  () => ({ value: { toJSON: 1 }, name: '{toJSON}' }),
  () => ({ value: { then: 1 }, name: '{then}' }),
  () => ({ value: { length: 1e9, 0: 'a' }, name: 'array-like' }),
  () => ({ value: own([['__proto__', null], ['hasOwnProperty', 1]]), name: '{__proto__:null,hasOwnProperty}' }),
];

const ARRAYS: readonly (() => Hostile)[] = [
  () => ({ value: [], name: '[]' }),
  () => ({ value: [null], name: '[null]' }),
  () => ({ value: [1, 'a', {}, []], name: 'mixed array' }),
  () => ({ value: ['ACTIVITY_JOIN'], name: '["ACTIVITY_JOIN"]' }),
];

const DEPTHS = [8, 64, 200, 255, 256, 257, 300, 1000, 5000] as const;

function longString(rng: SeededRandom): Hostile {
  const length = rng.pick([129, 1024, 4097, 20_000, 60_000]);
  const unit = rng.pick(['a', 'é', '😀', '\\', '"', '{', '[']);
  return { value: unit.repeat(Math.ceil(length / unit.length)).slice(0, length), name: `string of ${length}` };
}

function deep(rng: SeededRandom): Hostile {
  const depth = rng.pick(DEPTHS);
  const kind = rng.chance(0.5) ? 'array' : 'object';
  return { value: nested(depth, kind), name: `${kind} nested ${depth} deep` };
}

function bigArray(rng: SeededRandom): Hostile {
  const length = rng.pick([300, 2000, 8000]);
  return { value: Array.from({ length }, (_, i) => i), name: `array of ${length}` };
}

/** One hostile value. */
export function hostileValue(rng: SeededRandom): Hostile {
  switch (rng.weighted<string>([['null', 1], ['bool', 1], ['number', 3], ['string', 4], ['long', 1], ['object', 3], ['array', 2], ['deep', 1], ['big-array', 0.3]])) {
    case 'null':
      return { value: null, name: 'null' };
    case 'bool':
      return rng.chance(0.5) ? { value: true, name: 'true' } : { value: false, name: 'false' };
    case 'number':
      return rng.chance(0.8) ? rng.pick(NUMBERS) : { value: rng.int(-1e9, 1e9), name: 'random int' };
    case 'string':
      return rng.pick(STRINGS);
    case 'long':
      return longString(rng);
    case 'object':
      return rng.pick(OBJECTS)();
    case 'array':
      return rng.pick(ARRAYS)();
    case 'deep':
      return deep(rng);
    default:
      return bigArray(rng);
  }
}

/** Keys that trip naive code when they appear in a payload. */
export const HOSTILE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'toJSON', '', ' ', 'length', '0'];

/** `value` with an own `key` (safe for `__proto__`). */
export function withOwnKey(value: Record<string, unknown>, key: string, item: unknown): Record<string, unknown> {
  Object.defineProperty(value, key, { value: item, enumerable: true, writable: true, configurable: true });
  return value;
}
