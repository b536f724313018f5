import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES, UiImages } from '../../../src/host/ui-bridge/ui-images.js';

const APP = '1234567890123456789';

/** A CDN as fetch sees it: path -> [status, content type, body]; every URL asked for is kept. */
function cdn(files: Record<string, [number, string, string | Buffer]>): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fake = (async (input: URL | string) => {
    const url = new URL(String(input));
    asked.push(url.pathname);
    const file = files[url.pathname];
    if (file === undefined) return new Response('nope', { status: 404 });
    const [status, type, body] = file;
    return new Response(body, { status, headers: { 'content-type': type } });
  }) as typeof fetch;
  return { fetch: fake, asked };
}

function images(files: Record<string, [number, string, string | Buffer]>, assets = async () => [{ id: '21', name: 'cover' }]) {
  const fake = cdn(files);
  let lookups = 0;
  const ui = new UiImages({
    cdnBase: () => 'http://127.0.0.1:7000/',
    assets: async () => {
      lookups += 1;
      return assets();
    },
    fetch: fake.fetch,
  });
  return { ui, asked: fake.asked, lookups: () => lookups };
}

describe('UiImages', () => {
  it('fetches icons, avatars and assets (by key or id) from the CDN paths; the asset list is looked up once', async () => {
    const { ui, asked, lookups } = images({
      [`/app-icons/${APP}/abc123.png`]: [200, 'image/png', 'icon'],
      [`/app-assets/${APP}/21.png`]: [200, 'image/svg+xml', '<svg/>'],
      ['/avatars/42/a_f00.png']: [200, 'image/webp', 'avatar'],
    });
    expect(await ui.image(`cdn/app-icons/${APP}/abc123.png`)).toMatchObject({ status: 200, contentType: 'image/png', body: Buffer.from('icon') });
    expect(await ui.image(`cdn/app-assets/${APP}/cover`)).toMatchObject({ status: 200, contentType: 'image/svg+xml' });
    expect(await ui.image(`cdn/app-assets/${APP}/cover`)).toMatchObject({ status: 200 });
    expect(await ui.image(`cdn/app-assets/${APP}/21`)).toMatchObject({ status: 200 });
    expect(await ui.image('cdn/avatars/42/a_f00.png')).toMatchObject({ status: 200, body: Buffer.from('avatar') });
    expect(lookups()).toBe(1);
    expect(asked).toEqual([`/app-icons/${APP}/abc123.png`, `/app-assets/${APP}/21.png`, `/app-assets/${APP}/21.png`, `/app-assets/${APP}/21.png`, '/avatars/42/a_f00.png']);
  });

  it('passes nothing but those paths: other paths, traversal, unknown keys are 404 without asking the CDN', async () => {
    const { ui, asked } = images({});
    for (const path of ['cdn/../x', 'cdn/app-icons/x/abc.png', `cdn/app-icons/${APP}/a.b.png`, `cdn/app-assets/${APP}/../../etc`, 'cdn/attachments/1/2.png', `cdn/app-assets/${APP}/logo`, `cdn/app-icons/${APP}/abc.svg`]) {
      expect((await ui.image(path)).status, path).toBe(404);
    }
    expect(asked).toEqual([]);
  });

  it('passes only images, and none too large; a CDN that cannot be reached is 502', async () => {
    const { ui } = images({
      [`/app-icons/${APP}/html.png`]: [200, 'text/html', '<script>alert(1)</script>'],
      [`/app-icons/${APP}/big.png`]: [200, 'image/png', Buffer.alloc(MAX_IMAGE_BYTES + 1)],
      [`/app-icons/${APP}/err.png`]: [500, 'image/png', 'x'],
    });
    expect((await ui.image(`cdn/app-icons/${APP}/html.png`)).status).toBe(502);
    expect((await ui.image(`cdn/app-icons/${APP}/big.png`)).status).toBe(502);
    expect((await ui.image(`cdn/app-icons/${APP}/err.png`)).status).toBe(502);
    const down = new UiImages({ cdnBase: () => 'http://127.0.0.1:1/', assets: async () => [], fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch });
    expect((await down.image(`cdn/app-icons/${APP}/abc.png`)).status).toBe(502);
  });

  it('an asset list that failed is asked for again next time', async () => {
    let fail = true;
    const { ui, lookups } = images({ [`/app-assets/${APP}/21.png`]: [200, 'image/png', 'x'] }, async () => {
      if (fail) throw new Error('down');
      return [{ id: '21', name: 'cover' }];
    });
    expect((await ui.image(`cdn/app-assets/${APP}/cover`)).status).toBe(404);
    fail = false;
    expect((await ui.image(`cdn/app-assets/${APP}/cover`)).status).toBe(200);
    expect(lookups()).toBe(2);
  });
});
