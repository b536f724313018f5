import { describe, expect, it } from 'vitest';
import { safeImageUrl, safeLinkUrl } from '../src/lib/url';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('safeLinkUrl', () => {
  it('accepts http and https URLs (normalised)', () => {
    expect(safeLinkUrl('https://example.com/game')).toBe('https://example.com/game');
    expect(safeLinkUrl('http://example.com')).toBe('http://example.com/');
    expect(safeLinkUrl('  HTTPS://Example.COM/a  ')).toBe('https://example.com/a');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'javascript://example.com/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    PNG,
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/',
    '//evil.example/path',
    '/relative/path',
    'example.com',
    'https://user:pass@example.com/',
    'https://',
    '',
  ])('refuses %j', (raw) => {
    expect(safeLinkUrl(raw)).toBeNull();
  });

  it('refuses non-strings and overlong URLs', () => {
    expect(safeLinkUrl(undefined)).toBeNull();
    expect(safeLinkUrl(null)).toBeNull();
    expect(safeLinkUrl({ toString: () => 'https://example.com' })).toBeNull();
    expect(safeLinkUrl(`https://example.com/${'a'.repeat(3000)}`)).toBeNull();
  });
});

describe('safeImageUrl', () => {
  it('accepts http(s) and base64 raster data URLs', () => {
    expect(safeImageUrl('https://cdn.example/icon.png')).toBe('https://cdn.example/icon.png');
    expect(safeImageUrl(PNG)).toBe(PNG);
    expect(safeImageUrl('data:image/webp;base64,UklGRg==')).toBe('data:image/webp;base64,UklGRg==');
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'data:image/png,notbase64<script>',
    'data:image/png;base64,abc"onerror="alert(1)',
    'mp:external/abc/https/example.com/a.png',
    'large_logo',
    'file:///tmp/x.png',
  ])('refuses %j', (raw) => {
    expect(safeImageUrl(raw)).toBeNull();
  });
});
