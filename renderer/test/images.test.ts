import { describe, expect, it } from 'vitest';
import { activityImageUrl, appIconUrl, avatarUrl } from '../src/lib/images';

const APP = '1234567890123456789';

describe('where the UI finds a picture', () => {
  it("an app's icon hash and a user's avatar hash become the host's cdn/ paths; anything else is refused", () => {
    expect(appIconUrl(APP, 'abc123')).toBe(`cdn/app-icons/${APP}/abc123.png`);
    expect(appIconUrl(APP, 'https://cdn.example/icon.png')).toBe('https://cdn.example/icon.png');
    expect(appIconUrl(APP, null)).toBeNull();
    expect(appIconUrl('not-an-id', 'abc')).toBeNull();
    expect(appIconUrl(APP, '../../x')).toBeNull();
    expect(avatarUrl('42', 'a_f00')).toBe('cdn/avatars/42/a_f00.png');
    expect(avatarUrl('42', null)).toBeNull();
    expect(avatarUrl('42', 'x/y')).toBeNull();
  });

  it("an activity's image: an asset key of its app, an external image through the media proxy, or an http(s) URL", () => {
    expect(activityImageUrl(APP, 'logo')).toBe(`cdn/app-assets/${APP}/logo`);
    expect(activityImageUrl(APP, '1234')).toBe(`cdn/app-assets/${APP}/1234`);
    expect(activityImageUrl(APP, 'mp:external/AbC-123/https/images.example.com/pic.png')).toBe('https://images.example.com/pic.png');
    expect(activityImageUrl(APP, 'https://images.example.com/a.png')).toBe('https://images.example.com/a.png');
    expect(activityImageUrl(undefined, 'logo')).toBeNull();
    expect(activityImageUrl(APP, 'javascript:alert(1)')).toBeNull();
    expect(activityImageUrl(APP, 'mp:external/x/javascript/alert(1)')).toBeNull();
    expect(activityImageUrl(APP, 'a key with spaces')).toBeNull();
    expect(activityImageUrl(APP, '')).toBeNull();
  });
});
