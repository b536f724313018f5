import { afterEach, describe, expect, it } from 'vitest';
import { ExternalImages, type ExternalImageLimits, type ExternalImagesTesting } from '../../../src/host/ui-bridge/external-images.js';
import { ImageCache, freshFor } from '../../../src/host/ui-bridge/image-cache.js';
import { suppliedImages } from '../../../src/host/ui-bridge/supplied-images.js';
import { UiImages } from '../../../src/host/ui-bridge/ui-images.js';
import { isPublicAddress } from '../../../src/base/public-address.js';
import { serveAppRequest } from '../../../src/shells/electron/app-protocol.js';
import { ImageServer, PNG_1X1, type ImageRoute } from '../../support/image-server.js';
import { FakeBackend, GAMES, FRIENDS, INVITES } from '../control/fake-backend.js';

const LOCAL_ONLY: ExternalImagesTesting = { allowAddress: (address) => address === '127.0.0.1' };
const encode = (value: string): string => Buffer.from(value, 'utf8').toString('base64url');

const servers: ImageServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function picturesAt(routes: Record<string, ImageRoute>): Promise<ImageServer> {
  const server = await ImageServer.start(routes);
  servers.push(server);
  return server;
}

/** A proxy for which every value is supplied by a game unless `supplied` says otherwise. */
function proxy(testing: ExternalImagesTesting = LOCAL_ONLY, options: { supplied?: (value: string) => boolean; now?: () => number } = {}): ExternalImages {
  return new ExternalImages({ supplied: options.supplied ?? (() => true), ...(options.now === undefined ? {} : { now: options.now }) }, testing);
}

function limited(limits: Partial<ExternalImageLimits>): ExternalImages {
  return proxy({ ...LOCAL_ONLY, limits });
}

const png: ImageRoute = { headers: { 'Content-Type': 'image/png' }, body: PNG_1X1 };

describe("issue 26 §10: games' pictures through the host: only what a game supplied, only images, within limits", () => {
  it('fetches a supplied http(s) URL and the mp:external form (as the media proxy resolves it); the game server sees no cookie, referrer or address of the player', async () => {
    const server = await picturesAt({ '/art.png': png, '/mp.png?x=1': png });
    const images = proxy();
    expect(await images.image(encode(server.url('/art.png')))).toMatchObject({ status: 200, contentType: 'image/png', body: PNG_1X1 });
    expect(await images.image(encode(`mp:external/Sig-123/http/127.0.0.1:${server.port}/mp.png?x=1`))).toMatchObject({ status: 200, body: PNG_1X1 });
    const [request] = server.requests;
    expect(Object.keys(request!.headers).sort()).toEqual(['accept', 'connection', 'host', 'user-agent']);
  });

  it('fetches nothing that no activity carries: 404, and the game server is never asked', async () => {
    const server = await picturesAt({ '/art.png': png });
    const supplied = server.url('/art.png');
    const images = proxy(LOCAL_ONLY, { supplied: (value) => value === supplied });
    for (const encoded of [encode(server.url('/other.png')), encode('javascript:alert(1)'), encode('mp:external/x/ftp/host/a.png'), 'not base64!', encode(`${supplied}#`), '']) {
      expect((await images.image(encoded)).status, encoded).toBe(404);
    }
    expect(server.requests).toEqual([]);
  });

  it("the host's view of activities: a running game's, a friend's and an invite's large and small images, nothing else", () => {
    const backend = new (class extends FakeBackend {
      override games() {
        return [{ ...GAMES[0]!, activity: { name: 'Demo', type: 0, assets: { large_image: 'https://game.example/a.png' } } }] as never;
      }
      override friends() {
        return [{ ...FRIENDS[0]!, presence: { status: 'online', activities: [{ name: 'Demo', type: 0, assets: { small_image: 'mp:external/s/https/friend.example/b.png' } }] } }] as never;
      }
      override invites() {
        return [{ ...INVITES[0]!, activity: { name: 'Demo', type: 0, assets: { large_image: 'https://invite.example/c.png', large_text: 'https://text.example/d.png' } } }] as never;
      }
    })();
    const supplied = suppliedImages(backend);
    expect(supplied('https://game.example/a.png')).toBe(true);
    expect(supplied('mp:external/s/https/friend.example/b.png')).toBe(true);
    expect(supplied('https://invite.example/c.png')).toBe(true);
    expect(supplied('https://text.example/d.png')).toBe(false);
    expect(supplied('https://elsewhere.example/e.png')).toBe(false);
  });

  it('passes PNG, JPEG, GIF, WebP and AVIF only: SVG, HTML and bytes that are not the type they claim are refused (502, said in words)', async () => {
    const server = await picturesAt({
      '/pic.svg': { headers: { 'Content-Type': 'image/svg+xml' }, body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
      '/page.png': { headers: { 'Content-Type': 'text/html' }, body: '<script>alert(1)</script>' },
      '/liar.png': { headers: { 'Content-Type': 'image/png' }, body: '<script>alert(1)</script>' },
      '/gif': { headers: { 'Content-Type': 'image/gif; charset=binary' }, body: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1') },
    });
    const images = proxy();
    const svg = await images.image(encode(server.url('/pic.svg')));
    expect(svg.status).toBe(502);
    expect(svg.body.toString()).toContain('only PNG, JPEG, GIF, WebP and AVIF');
    expect((await images.image(encode(server.url('/page.png')))).status).toBe(502);
    expect((await images.image(encode(server.url('/liar.png')))).body.toString()).toContain('not image/png');
    expect(await images.image(encode(server.url('/gif')))).toMatchObject({ status: 200, contentType: 'image/gif' });
  });

  it('refuses a picture over the size limit, declared or streamed, and one that takes longer than the time limit (504)', async () => {
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(4096)]);
    const server = await picturesAt({
      '/declared.png': { headers: { 'Content-Type': 'image/png', 'Content-Length': String(big.length) }, body: big },
      '/chunked.png': { headers: { 'Content-Type': 'image/png', 'Transfer-Encoding': 'chunked' }, body: big },
      '/slow.png': { hang: true },
    });
    const images = limited({ maxBytes: 1024, timeoutMs: 300 });
    for (const path of ['/declared.png', '/chunked.png']) {
      const answer = await images.image(encode(server.url(path)));
      expect(answer.status, path).toBe(502);
      expect(answer.body.toString(), path).toContain('larger than');
    }
    const slow = await images.image(encode(server.url('/slow.png')));
    expect(slow.status).toBe(504);
    expect(slow.body.toString()).toContain('took longer than 0.3 s');
  });

  it('fetches a few pictures at a time: the next waits for a turn', async () => {
    const server = await picturesAt({ '/slow.png': { hang: true }, '/art.png': png });
    const images = limited({ maxConcurrent: 1, timeoutMs: 2000 });
    const slow = images.image(encode(server.url('/slow.png')));
    const next = images.image(encode(server.url('/art.png')));
    await expect.poll(() => server.hits('/slow.png')).toBe(1);
    expect(server.hits('/art.png')).toBe(0); // the slow one holds the only turn for up to 2 s
    expect((await slow).status).toBe(504);
    expect(await next).toMatchObject({ status: 200, body: PNG_1X1 });
  });

  it('8 MiB and 10 s are the product limits', async () => {
    const { EXTERNAL_IMAGE_LIMITS } = await import('../../../src/host/ui-bridge/external-images.js');
    expect(EXTERNAL_IMAGE_LIMITS).toMatchObject({ maxBytes: 8 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3, maxFreshMs: 3_600_000, cacheBytes: 32 * 1024 * 1024 });
  });

  it('follows at most 3 redirects, checking each address again: one to a private address is refused without being asked', async () => {
    const server = await picturesAt({
      '/r1': { status: 302, headers: { Location: '/r2' } },
      '/r2': { status: 301, headers: { Location: 'http://127.0.0.1:{port}/art.png' } },
      '/art.png': png,
      '/loop': { status: 307, headers: { Location: '/loop' } },
      '/to-metadata': { status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data' } },
      '/to-other-loopback': { status: 302, headers: { Location: 'http://127.0.0.2:{port}/art.png' } },
      '/to-file': { status: 302, headers: { Location: 'file:///etc/passwd' } },
    });
    const images = proxy();
    expect(await images.image(encode(server.url('/r1')))).toMatchObject({ status: 200, body: PNG_1X1 });
    const loop = await images.image(encode(server.url('/loop')));
    expect(loop.status).toBe(502);
    expect(loop.body.toString()).toContain('more than 3 times');
    expect(server.hits('/loop')).toBe(4);
    expect((await images.image(encode(server.url('/to-metadata')))).status).toBe(403);
    expect((await images.image(encode(server.url('/to-other-loopback')))).status).toBe(403);
    expect((await images.image(encode(server.url('/to-file')))).status).toBe(502);
    expect(server.hits('/art.png')).toBe(1);
  });

  it("keeps what it fetched (the server's max-age, at most an hour; no-store not kept), and one fetch serves requests that arrive together", async () => {
    let now = 1_000_000;
    const server = await picturesAt({
      '/minute.png': { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=60' }, body: PNG_1X1 },
      '/year.png': { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=31536000' }, body: PNG_1X1 },
      '/never.png': { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' }, body: PNG_1X1 },
    });
    const images = proxy(LOCAL_ONLY, { now: () => now });
    const minute = encode(server.url('/minute.png'));
    expect(await images.image(minute)).toMatchObject({ status: 200, maxAgeSeconds: 60 });
    now += 59_000;
    expect(await images.image(minute)).toMatchObject({ status: 200, maxAgeSeconds: 1 });
    expect(server.hits('/minute.png')).toBe(1);
    now += 2000;
    await images.image(minute);
    expect(server.hits('/minute.png')).toBe(2);
    expect(await images.image(encode(server.url('/year.png')))).toMatchObject({ maxAgeSeconds: 3600 });
    await images.image(encode(server.url('/never.png')));
    await images.image(encode(server.url('/never.png')));
    expect(server.hits('/never.png')).toBe(2);
    const together = encode(server.url('/never.png'));
    await Promise.all([images.image(together), images.image(together), images.image(together)]);
    expect(server.hits('/never.png')).toBe(3);
  });

  it('the cache is bounded by bytes: the least recently used picture goes first', () => {
    const cache = new ImageCache(300);
    const entry = (size: number) => ({ contentType: 'image/png', body: Buffer.alloc(size), expiresAt: Infinity });
    cache.set('a', entry(100));
    cache.set('b', entry(100));
    cache.set('c', entry(100));
    expect(cache.get('a', 0)).toBeDefined();
    cache.set('d', entry(150));
    expect(cache.bytes).toBeLessThanOrEqual(300);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('c', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('d', 0)).toBeDefined();
    cache.set('huge', entry(301));
    expect(cache.get('huge', 0)).toBeUndefined();
    expect(freshFor({ expires: 'Thu, 01 Jan 2026 00:10:00 GMT', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, 5, 3_600_000)).toBe(600_000);
    expect(freshFor({}, 600_000, 3_600_000)).toBe(600_000);
  });
});

describe('issue 26 §10: the image proxy never fetches from this machine or a private network (after DNS resolution)', () => {
  it.each(['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])(
    '%s is not public',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it.each(['93.184.215.14', '172.32.0.1', '2606:4700::1111'])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));

  it('without the test allowance, a picture server on this machine is refused (403) by address or by a name that resolves to it, and never asked', async () => {
    const server = await picturesAt({ '/art.png': png });
    const images = proxy({});
    for (const url of [server.url('/art.png'), server.url('/art.png', 'localhost'), server.url('/art.png', '[::1]'), server.url('/art.png', '[::ffff:127.0.0.1]'), server.url('/art.png', '127.1')]) {
      const answer = await images.image(encode(url));
      expect(answer.status, url).toBe(403);
      expect(answer.body.toString()).toContain('not public');
    }
    expect(server.requests).toEqual([]);
  });
});

describe('issue 26 §10: UiImages routes cdn/external/ to the proxy', () => {
  it('cdn/external/{value} goes to the proxy; without one it is 404', async () => {
    const server = await picturesAt({ '/art.png': png });
    const external = proxy();
    const base = { cdnBase: () => 'http://127.0.0.1:9/', assets: async () => [] };
    expect(await new UiImages({ ...base, external }).image(`cdn/external/${encode(server.url('/art.png'))}`)).toMatchObject({ status: 200, body: PNG_1X1 });
    expect((await new UiImages(base).image(`cdn/external/${encode(server.url('/art.png'))}`)).status).toBe(404);
  });

  it("the desktop app's app:// handler serves the same host service (cdn/external/ through UiImages)", async () => {
    const server = await picturesAt({ '/art.png': png });
    const images = new UiImages({ cdnBase: () => 'http://127.0.0.1:9/', assets: async () => [], external: proxy() });
    const answer = await serveAppRequest('/nonexistent-renderer', `app://companion/cdn/external/${encode(server.url('/art.png'))}`, async () => new Uint8Array(), () => images);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('image/png');
    expect(Buffer.from(answer.body as Uint8Array).equals(PNG_1X1)).toBe(true);
  });
});
