import { describe, expect, it } from 'vitest';
import { ABSENT, comparePayloads } from '../../../src/tools/replay/compare-payloads.js';
import { redactSecrets } from '../../../src/host/record/redact-secrets.js';

describe('comparePayloads: what may differ between a recording and its replay', () => {
  it('equal payloads: no differences; a changed value: its path, expected and actual', () => {
    const reply = { cmd: 'SET_ACTIVITY', nonce: 'n1', evt: null, data: { state: 'a', party: { size: [1, 4] } } };
    expect(comparePayloads(reply, structuredClone(reply))).toEqual([]);
    const changed = { ...reply, data: { state: 'b', party: { size: [1, 5] } } };
    expect(comparePayloads(reply, changed)).toEqual([
      { path: '$.data.state', expected: 'a', actual: 'b' },
      { path: '$.data.party.size[1]', expected: 4, actual: 5 },
    ]);
  });

  it('keys and array items on one side only are differences', () => {
    expect(comparePayloads({ a: 1, b: [1, 2] }, { c: 3, b: [1] })).toEqual([
      { path: '$.a', expected: 1, actual: ABSENT },
      { path: '$.b[1]', expected: 2, actual: ABSENT },
      { path: '$.c', expected: ABSENT, actual: 3 },
    ]);
    expect(comparePayloads({ 'odd key': 1 }, { 'odd key': 2 })).toEqual([{ path: '$["odd key"]', expected: 1, actual: 2 }]);
  });

  it('ids, times and issued credentials compare by kind only; client_id and application_id by value', () => {
    const expected = { id: '1', user: { id: '2' }, session_id: 's1', created_at: 1, timestamp: 'x', expires: '2030', code: 'c1', access_token: 't1', client_id: 'A', application_id: 'B' };
    const actual = { id: '9', user: { id: '8' }, session_id: 's2', created_at: 2, timestamp: 'y', expires: '2031', code: 'c2', access_token: 't2', client_id: 'A', application_id: 'B' };
    expect(comparePayloads(expected, actual)).toEqual([]);
    expect(comparePayloads(expected, { ...actual, client_id: 'Z', application_id: 'Y' })).toEqual([
      { path: '$.client_id', expected: 'A', actual: 'Z' },
      { path: '$.application_id', expected: 'B', actual: 'Y' },
    ]);
    // By kind: a number where a string id was is a difference; so is an error code where the code string was.
    expect(comparePayloads({ id: '1', code: 'abc' }, { id: 1, code: 4000 })).toEqual([
      { path: '$.id', expected: '1', actual: 1 },
      { path: '$.code', expected: 'abc', actual: 4000 },
    ]);
  });

  it('redacted values match any string; loopback ports in strings are ignored', () => {
    expect(comparePayloads({ secrets: { join: '[redacted]' }, a: '[redacted]' }, { secrets: { join: 'x' }, a: 'y' })).toEqual([]);
    expect(comparePayloads({ a: '[redacted]' }, {})).toEqual([{ path: '$.a', expected: '[redacted]', actual: ABSENT }]);
    expect(comparePayloads({ code: '[redacted]' }, { code: 5000 })).toEqual([{ path: '$.code', expected: '[redacted]', actual: 5000 }]);
    expect(comparePayloads({ api_endpoint: '//127.0.0.1:4000/api' }, { api_endpoint: '//127.0.0.1:5123/api' })).toEqual([]);
    expect(comparePayloads({ api_endpoint: '//127.0.0.1:4000/api' }, { api_endpoint: '//example.com/api' })).toHaveLength(1);
  });
});

describe('redactSecrets (recordings)', () => {
  it('redacts tokens, string codes, activity secrets (keeping their shape) and nested nonces; keeps the RPC nonce and numeric codes', () => {
    const payload = {
      cmd: 'X',
      nonce: 'n1',
      args: { access_token: 'tok', activity: { state: 's', secrets: { join: 'j', match: 'm' } }, nonce: 'oidc' },
      data: { code: 'abc', error: { code: 4000 }, refresh_token: 'r', client_secret: 'cs', code_verifier: 'v' },
    };
    expect(redactSecrets(payload)).toEqual({
      cmd: 'X',
      nonce: 'n1',
      args: { access_token: '[redacted]', activity: { state: 's', secrets: { join: '[redacted]', match: '[redacted]' } }, nonce: '[redacted]' },
      data: { code: '[redacted]', error: { code: 4000 }, refresh_token: '[redacted]', client_secret: '[redacted]', code_verifier: '[redacted]' },
    });
    expect(payload.args.access_token).toBe('tok');
  });

  it('returns a payload without secrets as it is (no copy)', () => {
    const payload = { cmd: 'SET_ACTIVITY', nonce: 'n', args: { pid: 1, activity: { state: 'x', party: { size: [1, 2] } } } };
    expect(redactSecrets(payload)).toBe(payload);
  });
});
