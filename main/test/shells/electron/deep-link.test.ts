import { describe, expect, it } from 'vitest';
import { findDeepLinkArg, parseCallbackUrl } from '../../../src/shells/electron/deep-link.js';

const STATE = 'st4te_abcdefgh';
const pending = (): Set<string> => new Set([STATE]);

describe('parseCallbackUrl', () => {
  it('accepts the exact callback with a known state, once', () => {
    const states = pending();
    expect(parseCallbackUrl(`companion:/authorize/callback?code=abc.DEF-123&state=${STATE}`, 'companion', states)).toEqual({
      ok: true,
      state: STATE,
      code: 'abc.DEF-123',
    });
    expect(states.has(STATE)).toBe(false);
    // Replay: the state was consumed.
    expect(parseCallbackUrl(`companion:/authorize/callback?code=abc&state=${STATE}`, 'companion', states)).toEqual({
      ok: false,
      reason: 'unknown or already used state',
    });
  });

  it('accepts an error answer (the player refused in the browser)', () => {
    expect(parseCallbackUrl(`companion:/authorize/callback?error=access_denied&state=${STATE}`, 'companion', pending())).toEqual({
      ok: true,
      state: STATE,
      error: 'access_denied',
    });
  });

  it.each([
    ['other path', `companion:/authorize/other?code=a&state=${STATE}`],
    ['path prefix', `companion:/authorize/callbackx?code=a&state=${STATE}`],
    ['sub path', `companion:/authorize/callback/x?code=a&state=${STATE}`],
    ['host form', `companion://authorize/callback?code=a&state=${STATE}`],
    ['evil host', `companion://evil.com/authorize/callback?code=a&state=${STATE}`],
    ['empty host', `companion:///authorize/callback?code=a&state=${STATE}`],
    ['dot traversal', `companion:/authorize/x/../callback?code=a&state=${STATE}`],
    ['encoded traversal', `companion:/authorize/callback/%2e%2e/callback?code=a&state=${STATE}`],
    ['encoded dots only', `companion:/authorize/%2E%2E/authorize/callback?code=a&state=${STATE}`],
    ['encoded slash', `companion:/authorize%2fcallback?code=a&state=${STATE}`],
    ['backslash', `companion:/authorize\\callback?code=a&state=${STATE}`],
    ['other scheme', `evil:/authorize/callback?code=a&state=${STATE}`],
    ['https', `https://companion/authorize/callback?code=a&state=${STATE}`],
    ['unknown state', 'companion:/authorize/callback?code=a&state=unknown_state_1'],
    ['no state', 'companion:/authorize/callback?code=a'],
    ['short state', 'companion:/authorize/callback?code=a&state=x'],
    ['repeated state', `companion:/authorize/callback?code=a&state=${STATE}&state=${STATE}`],
    ['repeated code', `companion:/authorize/callback?code=a&code=b&state=${STATE}`],
    ['no code', `companion:/authorize/callback?state=${STATE}`],
    ['code and error', `companion:/authorize/callback?code=a&error=x&state=${STATE}`],
    ['unexpected param', `companion:/authorize/callback?code=a&state=${STATE}&redirect=https://evil`],
    ['bad code chars', `companion:/authorize/callback?code=%3Cscript%3E&state=${STATE}`],
    ['fragment', `companion:/authorize/callback?code=a&state=${STATE}#x`],
    ['newline', `companion:/authorize/callback?code=a&state=${STATE}\n`],
    ['space', ` companion:/authorize/callback?code=a&state=${STATE}`],
    ['nul', `companion:/authorize/callback\u0000?code=a&state=${STATE}`],
    ['too long', `companion:/authorize/callback?code=${'a'.repeat(3000)}&state=${STATE}`],
    ['empty', ''],
  ])('refuses %s', (_name, raw) => {
    const states = pending();
    const result = parseCallbackUrl(raw, 'companion', states);
    expect(result.ok).toBe(false);
    expect(states.has(STATE)).toBe(true);
  });

  it('refuses non-strings', () => {
    expect(parseCallbackUrl(undefined, 'companion', pending()).ok).toBe(false);
    expect(parseCallbackUrl({ href: 'companion:/authorize/callback' }, 'companion', pending()).ok).toBe(false);
  });
});

describe('findDeepLinkArg', () => {
  it('finds the link among launch arguments', () => {
    expect(findDeepLinkArg(['/usr/bin/companion', '--flag', 'companion:/authorize/callback?x'], 'companion')).toBe('companion:/authorize/callback?x');
    expect(findDeepLinkArg(['/usr/bin/companion', '--companion:x'], 'companion')).toBeNull();
  });
});
