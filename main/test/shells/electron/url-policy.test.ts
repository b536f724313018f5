import { describe, expect, it } from 'vitest';
import { allowNavigation, APP_INDEX_URL, isAppUrl, safeExternalUrl, windowOpenDecision } from '../../../src/shells/electron/url-policy.js';

describe('isAppUrl', () => {
  it.each([
    ['app://companion/index.html', true],
    ['app://companion/', true],
    ['app://companion/assets/x.js?v=1#top', true],
    ['app://evil/index.html', false],
    ['app://companion.evil.com/index.html', false],
    ['app://companion:8080/index.html', false],
    ['app://user:pw@companion/index.html', false],
    ['app://Companion\\@evil/', false],
    ['file:///index.html', false],
    ['http://companion/index.html', false],
    ['https://companion/', false],
    ['javascript:alert(1)', false],
    ['', false],
    [null, false],
    [42, false],
    ['app://companion/\u0000', false],
  ])('%j → %s', (url, expected) => {
    expect(isAppUrl(url)).toBe(expected);
  });
});

describe('allowNavigation', () => {
  it('allows moves inside the app origin only', () => {
    expect(allowNavigation(APP_INDEX_URL, 'app://companion/index.html#/games')).toBe(true);
    expect(allowNavigation(APP_INDEX_URL, 'https://github.com/')).toBe(false);
    expect(allowNavigation(APP_INDEX_URL, 'file:///etc/passwd')).toBe(false);
    expect(allowNavigation(APP_INDEX_URL, 'app://other/index.html')).toBe(false);
    expect(allowNavigation('https://evil.example/', APP_INDEX_URL)).toBe(false);
    expect(allowNavigation('', APP_INDEX_URL)).toBe(false);
  });
});

describe('safeExternalUrl', () => {
  const hosts = ['github.com', 'docs.example.org'];
  it.each([
    ['https://github.com/companion/app', 'https://github.com/companion/app'],
    ['https://GitHub.com/x', 'https://github.com/x'],
    ['https://docs.example.org/a?b=c', 'https://docs.example.org/a?b=c'],
    ['https://github.com:443/x', 'https://github.com/x'],
    ['http://github.com/', null],
    ['https://github.com:8443/', null],
    ['https://evil.com/', null],
    ['https://github.com.evil.com/', null],
    ['https://sub.github.com/', null],
    ['https://user:pw@github.com/', null],
    ['https://evil.com@github.com/', null],
    ['https://evil.com\\@github.com/', null],
    ['javascript://github.com/%0aalert(1)', null],
    ['file://github.com/etc/passwd', null],
    ['data:text/html,<script>1</script>', null],
    ['ftp://github.com/', null],
    ['//github.com/', null],
    ['https://github.com/\u0000', null],
    ['not a url', null],
    [undefined, null],
  ])('%j → %j', (url, expected) => {
    expect(safeExternalUrl(url, hosts)).toBe(expected);
  });

  it('refuses everything with an empty allowlist', () => {
    expect(safeExternalUrl('https://github.com/', [])).toBeNull();
  });
});

describe('windowOpenDecision', () => {
  it('always denies, and names the browser URL only for allowlisted https', () => {
    expect(windowOpenDecision()).toEqual({ action: 'deny', openExternal: null });
    expect(windowOpenDecision('https://github.com/x', ['github.com'])).toEqual({ action: 'deny', openExternal: 'https://github.com/x' });
    expect(windowOpenDecision('http://github.com/x', ['github.com'])).toEqual({ action: 'deny', openExternal: null });
    expect(windowOpenDecision('app://companion/index.html', ['github.com'])).toEqual({ action: 'deny', openExternal: null });
  });
});
