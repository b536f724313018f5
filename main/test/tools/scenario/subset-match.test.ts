import { describe, expect, it } from 'vitest';
import { formatValue, redact } from '../../../src/tools/scenario/redact.js';
import { describeMismatch, findMismatch, matches, valueAt } from '../../../src/tools/scenario/subset-match.js';

describe('subset matching', () => {
  it('ignores keys not given, and compares the given ones deeply', () => {
    expect(matches({ state: 'a', party: { size: [1, 4] } }, { state: 'a', details: 'b', party: { id: 'p', size: [1, 4] } })).toBe(true);
    expect(matches({ party: { size: [1, 4] } }, { party: { size: [2, 4] } })).toBe(false);
    expect(matches(null, null)).toBe(true);
    expect(matches({ a: null }, {})).toBe(false);
  });

  it('matches arrays item by item, with the same length', () => {
    expect(matches([{ id: '1' }], [{ id: '1', name: 'x' }])).toBe(true);
    const mismatch = findMismatch({ grants: [] }, { grants: [{ id: '1' }] });
    expect(mismatch && describeMismatch(mismatch, 'body')).toBe('expected body.grants to have 0 item(s), got 1: [{"id":"1"}]');
  });

  it('takes /regex/ strings as patterns, for strings and numbers', () => {
    expect(matches({ code: '/^[A-Za-z0-9]+$/' }, { code: 'abc123' })).toBe(true);
    expect(matches({ id: '/^\\d+$/' }, { id: 42 })).toBe(true);
    expect(matches({ message: '/denied/i' }, { message: 'Access DENIED' })).toBe(true);
    expect(matches({ message: '/denied/' }, {})).toBe(false);
  });

  it('describes the first difference by its path', () => {
    const mismatch = findMismatch({ user: { username: 'bob' } }, { user: { username: 'carol' } });
    expect(mismatch && describeMismatch(mismatch, 'data')).toBe("expected data.user.username 'bob', got 'carol'");
    const missing = findMismatch({ party: { id: 'p' } }, {});
    expect(missing && describeMismatch(missing, 'activity')).toBe("expected activity.party {\"id\":\"p\"}, got nothing");
  });

  it('reads values by dotted path', () => {
    expect(valueAt({ a: { b: [{ c: 1 }] } }, 'a.b.0.c')).toBe(1);
    expect(valueAt({ a: 1 }, 'a.b')).toBeUndefined();
  });
});

describe('redaction', () => {
  it('hides tokens, codes, verifiers and secrets wherever they are, but keeps numeric codes', () => {
    expect(redact({ access_token: 't', code: 'c', error: { code: 4006 }, secrets: { join: 's' }, user: { id: '1' } })).toEqual({
      access_token: '[redacted]',
      code: '[redacted]',
      error: { code: 4006 },
      secrets: '[redacted]',
      user: { id: '1' },
    });
    expect(formatValue('a-secret', 'secret')).toBe('[redacted]');
    expect(formatValue({ refresh_token: 'r' })).toBe('{"refresh_token":"[redacted]"}');
  });
});
