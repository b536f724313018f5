import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { placeholderSvg } from '../src/http/cdn-routes.js';
import { startTestPlatform } from './support/harness.js';

describe('cdn: the pictures of apps and their assets', () => {
  it("serves an app's icon and each of its assets at the CDN's paths, as a picture drawn from what the emulator knows", async () => {
    const platform = await startTestPlatform();
    const icon = await fetch(`${platform.url}/app-icons/${SEED.appId}/${SEED.assets.logo}.png`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    const iconSvg = await icon.text();
    expect(iconSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // The app's initial.
    expect(iconSvg).toContain('>C</text>');
    const cover = await fetch(`${platform.url}/app-assets/${SEED.appId}/${SEED.assets.cover}.webp`);
    expect(cover.status).toBe(200);
    expect(await cover.text()).toContain('>cover</text>');
    // Two assets, two colours of their own.
    const logo = await (await fetch(`${platform.url}/app-assets/${SEED.appId}/${SEED.assets.logo}.png`)).text();
    expect(logo.match(/fill="(#[0-9a-f]{6})"/)?.[1]).not.toBe((await (await fetch(`${platform.url}/app-assets/${SEED.appId}/${SEED.assets.cover}.png`)).text()).match(/fill="(#[0-9a-f]{6})"/)?.[1]);
  });

  it('answers 404 for an unknown app, icon, asset or file name, as the CDN does', async () => {
    const platform = await startTestPlatform();
    for (const path of [
      `/app-icons/987654321098765432/${SEED.assets.logo}.png`,
      `/app-icons/${SEED.appId}/${SEED.assets.cover}.png`,
      `/app-assets/${SEED.appId}/123.png`,
      `/app-assets/${SEED.appId}/logo.png`,
      `/app-assets/${SEED.appId}/${SEED.assets.logo}.svg`,
    ]) {
      expect((await fetch(`${platform.url}${path}`)).status, path).toBe(404);
    }
  });

  it('draws names as text, never as markup', () => {
    const svg = placeholderSvg('1', '<script>x</script>');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;');
  });
});
