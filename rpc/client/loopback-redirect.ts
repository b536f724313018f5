import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientResult } from './client-result.js';

/** How the loopback flow ended: a result, and the code when it succeeded. */
export interface LoopbackOutcome {
  readonly result: ClientResult;
  readonly code?: string;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>
`;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  Connection: 'close',
} as const;

/** The outcome of a `GET /callback`: the state first (null: not ours, ignored), then `error`, then `code`. */
function readCallback(query: URLSearchParams, expectedState: string): LoopbackOutcome | null {
  const state = query.get('state');
  if (state === null || !sameString(state, expectedState)) return null;
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description') ?? undefined;
    return { result: ClientResult.fromOAuthError(error, description) };
  }
  const code = query.get('code');
  if (code === null || code.length === 0) return { result: ClientResult.failure('AuthorizationFailed', 'the redirect carried neither a code nor an error') };
  return { result: ClientResult.ok(), code };
}

/** The page the browser shows for a callback of ours. */
function answerPage(result: ClientResult): [status: number, title: string, text: string] {
  if (result.successful) return [200, 'Authorized', 'You can close this window and return to the game.'];
  if (result.type === 'UserCancelled') return [200, 'Cancelled', 'The authorization was cancelled. You can close this window and return to the game.'];
  return [400, 'Authorization failed', 'The game could not be authorized. You can close this window and try again from the game.'];
}

/**
 * The desktop redirect of the browser flow: a listener on 127.0.0.1 that waits for the
 * `GET /callback` carrying `expectedState`, answers the browser with a small page, and settles
 * `outcome` once (with the callback, or whatever `settle` is called with first: a timeout, an
 * abort, a failure to open the browser). A callback with another state is refused (400), its
 * code dropped, and counted; it does not end the flow.
 */
export class LoopbackRedirect {
  /** Resolves with the first outcome given. */
  readonly outcome: Promise<LoopbackOutcome>;
  /** Callbacks refused for a state that did not match. */
  mismatches = 0;
  private resolve: (outcome: LoopbackOutcome) => void = () => undefined;
  private done = false;
  private readonly server: Server;

  constructor(private readonly expectedState: string) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
    this.server = createServer((request, response) => this.onRequest(request, response));
    this.server.on('clientError', (_error, socket) => socket.destroy());
  }

  settle(outcome: LoopbackOutcome): void {
    if (this.done) return;
    this.done = true;
    this.resolve(outcome);
  }

  /** Listens on 127.0.0.1 (port 0: a random free one); resolves with the port. */
  async listen(port: number): Promise<number> {
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  /** No redirect in time: `Timeout`, saying how many refused callbacks there were. */
  timeOut(timeoutMs: number): void {
    const timedOut = ClientResult.timeout(timeoutMs);
    this.settle({
      result:
        this.mismatches === 0
          ? timedOut
          : ClientResult.failure('Timeout', `${timedOut.error}; ${this.mismatches} redirect(s) with a state that did not match the request's were refused`, {
              retryable: timedOut.retryable,
            }),
    });
  }

  /** Closes the listener; resolves once it is closed. */
  close(): Promise<void> {
    const server = this.server;
    return new Promise<void>((resolve) => {
      // Answers carry `Connection: close`, so the callback's socket ends by itself once sent;
      // idle keep-alive sockets go now, anything still hanging after a grace second is cut.
      const grace = setTimeout(() => server.closeAllConnections(), 1000);
      server.close(() => {
        clearTimeout(grace);
        resolve();
      });
      server.closeIdleConnections();
    });
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404, PAGE_HEADERS).end(page('Not found', 'Nothing here.'));
      return;
    }
    if (request.method !== 'GET') {
      response.writeHead(405, { ...PAGE_HEADERS, Allow: 'GET' }).end(page('Method not allowed', 'Use GET.'));
      return;
    }
    const outcome = readCallback(url.searchParams, this.expectedState);
    if (outcome === null) {
      // A forged or stale redirect (another tab, an earlier attempt, a local page probing the
      // port): refused and its code dropped, but it does not end the flow: the player's real
      // redirect may still come before the timeout.
      this.mismatches += 1;
      response.writeHead(400, PAGE_HEADERS).end(page('Authorization failed', "This redirect does not belong to the game's request. Finish the authorization in the window the game opened."));
      return;
    }
    const [status, title, text] = answerPage(outcome.result);
    // Settled once the answer is handed to the OS, so closing the listener cannot cut it off.
    response.writeHead(status, PAGE_HEADERS).end(page(title, text), () => this.settle(outcome));
  }
}
