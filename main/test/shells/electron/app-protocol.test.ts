import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP, contentTypeFor, resolveAppPath, serveAppRequest } from '../../../src/shells/electron/app-protocol.js';

const ROOT = path.resolve('/srv/renderer');

describe('resolveAppPath', () => {
  it.each([
    ['app://companion/', 'index.html'],
    ['app://companion', 'index.html'],
    ['app://companion/index.html', 'index.html'],
    ['app://companion/index.html?x=1#/consent', 'index.html'],
    ['app://companion/assets/main-1a2b.js', 'assets/main-1a2b.js'],
    ['app://companion/assets/my%20font.woff2', 'assets/my font.woff2'],
  ])('%s → %s', (url, relative) => {
    expect(resolveAppPath(ROOT, url)).toBe(path.join(ROOT, relative));
  });

  it.each([
    'app://companion/../secret.txt',
    'app://companion/assets/../../etc/passwd',
    'app://companion/%2e%2e/secret.txt',
    'app://companion/%2E%2E/%2E%2E/etc/passwd',
    'app://companion/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    'app://companion/..%2fsecret',
    'app://companion/..%5csecret',
    'app://companion/assets\\..\\..\\secret',
    'app://companion/%5c%5cserver%5cshare',
    'app://companion//etc/passwd',
    'app://companion/%2fetc%2fpasswd',
    'app://companion/C:%5cWindows%5cwin.ini',
    'app://companion/C:/Windows/win.ini',
    'app://companion/index.html%00.png',
    'app://companion/index.html\u0000',
    'app://companion/./index.html',
    'app://companion/%2e/index.html',
    'app://companion/%E0%A4%A',
    'app://other/index.html',
    'app://companion.evil/index.html',
    'app://companion:99/index.html',
    'app://u@companion/index.html',
    'file:///srv/renderer/index.html',
    'https://companion/index.html',
    '/etc/passwd',
    '',
  ])('refuses %j', (url) => {
    expect(resolveAppPath(ROOT, url)).toBeNull();
  });

  it('never resolves outside the root (random paths)', () => {
    const parts = ['..', '%2e%2e', '.', 'a', '%2f', '%5c', '', 'b.js', '%00', '~', 'C:'];
    let resolved = 0;
    for (let i = 0; i < 2000; i++) {
      const segments = Array.from({ length: 1 + (i % 5) }, (_v, k) => parts[(i * 7 + k * 13) % parts.length]);
      const file = resolveAppPath(ROOT, `app://companion/${segments.join('/')}`);
      if (file === null) continue;
      resolved += 1;
      expect(file.startsWith(ROOT + path.sep)).toBe(true);
    }
    // The sweep also hits plain paths (a/b.js ...): a resolver refusing everything would fail here.
    expect(resolved).toBeGreaterThan(0);
  });
});

describe('content types and headers', () => {
  it('maps the renderer build and defaults to octet-stream', () => {
    expect(contentTypeFor('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('/x/a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/a.svg')).toBe('image/svg+xml');
    expect(contentTypeFor('/x/a.exe')).toBe('application/octet-stream');
  });

  it('has a strict CSP', () => {
    expect(APP_CSP).toContain("default-src 'self'");
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });
});

describe('serveAppRequest', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'companion-app-'));
    await mkdir(path.join(dir, 'renderer', 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Companion</title>');
    await writeFile(path.join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
    await writeFile(path.join(dir, 'secret.txt'), 'secret');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves files with CSP and nosniff, SPA routes with the index, and 404 otherwise', async () => {
    const root = path.join(dir, 'renderer');
    const index = await serveAppRequest(root, 'app://companion/');
    expect(index.status).toBe(200);
    expect(String(Buffer.from(index.body))).toContain('<title>Companion</title>');
    expect(index.headers['Content-Security-Policy']).toBe(APP_CSP);
    expect(index.headers['X-Content-Type-Options']).toBe('nosniff');
    const js = await serveAppRequest(root, 'app://companion/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect((await serveAppRequest(root, 'app://companion/games')).status).toBe(200);
    expect((await serveAppRequest(root, 'app://companion/missing.js')).status).toBe(404);
    const escape = await serveAppRequest(root, 'app://companion/%2e%2e/secret.txt');
    expect(escape.status).toBe(404);
    expect(String(escape.body)).not.toContain('secret');
  });

  it("serves the host's cdn/ pictures once the host runs (404 before), sandboxed; the asked path goes to the host as it is", async () => {
    const root = path.join(dir, 'renderer');
    expect((await serveAppRequest(root, 'app://companion/cdn/app-icons/1/abc.png')).status).toBe(404);
    const asked: string[] = [];
    const images = () => ({
      image: async (p: string) => {
        asked.push(p);
        return { status: 200, contentType: 'image/svg+xml', body: Buffer.from('<svg/>') };
      },
    });
    const picture = await serveAppRequest(root, 'app://companion/cdn/app-icons/1/abc.png?size=64', undefined, images);
    expect(picture.status).toBe(200);
    expect(picture.headers['Content-Type']).toBe('image/svg+xml');
    expect(picture.headers['Content-Security-Policy']).toContain('sandbox');
    expect(picture.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(Buffer.from(picture.body).toString()).toBe('<svg/>');
    expect(asked).toEqual(['cdn/app-icons/1/abc.png']);
  });
});
