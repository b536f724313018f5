import { describe, expect, it } from 'vitest';
import { activityImageUrl, appIconUrl, avatarUrl } from '../src/lib/images';

const APP = '1234567890123456789';

describe('where the UI finds a picture', () => {
  it("an app's icon hash and a user's avatar hash become the host's cdn/ paths; anything else is refused", () => {
    expect(appIconUrl(APP, 'abc123')).toBe(`cdn/app-icons/${APP}/abc123.png`);
    // Never straight from another origin (issue 26 §10): an icon that is a URL is not shown.
    expect(appIconUrl(APP, 'https://cdn.example/icon.png')).toBeNull();
    expect(appIconUrl(APP, null)).toBeNull();
    expect(appIconUrl('not-an-id', 'abc')).toBeNull();
    expect(appIconUrl(APP, '../../x')).toBeNull();
    expect(avatarUrl('42', 'a_f00')).toBe('cdn/avatars/42/a_f00.png');
    expect(avatarUrl('42', null)).toBeNull();
    expect(avatarUrl('42', 'x/y')).toBeNull();
  });

  it("issue 26 §10: an activity's image: an asset key of its app, or a game's own picture (mp:external or an http(s) URL) through the host's proxy", () => {
    const through = (value: string): string => `cdn/external/${Buffer.from(value, 'utf8').toString('base64url')}`;
    expect(activityImageUrl(APP, 'logo')).toBe(`cdn/app-assets/${APP}/logo`);
    expect(activityImageUrl(APP, '1234')).toBe(`cdn/app-assets/${APP}/1234`);
    expect(activityImageUrl(APP, 'mp:external/AbC-123/https/images.example.com/pic.png')).toBe(through('mp:external/AbC-123/https/images.example.com/pic.png'));
    expect(activityImageUrl(APP, 'https://images.example.com/a.png?size=512&é')).toBe(through('https://images.example.com/a.png?size=512&é'));
    expect(activityImageUrl(APP, 'http://images.example.com/a.png')).toBe(through('http://images.example.com/a.png'));
    expect(activityImageUrl(APP, 'https://user:pw@images.example.com/a.png')).toBeNull();
    expect(activityImageUrl(undefined, 'logo')).toBeNull();
    expect(activityImageUrl(APP, 'javascript:alert(1)')).toBeNull();
    expect(activityImageUrl(APP, 'mp:external/x/javascript/alert(1)')).toBeNull();
    expect(activityImageUrl(APP, 'a key with spaces')).toBeNull();
    expect(activityImageUrl(APP, '')).toBeNull();
  });
});
