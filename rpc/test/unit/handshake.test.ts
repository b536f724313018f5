import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CloseCode, validateHandshake } from '../../src/index.js';

const ID = '1234567890123456789'; // 19 digits

describe('validateHandshake: version', () => {
  it.each([
    ['number 1', 1],
    ['string "1"', '1'],
  ])('accepts v as %s', (_label, v) => {
    expect(validateHandshake({ v, client_id: ID })).toEqual({ ok: true, clientId: ID });
  });

  it('accepts a missing v, as the real client does (+undefined is NaN and passes its checks)', () => {
    expect(validateHandshake({ client_id: ID })).toEqual({ ok: true, clientId: ID });
  });

  it.each([
    [2, 'Invalid Version: 2'],
    ['2', 'Invalid Version: 2'],
    [null, 'Invalid Version: null'],
    [0, 'Invalid Version: 0'],
    ['abc', 'Invalid Version: abc'],
  ])('refuses v = %j with 4004 %j', (v, message) => {
    expect(validateHandshake({ v, client_id: ID })).toEqual({ ok: false, code: 4004, message, reason: 'invalid version' });
  });

  it('uses the InvalidVersion close code constant (4004)', () => {
    expect(CloseCode.InvalidVersion).toBe(4004);
    const result = validateHandshake({ v: 3, client_id: ID });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe(CloseCode.InvalidVersion);
  });

  it('checks the version before the client id', () => {
    expect(validateHandshake({ v: 2 })).toEqual({ ok: false, code: 4004, message: 'Invalid Version: 2', reason: 'invalid version' });
  });
});

describe('validateHandshake: client_id', () => {
  it.each([
    ['missing', {}],
    ['empty', { client_id: '' }],
    ['null', { client_id: null }],
  ])('refuses a %s client_id with 4000 "No Client ID Specified"', (_label, extra) => {
    expect(validateHandshake({ v: 1, ...extra })).toEqual({ ok: false, code: 4000, message: 'No Client ID Specified', reason: 'no client id' });
  });

  it.each([17, 18, 19, 20])('accepts a %i-digit string id and returns it unchanged', (digits) => {
    const id = '1' + '0'.repeat(digits - 1);
    expect(validateHandshake({ v: 1, client_id: id })).toEqual({ ok: true, clientId: id });
  });

  it('accepts 2^64-1, the largest snowflake', () => {
    expect(validateHandshake({ v: 1, client_id: '18446744073709551615' })).toEqual({
      ok: true,
      clientId: '18446744073709551615',
    });
  });

  it.each([
    ['16 digits', '1234567890123456'],
    ['21 digits', '123456789012345678901'],
    ['2^64', '18446744073709551616'],
    ['20 nines', '99999999999999999999'],
    ['letters', '12345678901234567a'],
    ['hex', '0x1234567890abcdef0'],
    ['sign', '+12345678901234567'],
    ['negative', '-12345678901234567'],
    ['decimal point', '1234567890123456.7'],
    ['surrounding space', ' 12345678901234567'],
    ['trailing newline', '12345678901234567\n'],
    ['non-ASCII digits', '١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧'],
  ])('refuses a string id with %s: 4000 "Invalid Client ID"', (_label, id) => {
    expect(validateHandshake({ v: 1, client_id: id })).toEqual({ ok: false, code: 4000, message: 'Invalid Client ID', reason: 'invalid client id' });
  });

  it('accepts a number id only when it is a safe positive integer, returned as a decimal string', () => {
    expect(validateHandshake({ v: 1, client_id: 1234567890123456 })).toEqual({
      ok: true,
      clientId: '1234567890123456',
    });
    expect(validateHandshake({ v: 1, client_id: Number.MAX_SAFE_INTEGER })).toEqual({
      ok: true,
      clientId: '9007199254740991',
    });
  });

  it.each([
    ['an unsafe integer (digits already lost)', Number('123456789012345678')],
    ['2^53', 2 ** 53],
    ['zero', 0],
    ['a negative number', -5],
    ['a fraction', 12.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s as client_id: 4000 "Invalid Client ID"', (_label, id) => {
    expect(validateHandshake({ v: 1, client_id: id })).toEqual({ ok: false, code: 4000, message: 'Invalid Client ID', reason: 'invalid client id' });
  });

  it.each([
    ['a boolean', true],
    ['an object', { id: ID }],
    ['an array', [ID]],
  ])('refuses %s as client_id with 4000 "Invalid Client ID"', (_label, id) => {
    expect(validateHandshake({ v: 1, client_id: id })).toEqual({ ok: false, code: 4000, message: 'Invalid Client ID', reason: 'invalid client id' });
  });

  it('accepts every 17-20 digit string up to 2^64-1 and refuses every longer or shorter digit string', () => {
    const U64_MAX = 2n ** 64n - 1n;
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,24}$/), (id) => {
        const result = validateHandshake({ v: 1, client_id: id });
        const valid = id.length >= 17 && id.length <= 20 && BigInt(id) <= U64_MAX;
        if (valid) expect(result).toEqual({ ok: true, clientId: id });
        else expect(result).toEqual({ ok: false, code: 4000, message: 'Invalid Client ID', reason: 'invalid client id' });
      }),
      { numRuns: 500 },
    );
  });

  it('draws the line exactly at 17-20 digits and 2^64-1 for numeric strings near the bounds (property)', () => {
    const U64_MAX = 2n ** 64n - 1n;
    const near = fc.oneof(
      fc.bigInt({ min: 10n ** 15n, max: 10n ** 17n + 1000n }),
      fc.bigInt({ min: U64_MAX - 1000n, max: U64_MAX + 1000n }),
      fc.bigInt({ min: 10n ** 19n, max: 10n ** 21n }),
    );
    fc.assert(
      fc.property(near, (n) => {
        const id = n.toString();
        const valid = id.length >= 17 && id.length <= 20 && n <= U64_MAX;
        expect(validateHandshake({ v: 1, client_id: id }).ok).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores extra keys in the handshake payload', () => {
    expect(validateHandshake({ v: 1, client_id: ID, nonce: 'x', origin: 'y' })).toEqual({
      ok: true,
      clientId: ID,
    });
  });
});

describe('validateHandshake: payload shape', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'hello'],
    ['a number', 1],
    ['an array', [1, ID]],
    ['a boolean', false],
  ])('refuses %s as the payload with code 4000', (_label, payload) => {
    const result = validateHandshake(payload);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(4000);
      expect(result.code).toBe(CloseCode.InvalidClientId);
      expect(typeof result.message).toBe('string');
      expect(result.message.length).toBeGreaterThan(0);
    }
  });
});
