import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationArgs } from './authorization-args.js';
import { INVALID_RECORD_MESSAGE } from './authorization-args.js';
import { ClientResult } from './client-result.js';
import { authorizeUrl, desktopRedirectUri } from './redirects.js';

/**
 * The authorize fallback when no companion is running: the platform's browser page, with a
 * short-lived loopback listener on 127.0.0.1 as the desktop redirect (RFC 8252 section 7.3).
 */

/** How long the player has to finish in the browser unless the caller says otherwise. */
export const DEFAULT_BROWSER_AUTHORIZE_TIMEOUT_MS = 5 * 60_000;

export interface BrowserAuthorizeOptions {
  /** `http://127.0.0.1:PORT` of the platform; its page is `<base>/oauth2/authorize`. */
  readonly platformBase: string;
  readonly args: AuthorizationArgs;
  /** The Client's `setApplicationId` value, used when `args.clientId()` is unset. */
  readonly applicationId: string | bigint;
  /** Opens the URL in the player's browser. Default {@link openInBrowser} (xdg-open / open / rundll32). */
  readonly openUrl?: (url: string) => void | Promise<void>;
  /** How long to wait for the redirect. Default 5 minutes. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The listener's port; default 0 (a random free port). */
  readonly port?: number;
}

export interface BrowserAuthorizeOutcome {
  /** `None` with a code; `UserCancelled` for `error=access_denied`; `AuthorizationFailed` for a state mismatch, ... */
  readonly result: ClientResult;
  /** Only on success (the state matched). A secret until redeemed with getToken. */
  readonly code?: string;
  /** The redirect the code is bound to: pass it to getToken. */
  readonly redirectUri: string;
}

/** A secure random OAuth2 state (32 random bytes, base64url). */
export function generateState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Opens `url` with the desktop's handler: `open` (macOS), `rundll32 url.dll,FileProtocolHandler`
 * (Windows; no shell, so `&` in the URL is safe), `xdg-open` (others). Resolves once the
 * helper started; rejects if it cannot be started.
 */
export function openInBrowser(url: string): Promise<void> {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
    child.once('error', (error) => reject(new Error(`${command} could not be started: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
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
function readCallback(query: URLSearchParams, expectedState: string): { result: ClientResult; code?: string } | null {
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

/**
 * Client::Authorize without a companion: listens on `127.0.0.1:<random port>`, opens
 * `<platformBase>/oauth2/authorize?...` with `redirect_uri=http://127.0.0.1:<port>/callback`
 * and `state` (`args.state()`, else a secure random value), waits for `GET /callback`, answers
 * the browser with a small page, checks the state, closes the listener and resolves. A
 * callback whose state does not match (or has none) is answered 400, its code dropped, and
 * the flow keeps waiting for the real redirect (a stray or forged request must not end the
 * player's authorization); if none comes, the `Timeout` result says how many were refused. It never rejects for a flow
 * failure: `openUrl` failing is `AuthorizationFailed`, no redirect within `timeoutMs` is
 * `Timeout`, the signal is `Aborted`. An invalid `args` (nullobj, moved from) throws.
 *
 * The platform must accept the loopback redirect: the emulator compares redirect URIs
 * exactly, so the app must have this `http://127.0.0.1:<port>/callback` registered.
 */
export async function browserAuthorize(options: BrowserAuthorizeOptions): Promise<BrowserAuthorizeOutcome> {
  const { args } = options;
  if (!args.isValid()) throw new Error(INVALID_RECORD_MESSAGE);
  const timeoutMs = options.timeoutMs ?? DEFAULT_BROWSER_AUTHORIZE_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number of milliseconds');
  const openUrl = options.openUrl ?? openInBrowser;
  const state = args.state() ?? generateState();

  let settle: (outcome: { result: ClientResult; code?: string }) => void = () => undefined;
  const settled = new Promise<{ result: ClientResult; code?: string }>((resolve) => {
    let done = false;
    settle = (outcome) => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
  });

  let mismatches = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404, PAGE_HEADERS).end(page('Not found', 'Nothing here.'));
      return;
    }
    if (request.method !== 'GET') {
      response.writeHead(405, { ...PAGE_HEADERS, Allow: 'GET' }).end(page('Method not allowed', 'Use GET.'));
      return;
    }
    const outcome = readCallback(url.searchParams, state);
    if (outcome === null) {
      // A forged or stale redirect (another tab, an earlier attempt, a local page probing the
      // port): refused and its code dropped, but it does not end the flow: the player's real
      // redirect may still come before the timeout.
      mismatches += 1;
      response.writeHead(400, PAGE_HEADERS).end(page('Authorization failed', "This redirect does not belong to the game's request. Finish the authorization in the window the game opened."));
      return;
    }
    const { result } = outcome;
    const [status, title, text] = result.successful
      ? [200, 'Authorized', 'You can close this window and return to the game.']
      : result.type === 'UserCancelled'
        ? [200, 'Cancelled', 'The authorization was cancelled. You can close this window and return to the game.']
        : [400, 'Authorization failed', 'The game could not be authorized. You can close this window and try again from the game.'];
    // Settled once the answer is handed to the OS, so closing the listener cannot cut it off.
    response.writeHead(status, PAGE_HEADERS).end(page(title, text), () => settle(outcome));
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = desktopRedirectUri(port);

  const timer = setTimeout(() => {
    const timedOut = ClientResult.timeout(timeoutMs);
    settle({
      result:
        mismatches === 0
          ? timedOut
          : ClientResult.failure('Timeout', `${timedOut.error}; ${mismatches} redirect(s) with a state that did not match the request's were refused`, { retryable: timedOut.retryable }),
    });
  }, timeoutMs);
  const onAbort = (): void => settle({ result: ClientResult.aborted() });
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    let url: string;
    try {
      url = authorizeUrl(options.platformBase, args, options.applicationId, redirectUri, state);
    } catch (error) {
      settle({ result: ClientResult.validation(error instanceof Error ? error.message : String(error)) });
      url = '';
    }
    if (url !== '') {
      // Not awaited before waiting: an openUrl that drives the browser to the end resolves late.
      Promise.resolve()
        .then(() => openUrl(url))
        .catch((error: unknown) => {
          settle({ result: ClientResult.failure('AuthorizationFailed', `the browser could not be opened: ${error instanceof Error ? error.message : String(error)}`) });
        });
    }
    const outcome = await settled;
    return { ...outcome, redirectUri };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((resolve) => {
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
}
