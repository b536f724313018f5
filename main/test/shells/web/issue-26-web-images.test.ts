import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../rpc/test/support/test-server.js';
import { ExternalImages } from '../../../src/host/ui-bridge/external-images.js';
import { UiImages } from '../../../src/host/ui-bridge/ui-images.js';
import { chooseEncoding } from '../../../src/shells/web/compressed-files.js';
import { startWebUi, type WebUi } from '../../../src/shells/web/web-ui-server.js';
import { FakeSettings, FakeUiBackend, fakeRenderer, rawRequest, sessionCookie } from '../../host/ui-bridge/support.js';
import { ImageServer, PNG_1X1 } from '../../support/image-server.js';

let rpc: TestServer;
let ui: WebUi;
let renderer: Awaited<ReturnType<typeof fakeRenderer>>;
let pictures: ImageServer;
const supplied = new Set<string>();

beforeEach(async () => {
  rpc = await startTestServer();
  renderer = await fakeRenderer();
  pictures = await ImageServer.start({ '/art.png': { headers: { 'Content-Type': 'image/png', 'Set-Cookie': 'tracker=1' }, body: PNG_1X1 } });
  supplied.clear();
  const external = new ExternalImages({ supplied: (value) => supplied.has(value) }, { allowAddress: (address) => address === '127.0.0.1' });
  const images = new UiImages({ cdnBase: () => 'http://127.0.0.1:9/', assets: async () => [], external });
  ui = await startWebUi({ backend: new FakeUiBackend(), server: rpc.server, settings: new FakeSettings(), rendererDir: renderer.rendererDir, images });
});

afterEach(async () => {
  await ui.close();
  await rpc.close();
  await pictures.close();
  await renderer.remove();
});

/** One request with the body as bytes (rawRequest reads text). */
function bytesRequest(port: number, target: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe("issue 26 §10: the web UI serves games' pictures through the host, to the UI only", () => {
  it("answers the UI's session with the picture; never forwards its cookie or headers, nor the server's cookie back", async () => {
    const value = pictures.url('/art.png');
    supplied.add(value);
    const cookie = await sessionCookie(ui.port, ui.token);
    const target = `/cdn/external/${Buffer.from(value).toString('base64url')}`;
    const answer = await bytesRequest(ui.port, target, { Cookie: `${cookie}; other=secret`, 'X-Forwarded-For': '203.0.113.9', Referer: `http://127.0.0.1:${ui.port}/`, 'User-Agent': 'the player browser' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['content-security-policy']).toContain('sandbox');
    expect(answer.body.equals(PNG_1X1)).toBe(true);
    const [request] = pictures.requests;
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers.referer).toBeUndefined();
    expect(request!.headers['x-forwarded-for']).toBeUndefined();
    expect(request!.headers['user-agent']).toBe('Companion-ImageProxy/1.0');
  });

  it('refuses another origin (403), another Host name (421) and a request without the session (401): the game server is never asked', async () => {
    const value = pictures.url('/art.png');
    supplied.add(value);
    const cookie = await sessionCookie(ui.port, ui.token);
    const target = `/cdn/external/${Buffer.from(value).toString('base64url')}`;
    expect((await rawRequest(ui.port, target, { Cookie: cookie, Origin: 'http://evil.example' })).status).toBe(403);
    expect((await rawRequest(ui.port, target, { Cookie: cookie, Host: `evil.example:${ui.port}` })).status).toBe(421);
    expect((await rawRequest(ui.port, target)).status).toBe(401);
    expect((await rawRequest(ui.port, target, { Cookie: 'companion_ui_1=forged' })).status).toBe(401);
    expect(pictures.requests).toEqual([]);
  });

  it('a value no activity carries is 404 (plain text, not cached); the CSP lets the page load pictures from its own origin only', async () => {
    const cookie = await sessionCookie(ui.port, ui.token);
    const answer = await rawRequest(ui.port, `/cdn/external/${Buffer.from(pictures.url('/art.png')).toString('base64url')}`, { Cookie: cookie });
    expect(answer.status).toBe(404);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(pictures.requests).toEqual([]);
    const page = await rawRequest(ui.port, '/', { Cookie: cookie });
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
  });
});

describe("issue 26 §10: the UI's bundle is served compressed", () => {
  it('brotli or gzip by Accept-Encoding, with Content-Encoding and Vary; the same bytes once decoded; HEAD gives the compressed length', async () => {
    const bundle = Buffer.from(`${'export const words = ["Friends", "Games", "Inspector", "Settings"];\n'.repeat(400)}`);
    await writeFile(path.join(renderer.rendererDir, 'assets', 'bundle.js'), bundle);
    const cookie = await sessionCookie(ui.port, ui.token);
    const br = await bytesRequest(ui.port, '/assets/bundle.js', { Cookie: cookie, 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(bundle)).toBe(true);
    expect(br.body.length).toBeLessThan(bundle.length / 10);
    const gz = await bytesRequest(ui.port, '/assets/bundle.js', { Cookie: cookie, 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(bundle)).toBe(true);
    const plain = await bytesRequest(ui.port, '/assets/bundle.js', { Cookie: cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.equals(bundle)).toBe(true);
    const head = await rawRequest(ui.port, '/assets/bundle.js', { Cookie: cookie, 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    // The SPA fallback (index.html for a route) goes the same way; a tiny file is sent as it is.
    const tiny = await bytesRequest(ui.port, '/assets/app.js', { Cookie: cookie, 'Accept-Encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    // A rebuilt file is compressed again.
    const rebuilt = Buffer.from(`${'export const other = 1;\n'.repeat(400)}`);
    await writeFile(path.join(renderer.rendererDir, 'assets', 'bundle.js'), rebuilt);
    const again = await bytesRequest(ui.port, '/assets/bundle.js', { Cookie: cookie, 'Accept-Encoding': 'br' });
    expect(brotliDecompressSync(again.body).equals(rebuilt)).toBe(true);
  });

  it('reads Accept-Encoding as browsers send it', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
