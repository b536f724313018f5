import { describe, expect, it } from 'vitest';
import { AuthorizationArgs } from '../../client/authorization-args.js';
import { browserAuthorize, generateState } from '../../client/browser-authorize.js';
import { getToken } from '../../client/oauth-http.js';
import { createAuthorizationCodeVerifier } from '../../client/pkce.js';
import { getDefaultPresenceScopes } from '../../client/scopes.js';
import { SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The emulator compares redirect URIs exactly (no RFC 8252 port wildcard for loopback), so
 * the test registers the listener's `http://127.0.0.1:<port>/callback` before the browser
 * goes to the page.
 */
function registerRedirect(platform: TestPlatform, redirectUri: string): void {
  const app = platform.admin.apps().find((a) => a.id === SEED_APP_ID);
  platform.admin.patchApp(SEED_APP_ID, { redirect_uris: [...(app?.redirect_uris ?? []), redirectUri] });
}

interface BrowserTrace {
  authorizeUrl?: URL;
  pageStatus?: number;
  location?: string;
  callbackStatus?: number;
  callbackHtml?: string;
  /** The scripted browser's run, to await after the outcome (the flow does not wait for it). */
  done?: Promise<void>;
}

/**
 * A scripted browser: GET the authorize page, POST its form (username + decision) as the
 * page does, follow the 302 to the loopback listener.
 */
function scriptedBrowser(platform: TestPlatform, decision: 'approve' | 'deny', trace: BrowserTrace) {
  const run = async (url: string): Promise<void> => {
    const parsed = new URL(url);
    trace.authorizeUrl = parsed;
    registerRedirect(platform, parsed.searchParams.get('redirect_uri') ?? '');
    const pageResponse = await fetch(url);
    trace.pageStatus = pageResponse.status;
    const html = await pageResponse.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    if (action === undefined) throw new Error(`no form on the page: ${html}`);
    const posted = await fetch(new URL(unescapeHtml(action), platform.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'alice', decision }).toString(),
      redirect: 'manual',
    });
    const location = posted.headers.get('location');
    if (posted.status !== 302 || location === null) throw new Error(`expected a redirect, got ${posted.status}`);
    trace.location = location;
    // A stray request first (browsers ask for a favicon): not the callback, the flow goes on.
    const stray = await fetch(new URL('/favicon.ico', location));
    expect(stray.status).toBe(404);
    const callback = await fetch(location);
    trace.callbackStatus = callback.status;
    trace.callbackHtml = await callback.text();
  };
  return (url: string): Promise<void> => (trace.done = run(url));
}

function presenceArgs(): AuthorizationArgs {
  const args = new AuthorizationArgs();
  args.setScopes(getDefaultPresenceScopes());
  return args;
}

describe('browserAuthorize', () => {
  it('runs the browser flow end to end through the loopback listener, then getToken redeems the code', async () => {
    const platform = await startTestPlatform();
    const pair = createAuthorizationCodeVerifier();
    const args = presenceArgs();
    args.setCodeChallenge(pair.challenge());
    const trace: BrowserTrace = {};
    const outcome = await browserAuthorize({ platformBase: platform.url, args, applicationId: SEED_APP_ID, openUrl: scriptedBrowser(platform, 'approve', trace), timeoutMs: 10_000 });
    await trace.done;

    expect(outcome.result.successful).toBe(true);
    expect(outcome.result.type).toBe('None');
    expect(outcome.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(typeof outcome.code).toBe('string');
    expect(trace.pageStatus).toBe(200);
    expect(trace.callbackStatus).toBe(200);
    expect(trace.callbackHtml).toContain('You can close this window');
    expect(trace.callbackHtml).not.toContain(outcome.code ?? '');
    const url = trace.authorizeUrl as URL;
    expect(url.origin + url.pathname).toBe(`${platform.url}/oauth2/authorize`);
    expect(url.searchParams.get('redirect_uri')).toBe(outcome.redirectUri);
    expect(url.searchParams.get('client_id')).toBe(SEED_APP_ID);
    expect(url.searchParams.get('code_challenge')).toBe(pair.challenge().challenge());
    const state = url.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/); // generated: args.state() was unset
    expect(new URL(trace.location ?? '').searchParams.get('state')).toBe(state);

    // The listener is gone.
    await expect(fetch(outcome.redirectUri)).rejects.toThrow();

    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code: outcome.code ?? '', codeVerifier: pair.verifier(), redirectUri: outcome.redirectUri, timeoutMs: 10_000 });
    expect(token.tokenType).toBe('Bearer');
  });

  it('uses args.state() and args.clientId() when set', async () => {
    const platform = await startTestPlatform();
    const args = presenceArgs();
    args.setState('my-own-state');
    args.setClientId(SEED_APP_ID);
    const trace: BrowserTrace = {};
    const outcome = await browserAuthorize({ platformBase: platform.url, args, applicationId: '42', openUrl: scriptedBrowser(platform, 'approve', trace), timeoutMs: 10_000 });
    await trace.done;
    expect(outcome.result.successful).toBe(true);
    expect(trace.authorizeUrl?.searchParams.get('state')).toBe('my-own-state');
    expect(trace.authorizeUrl?.searchParams.get('client_id')).toBe(SEED_APP_ID);
  });

  it('reports a denial as UserCancelled without a code', async () => {
    const platform = await startTestPlatform();
    const trace: BrowserTrace = {};
    const outcome = await browserAuthorize({ platformBase: platform.url, args: presenceArgs(), applicationId: SEED_APP_ID, openUrl: scriptedBrowser(platform, 'deny', trace), timeoutMs: 10_000 });
    await trace.done;
    expect(outcome.result).toMatchObject({ successful: false, type: 'UserCancelled', oauthError: 'access_denied' });
    expect(outcome.code).toBeUndefined();
    expect(new URL(trace.location ?? '').searchParams.get('error')).toBe('access_denied');
    expect(trace.callbackHtml).toContain('cancelled');
  });

  it('answers a callback with the wrong state 400, drops its code, and keeps waiting for the real redirect', async () => {
    const statuses: number[] = [];
    let done: Promise<void> = Promise.resolve();
    const outcome = await browserAuthorize({
      platformBase: 'http://127.0.0.1:9',
      args: presenceArgs(),
      applicationId: '1234',
      openUrl: (url) =>
        (done = (async () => {
          const parsed = new URL(url);
          const redirect = parsed.searchParams.get('redirect_uri') ?? '';
          const state = parsed.searchParams.get('state') ?? '';
          // A forged redirect first: refused, and the flow goes on.
          const forged = await fetch(`${redirect}?code=attacker-code&state=${encodeURIComponent(generateState())}`);
          statuses.push(forged.status);
          expect(await forged.text()).not.toContain('attacker-code');
          // Then the player's own.
          const real = await fetch(`${redirect}?code=real-code&state=${encodeURIComponent(state)}`);
          statuses.push(real.status);
          await real.text();
        })()),
      timeoutMs: 10_000,
    });
    await done;
    expect(statuses).toEqual([400, 200]);
    expect(outcome.result).toMatchObject({ successful: true, type: 'None' });
    expect(outcome.code).toBe('real-code');
  });

  it('a callback without state (or with a wrong one) never yields its code: with no real redirect the flow times out and says so', async () => {
    const statuses: number[] = [];
    const outcome = await browserAuthorize({
      platformBase: 'http://127.0.0.1:9',
      args: presenceArgs(),
      applicationId: '1234',
      openUrl: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        for (const query of ['?code=c', '?error=access_denied&state=stale']) {
          const response = await fetch(`${redirect}${query}`);
          statuses.push(response.status);
          await response.text();
        }
      },
      timeoutMs: 300,
    });
    expect(statuses).toEqual([400, 400]);
    expect(outcome.result).toMatchObject({ successful: false, type: 'Timeout', retryable: true });
    expect(outcome.result.error).toContain('2 redirect(s) with a state that did not match');
    expect(outcome.code).toBeUndefined();
  });

  it('times out, aborts, and reports an openUrl failure', async () => {
    const args = presenceArgs();
    const timedOut = await browserAuthorize({ platformBase: 'http://127.0.0.1:9', args, applicationId: '1', openUrl: () => undefined, timeoutMs: 100 });
    expect(timedOut.result.type).toBe('Timeout');
    await expect(fetch(timedOut.redirectUri)).rejects.toThrow();

    const controller = new AbortController();
    const aborted = await browserAuthorize({ platformBase: 'http://127.0.0.1:9', args, applicationId: '1', openUrl: () => controller.abort(), timeoutMs: 10_000, signal: controller.signal });
    expect(aborted.result.type).toBe('Aborted');

    const broken = await browserAuthorize({
      platformBase: 'http://127.0.0.1:9',
      args,
      applicationId: '1',
      openUrl: () => {
        throw new Error('no browser');
      },
      timeoutMs: 10_000,
    });
    expect(broken.result).toMatchObject({ type: 'AuthorizationFailed', error: 'the browser could not be opened: no browser' });
  });

  it('throws for an invalid record', async () => {
    await expect(browserAuthorize({ platformBase: 'http://127.0.0.1:9', args: AuthorizationArgs.nullobj, applicationId: '1', openUrl: () => undefined })).rejects.toThrow(
      'AuthorizationArgs is not valid (moved from or nullobj)',
    );
  });
});
