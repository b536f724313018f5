import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Locator } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, ROOT, startHost, startPlatform } from './support/processes.js';
import { goOnline, login } from './support/social.js';

/** A PNG of `size` x `size` pixels, diagonal stripes of two colours: a picture one can see in the screenshot. */
function stripes(size: number, first: readonly [number, number, number], second: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Array.from({ length: size }, (_, y) => Buffer.from([0, ...Array.from({ length: size }, (_, x) => (Math.floor((x + y) / 8) % 2 === 0 ? first : second)).flat()]));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const ART = stripes(96, [88, 101, 242], [235, 69, 158]);
const BADGE = stripes(32, [87, 242, 135], [254, 231, 92]);

/** Whether an <img> loaded a picture (a broken one has no natural size). */
async function loaded(image: Locator): Promise<boolean> {
  return image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0);
}

/** A game's picture server: https on 127.0.0.1 with a self-signed certificate made by openssl; every request kept. */
async function pictureServer(dir: string): Promise<{ url: (file: string) => string; requests: { path: string; agent: string }[]; cert: string; close(): Promise<void> }> {
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const requests: { path: string; agent: string }[] = [];
  const server = https.createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    requests.push({ path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
    if (req.url === '/art.png' || req.url === '/badge.png') res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=300' }).end(req.url === '/art.png' ? ART : BADGE);
    else if (req.url === '/art.svg') res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (file) => `https://127.0.0.1:${port}/${file}`,
    requests,
    cert,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// The browser would accept the picture server's certificate: a UI that loaded the picture itself
// would show it, and only the check of the page's requests would tell.
test.use({ ignoreHTTPSErrors: true });

test("issue 26 §10: a game's https and mp:external pictures come through the host: the page never asks the game's server, the pictures still show, the bundle comes compressed", async ({ page, games }) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-e2e-pictures-'));
  const pictures = await pictureServer(dir);
  try {
    // The host's image proxy may fetch from 127.0.0.1 here only: the test's rule, through the host's test-only tuning.
    const host = await startHost({ serve: { script: path.join(ROOT, 'e2e/web/support/image-proxy-host.mjs'), env: { E2E_IMAGE_CA: pictures.cert } } });
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    const encodings = new Map<string, string>();
    page.on('response', (response) => {
      if (/\/assets\/.+\.js$/.test(response.url())) encodings.set(response.url(), response.headers()['content-encoding'] ?? 'none');
    });
    await openUi(page, host, 'games');
    const game = await games.raw(host, DEMO_APP_ID);
    const origin = new URL(pictures.url('')).host;
    expect(
      await game.request('SET_ACTIVITY', {
        pid: process.pid,
        activity: {
          details: 'Ranked match',
          assets: { large_image: pictures.url('art.png'), large_text: 'Map: Harbour', small_image: `mp:external/Sig_1/https/${origin}/badge.png`, small_text: 'Rank: Gold' },
        },
      }),
    ).toMatchObject({ evt: null });
    const card = page.getByTestId('game-friends-see');
    const large = card.getByTestId('activity-large-image');
    const small = card.getByTestId('activity-small-image');
    await expect.poll(() => loaded(large)).toBe(true);
    await expect.poll(() => loaded(small)).toBe(true);
    await screenshot(page, 'issue-26-games-external-images');
    // The game's server saw the host (its image proxy), never the player's browser.
    expect(asked.filter((url) => url.includes(origin))).toEqual([]);
    expect(pictures.requests.map(({ path: file }) => file).sort()).toEqual(['/art.png', '/badge.png']);
    expect(new Set(pictures.requests.map(({ agent }) => agent))).toEqual(new Set(['Companion-ImageProxy/1.0']));

    // A picture the proxy refuses (SVG): the activity's initial instead, and still nothing from the page to that server.
    expect(await game.request('SET_ACTIVITY', { pid: process.pid, activity: { details: 'Vector art', assets: { large_image: pictures.url('art.svg') } } })).toMatchObject({ evt: null });
    await expect(card.getByTestId('activity-art-fallback')).toBeVisible();
    await expect(card.getByTestId('activity-large-image')).toHaveCount(0);
    expect(asked.filter((url) => url.includes(origin))).toEqual([]);
    expect(pictures.requests.map(({ path: file }) => file)).toContain('/art.svg');

    // The UI's bundle came compressed (Chromium asks for brotli or gzip).
    expect([...encodings.values()].length).toBeGreaterThan(0);
    for (const [url, encoding] of encodings) expect(['br', 'gzip'], url).toContain(encoding);
    test.info().annotations.push({ type: 'bundle encoding', description: [...encodings.values()].join(', ') });
  } finally {
    await pictures.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("issue 26 §10: a friend's game picture (an https URL in their activity) shows on Friends through the player's host, never fetched by the page", async ({ page }) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'companion-e2e-pictures-'));
  const pictures = await pictureServer(dir);
  try {
    const platform = await startPlatform();
    const bob = await startHost({ platform: platform.url, user: 'bob', serve: { script: path.join(ROOT, 'e2e/web/support/image-proxy-host.mjs'), env: { E2E_IMAGE_CA: pictures.cert } } });
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await openUi(page, bob, 'friends');
    // alice plays, on her own client: her activity's picture is her game's https URL.
    const alice = await goOnline(platform, await login(platform, 'alice'), [
      { name: DEMO_APP_NAME, type: 0, application_id: DEMO_APP_ID, details: 'Ranked match', assets: { large_image: pictures.url('art.png'), large_text: 'Map: Harbour' } },
    ]);
    try {
      // Friends opened on All (no friend was online then); her game's card is under Active now, beside the Online tab.
      await page.getByTestId('friends-tab-online').click();
      const art = page.getByTestId('activity-large-image').first();
      await expect.poll(() => loaded(art)).toBe(true);
      await screenshot(page, 'issue-26-friends-external-image');
      const origin = new URL(pictures.url('')).host;
      expect(asked.filter((url) => url.includes(origin))).toEqual([]);
      expect(pictures.requests.map(({ path: file }) => file)).toEqual(['/art.png']);
    } finally {
      alice.close();
    }
  } finally {
    await pictures.close();
    await rm(dir, { recursive: true, force: true });
  }
});
