import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AuthorizationArgs } from './authorization-args.js';
import { INVALID_RECORD_MESSAGE } from './authorization-args.js';
import { ClientResult } from './client-result.js';
import { LoopbackRedirect } from './loopback-redirect.js';
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

/**
 * Builds the authorize page's URL and has the browser open it; a URL that cannot be built
 * (`Validation`) or a browser that cannot be opened (`AuthorizationFailed`) ends the flow.
 */
function startBrowser(redirect: LoopbackRedirect, pageUrl: () => string, openUrl: (url: string) => void | Promise<void>): void {
  let url: string;
  try {
    url = pageUrl();
  } catch (error) {
    redirect.settle({ result: ClientResult.validation(error instanceof Error ? error.message : String(error)) });
    return;
  }
  // Not awaited before waiting: an openUrl that drives the browser to the end resolves late.
  Promise.resolve()
    .then(() => openUrl(url))
    .catch((error: unknown) => {
      redirect.settle({ result: ClientResult.failure('AuthorizationFailed', `the browser could not be opened: ${error instanceof Error ? error.message : String(error)}`) });
    });
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

  const redirect = new LoopbackRedirect(state);
  const redirectUri = desktopRedirectUri(await redirect.listen(options.port ?? 0));
  const timer = setTimeout(() => redirect.timeOut(timeoutMs), timeoutMs);
  const onAbort = (): void => redirect.settle({ result: ClientResult.aborted() });
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    startBrowser(redirect, () => authorizeUrl(options.platformBase, args, options.applicationId, redirectUri, state), openUrl);
    return { ...(await redirect.outcome), redirectUri };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await redirect.close();
  }
}
