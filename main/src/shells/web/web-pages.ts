import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { contentType, findIndex, resolveStatic } from './static-files.js';
import { chooseEncoding, CompressedFiles, isCompressible } from './compressed-files.js';
import { UiImages } from '../../host/ui-bridge/ui-images.js';
import { splitUrl, type WebAccess } from './web-access.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>\n`;
}

/** The web UI's HTTP side: the token flow, the built renderer's files and the SPA fallback. */
export class WebPages {
  private readonly compressed = new CompressedFiles();

  constructor(
    private readonly access: WebAccess,
    private readonly rendererDir: string,
    /** The pictures under `cdn/` (ui-images.ts); without it those paths are 404. */
    private readonly images?: UiImages,
  ) {}

  sendPage(res: ServerResponse, req: IncomingMessage, status: number, title: string, text: string, headers: Readonly<Record<string, string>> = {}): void {
    const body = page(title, text);
    res.writeHead(status, {
      ...this.access.securityHeaders,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = this.access.foreign(req);
    // A refused request's body is not read: the connection closes after the answer.
    if (refused !== undefined) return this.sendPage(res, req, refused.status, refused.title, refused.text, { Connection: 'close' });
    const raw = req.url ?? '/';
    if (!raw.startsWith('/')) return this.sendPage(res, req, 400, 'Bad Request', 'Bad request target.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return this.sendPage(res, req, 405, 'Method Not Allowed', 'Only GET and HEAD are served here.', { Allow: 'GET, HEAD' });
    }
    const { path: rawPath, query } = splitUrl(raw);
    const given = query.get('token');
    if (given !== null) return this.openSession(req, res, given);
    if (!this.access.hasSession(req)) {
      return this.sendPage(res, req, 401, 'Unauthorized', 'Run companion ui for a link that opens the UI (or open the URL with the token that companion serve printed).');
    }
    if (rawPath === '/bridge') return this.sendPage(res, req, 426, 'Upgrade Required', 'The bridge speaks WebSocket only.', { Upgrade: 'websocket' });
    if (UiImages.handles(rawPath.slice(1))) return this.serveImage(req, res, rawPath.slice(1));
    return this.serveStatic(req, res, rawPath);
  }

  /** A picture from the platform's CDN, under this origin; as a document it can do nothing (CSP sandbox). */
  private async serveImage(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const image = this.images === undefined ? { status: 404, contentType: 'text/plain; charset=utf-8', body: Buffer.from('No such image.\n') } : await this.images.image(path);
    res.writeHead(image.status, {
      ...this.access.securityHeaders,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'Content-Type': image.contentType,
      'Content-Length': image.body.length,
      'Cache-Control': image.status === 200 ? `private, max-age=${image.maxAgeSeconds ?? 3600}` : 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : image.body);
  }

  private openSession(req: IncomingMessage, res: ServerResponse, given: string): void {
    if (!this.access.tokenMatches(given) && !this.access.redeemOneTime(given)) {
      this.sendPage(
        res,
        req,
        401,
        'Unauthorized',
        'This link does not open Companion (any more): a link from companion ui works once. Run companion ui again for a new one.',
      );
      return;
    }
    // The token leaves the address bar (and the history) at once; the cookie takes over.
    res.writeHead(302, {
      ...this.access.securityHeaders,
      Location: '/',
      'Set-Cookie': this.access.sessionCookie(),
      'Cache-Control': 'no-store',
      'Content-Length': 0,
    });
    res.end();
  }

  private async serveStatic(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    const built = await findIndex(this.rendererDir);
    if (built === null) {
      this.sendPage(
        res,
        req,
        503,
        'The Companion UI is not built',
        `No index.html in ${this.rendererDir}. Build the UI with "npx vite build --config renderer/vite.config.ts" ` +
          'in the project folder, then reload this page.',
      );
      return;
    }
    const resolved = await resolveStatic(built.root, rawPath);
    if (resolved.kind === 'bad') return this.sendPage(res, req, 400, 'Bad Request', 'Bad path.');
    if (resolved.kind === 'file') return this.sendFile(res, req, resolved.file, resolved.size);
    if (!resolved.spa) return this.sendPage(res, req, 404, 'Not Found', 'No such file.');
    const index = await resolveStatic(built.root, '/index.html');
    if (index.kind !== 'file') return this.sendPage(res, req, 404, 'Not Found', 'No such file.');
    await this.sendFile(res, req, index.file, index.size);
  }

  /**
   * A file of the built UI: compressed (brotli or gzip, as the browser accepts) when it is text
   * that gains from it, with `Vary: Accept-Encoding` on every answer that could have been.
   */
  private async sendFile(res: ServerResponse, req: IncomingMessage, file: string, size: number): Promise<void> {
    const type = contentType(file);
    const compressible = isCompressible(type);
    const encoding = compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
    const compressed = encoding === null ? null : await this.compressed.get(file, encoding);
    const headers = { ...this.access.securityHeaders, 'Content-Type': type, 'Cache-Control': 'no-cache', ...(compressible ? { Vary: 'Accept-Encoding' } : {}) };
    if (compressed !== null && encoding !== null) {
      res.writeHead(200, { ...headers, 'Content-Encoding': encoding, 'Content-Length': compressed.length });
      res.end(req.method === 'HEAD' ? undefined : compressed);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await pipeline(createReadStream(file), res);
  }
}
