import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server the test puts in front of a platform (or in its place) to hold a starting
 * host: every request waits until release(), then each is answered by `answer` (e.g. a proxy
 * to a real emulator), as is every later one. `held` says how many are waiting, so a test can
 * see the host blocked without a timing assumption.
 */
export class HoldingGate {
  private readonly waiting: (() => void)[] = [];
  private released = false;
  private readonly server: http.Server;
  private address = '';

  private constructor(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
    this.server = http.createServer((req, res) => {
      if (this.released) answer(req, res);
      else this.waiting.push(() => answer(req, res));
    });
  }

  static async start(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<HoldingGate> {
    const gate = new HoldingGate(answer);
    await new Promise<void>((resolve) => gate.server.listen(0, '127.0.0.1', resolve));
    gate.address = `http://127.0.0.1:${(gate.server.address() as AddressInfo).port}`;
    return gate;
  }

  /** Its origin, `http://127.0.0.1:PORT`. */
  get url(): string {
    return this.address;
  }

  /** Requests held so far. */
  get held(): number {
    return this.waiting.length;
  }

  /** Answers the held requests, and every later one at once. */
  release(): void {
    this.released = true;
    for (const answer of this.waiting.splice(0)) answer();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An answer for HoldingGate: the request passed on to `target` (an origin) and its reply passed back. */
export function proxyTo(target: string): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const { hostname, port, host } = new URL(target);
  return (req, res) => {
    // The emulator answers only requests that name it (its DNS-rebinding guard).
    const upstream = http.request({ hostname, port, method: req.method, path: req.url, headers: { ...req.headers, host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
}
