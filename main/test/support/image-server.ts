import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The smallest PNG there is (1x1, transparent): real bytes, for the type checks. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

export interface ImageRoute {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer | string;
  /** Never answers (for the time limit). */
  readonly hang?: boolean;
}

/**
 * A game's picture server on 127.0.0.1 (a real HTTP server on port 0): path -> answer. Every
 * request it gets is kept (path and headers), so tests see what the proxy sent and how often.
 */
export class ImageServer {
  readonly requests: { readonly path: string; readonly headers: http.IncomingHttpHeaders }[] = [];
  private readonly server: http.Server;

  private constructor(private readonly routes: Record<string, ImageRoute>) {
    this.server = http.createServer((req, res) => this.answer(req, res));
  }

  static async start(routes: Record<string, ImageRoute>): Promise<ImageServer> {
    const server = new ImageServer(routes);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  hits(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = req.url ?? '/';
    this.requests.push({ path, headers: req.headers });
    const route = this.routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such picture');
      return;
    }
    if (route.hang === true) return;
    const headers = { ...route.headers };
    if (headers['Location'] !== undefined) headers['Location'] = headers['Location'].replace('{port}', String(this.port));
    res.writeHead(route.status ?? 200, headers).end(route.body);
  }
}
