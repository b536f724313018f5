/**
 * The game-side SDK (`companion/client`) against a real host with the embedded platform:
 * authorize approve / deny / dismiss / timeout through the consent broker's policy and the
 * control API, the PKCE round trip with getToken, updateToken (AUTHENTICATE), the
 * AUTHORIZE_REQUEST callback, and no token in the SDK's log at any level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, TIMED_OUT_MESSAGE } from '../../../rpc/src/index.js';
import { AuthorizationArgs, Client, DEBUG_BUILD_WARNING, type ClientOptions } from '../../../rpc/client/index.js';
import { Recorder } from '../../../rpc/test/compat/helpers.js';
import type { ConsentRequestView } from '../../src/host/auth/consent-broker.js';
import { DEMO_APP_ID, World, type Player, type TestHostOptions } from './support/world.js';

let world: World;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  await world.close();
});

async function alice(extra: Partial<TestHostOptions> = {}): Promise<Player> {
  world = await World.start();
  return world.player('alice', extra);
}

/** An SDK client that finds the player's host by the normal socket discovery (XDG_RUNTIME_DIR). */
async function sdkFor(player: Player, options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: player.runtimeDir }, logger: { sink: () => undefined }, ...options });
  clients.push(client);
  client.setApplicationId(DEMO_APP_ID);
  const connected = await client.connect();
  expect(connected.successful, connected.error).toBe(true);
  return client;
}

function args(scopes = 'identify'): AuthorizationArgs {
  const record = new AuthorizationArgs();
  record.setScopes(scopes);
  return record;
}

/** The next consent prompt of this host. */
function nextPrompt(player: Player): Promise<ConsentRequestView> {
  return new Promise((resolve) => player.host.consent.once('request', resolve));
}

describe('authorize through a running companion', () => {
  it("approve (the broker's policy): the callback gets a code and a null redirect; the code is redeemed with PKCE and updateToken authenticates", async () => {
    const player = await alice({ consentPolicy: 'approve' });
    const client = await sdkFor(player);
    const verifier = client.createAuthorizationCodeVerifier();
    const request = args('identify guilds');
    request.setCodeChallenge(verifier.challenge());

    const called = new Recorder<[string, string | null, string | null]>();
    const outcome = await client.authorize(request, (result, code, redirectUri) => called.push([result.type, code, redirectUri]));
    expect(outcome).toMatchObject({ via: 'rpc', redirectUri: null, result: { successful: true, type: 'None' } });
    expect(outcome.code).toEqual(expect.any(String));
    expect(called.items).toEqual([['None', outcome.code, null]]);

    // The default platform base comes from READY's api_endpoint (the embedded platform).
    const tokens = new Recorder<[boolean, string | null, string | null, string | null, number, string]>();
    const exchanged = await client.getToken(DEMO_APP_ID, outcome.code!, verifier.verifier(), null, (result, access, refresh, type, expiresIn, scopes) =>
      tokens.push([result.successful, access, refresh, type, expiresIn, scopes]),
    );
    expect(exchanged.result.successful, exchanged.result.error).toBe(true);
    expect(exchanged.token).toMatchObject({ tokenType: 'Bearer', expiresIn: 604800, scope: 'identify guilds' });
    expect(tokens.items).toEqual([[true, exchanged.token!.accessToken, exchanged.token!.refreshToken, 'Bearer', 604800, 'identify guilds']]);

    const updated = await client.updateToken('Bearer', exchanged.token!.accessToken);
    expect(updated.successful, updated.error).toBe(true);
    const connection = [...player.host.server.connections()].find((c) => c.clientId === DEMO_APP_ID);
    expect(connection?.authenticated).toBe(true);
    expect([...(connection?.scopes ?? [])].sort()).toEqual(['guilds', 'identify']);
  });

  it('PKCE: a code bound to a challenge is refused with a wrong verifier and redeemed once with the right one', async () => {
    const player = await alice({ consentPolicy: 'approve' });
    const client = await sdkFor(player);
    const verifier = client.createAuthorizationCodeVerifier();
    const other = client.createAuthorizationCodeVerifier();
    const request = args();
    request.setCodeChallenge(verifier.challenge());
    const { code } = await client.authorize(request);
    const wrong = await client.getToken(DEMO_APP_ID, code!, other.verifier(), null);
    expect(wrong.result).toMatchObject({ successful: false, type: 'AuthorizationFailed', oauthError: 'invalid_grant', status: 400 });

    const { code: second } = await client.authorize(request);
    const good = await client.getToken(DEMO_APP_ID, second!, verifier.verifier(), null);
    expect(good.result.successful, good.result.error).toBe(true);
    const reused = await client.getToken(DEMO_APP_ID, second!, verifier.verifier(), null);
    expect(reused.result).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'invalid_grant' });

    const refreshed = await client.refreshToken(DEMO_APP_ID, good.token!.refreshToken);
    expect(refreshed.result.successful, refreshed.result.error).toBe(true);
    expect(refreshed.token!.accessToken).not.toBe(good.token!.accessToken);
    expect((await client.revokeToken(DEMO_APP_ID, refreshed.token!.accessToken)).successful).toBe(true);
    expect((await client.refreshToken(DEMO_APP_ID, refreshed.token!.refreshToken)).result).toMatchObject({ oauthError: 'invalid_grant' });
  });

  it("deny (the broker's policy) is UserCancelled with the outcome table's access_denied", async () => {
    const player = await alice({ consentPolicy: 'deny' });
    const client = await sdkFor(player);
    const called = new Recorder<[string, string | null, string | null]>();
    const outcome = await client.authorize(args(), (result, code, redirectUri) => called.push([result.type, code, redirectUri]));
    expect(outcome.result).toMatchObject({ successful: false, type: 'UserCancelled', errorCode: 5000, oauthError: 'access_denied', error: ACCESS_DENIED_MESSAGE });
    expect(called.items).toEqual([['UserCancelled', null, null]]);
  });

  it('approve and deny through the control API', async () => {
    const player = await alice();
    const client = await sdkFor(player);

    let prompt = nextPrompt(player);
    let pending = client.authorize(args());
    const approveId = (await prompt).id;
    expect((await player.control('POST', `/v1/consent/${approveId}/approve`, {})).status).toBe(200);
    const approved = await pending;
    expect(approved.result.successful).toBe(true);
    expect(approved.code).toEqual(expect.any(String));

    prompt = nextPrompt(player);
    pending = client.authorize(args('identify email'));
    const denyId = (await prompt).id;
    expect((await player.control('POST', `/v1/consent/${denyId}/deny`, {})).status).toBe(200);
    expect((await pending).result).toMatchObject({ type: 'UserCancelled', oauthError: 'access_denied' });
  });

  it('a dismissed prompt is UserCancelled; no answer in time is UserCancelled with the timed-out message', async () => {
    const player = await alice({ consentTimeoutMs: 300 });
    const client = await sdkFor(player);
    const prompt = nextPrompt(player);
    const pending = client.authorize(args());
    player.host.consent.decide((await prompt).id, 'dismiss');
    expect((await pending).result).toMatchObject({ type: 'UserCancelled', error: ACCESS_DENIED_MESSAGE });

    const timedOut = await client.authorize(args('identify email'));
    expect(timedOut.result).toMatchObject({ successful: false, type: 'UserCancelled', errorCode: 5000, error: TIMED_OUT_MESSAGE });
  });

  it('an invalid scope is InvalidRequest, not a cancellation', async () => {
    const player = await alice({ consentPolicy: 'approve' });
    const client = await sdkFor(player);
    const outcome = await client.authorize(args('identify telepathy'));
    expect(outcome.result).toMatchObject({ type: 'InvalidRequest', oauthError: 'invalid_scope', errorCode: 5000 });
  });
});

describe('authorize without a companion', () => {
  /** A scripted browser on the emulator's authorize page: registers the loopback redirect, posts the form, follows the 302. */
  function browser(decision: 'approve' | 'deny', tamperState = false) {
    const opened: URL[] = [];
    /** Status of the forged redirect (tamperState): sent first, with the real code and a wrong state. */
    const forgedStatus: number[] = [];
    const openUrl = async (url: string): Promise<void> => {
      const parsed = new URL(url);
      opened.push(parsed);
      world.platform.admin.patchApp(DEMO_APP_ID, { redirect_uris: [parsed.searchParams.get('redirect_uri') ?? ''] });
      const html = await (await fetch(url)).text();
      const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
      if (action === undefined) throw new Error(`no form on the authorize page: ${html}`);
      const posted = await fetch(new URL(action.replace(/&amp;/g, '&'), world.platform.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'alice', decision }).toString(),
        redirect: 'manual',
      });
      const location = new URL(posted.headers.get('location') ?? '');
      if (tamperState) {
        const forged = new URL(location);
        forged.searchParams.set('state', 'forged-state');
        const response = await fetch(forged);
        forgedStatus.push(response.status);
        await response.text();
      }
      await fetch(location);
    };
    return { openUrl, opened, forgedStatus };
  }

  it('falls back to the browser flow with the loopback redirect, whose code getToken redeems; a forged state is refused', async () => {
    world = await World.start();
    const { openUrl, opened } = browser('approve');
    const client = new Client({ connection: { socketPaths: [] }, platformBase: world.platform.url, openUrl, logger: { sink: () => undefined } });
    clients.push(client);
    client.setApplicationId(DEMO_APP_ID);
    const verifier = client.createAuthorizationCodeVerifier();
    const request = args();
    request.setCodeChallenge(verifier.challenge());
    const called = new Recorder<[string, string | null, string | null]>();
    const outcome = await client.authorize(request, (result, code, redirectUri) => called.push([result.type, code, redirectUri]));
    expect(outcome.via).toBe('browser');
    expect(outcome.result.successful, outcome.result.error).toBe(true);
    expect(outcome.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+\/callback$/);
    expect(called.items).toEqual([['None', outcome.code, outcome.redirectUri]]);
    expect(opened[0]!.searchParams.get('state')).toEqual(expect.any(String));
    const token = await client.getToken(DEMO_APP_ID, outcome.code!, verifier.verifier(), outcome.redirectUri);
    expect(token.result.successful, token.result.error).toBe(true);

    // A redirect with a forged state is refused (400, its code not taken) and does not end
    // the flow: the real redirect that follows completes it.
    const tampering = browser('approve', true);
    const forged = new Client({ connection: { socketPaths: [] }, platformBase: world.platform.url, openUrl: tampering.openUrl, logger: { sink: () => undefined } });
    clients.push(forged);
    forged.setApplicationId(DEMO_APP_ID);
    const afterForgery = await forged.authorize(args());
    expect(tampering.forgedStatus).toEqual([400]);
    expect(afterForgery).toMatchObject({ via: 'browser', result: { successful: true, type: 'None' } });
    expect(afterForgery.code).toEqual(expect.any(String));

    const denied = new Client({ connection: { socketPaths: [] }, platformBase: world.platform.url, openUrl: browser('deny').openUrl, logger: { sink: () => undefined } });
    clients.push(denied);
    denied.setApplicationId(DEMO_APP_ID);
    expect((await denied.authorize(args())).result).toMatchObject({ type: 'UserCancelled', oauthError: 'access_denied' });
  });
});

describe('AUTHORIZE_REQUEST', () => {
  it('the registered callback runs when the player asks to link from Companion; after removal nothing is delivered', async () => {
    const player = await alice();
    const client = await sdkFor(player);
    const requests = new Recorder<true>();
    expect((await client.registerAuthorizeRequestCallback(() => requests.push(true))).successful).toBe(true);
    const sent = await player.control('POST', `/v1/games/${DEMO_APP_ID}/authorize-request`);
    expect(sent.body).toEqual({ delivered: 1 });
    await requests.until(() => true, 3000, 'the authorize-request callback');

    expect((await client.removeAuthorizeRequestCallback()).successful).toBe(true);
    expect((await player.control('POST', `/v1/games/${DEMO_APP_ID}/authorize-request`)).body).toEqual({ delivered: 0 });
    expect(requests.items).toHaveLength(1);
  });
});

describe('logging', () => {
  it('no code, verifier or token appears in the log of a debug build (every level) or a release build', async () => {
    const player = await alice({ consentPolicy: 'approve' });
    const debugLines: string[] = [];
    const releaseLines: string[] = [];
    const debug = await sdkFor(player, { logger: { build: 'debug', sink: (line) => debugLines.push(line) } });
    const release = await sdkFor(player, { logger: { build: 'release', sink: (line) => releaseLines.push(line) } });

    const secrets: string[] = [];
    for (const client of [debug, release]) {
      const verifier = client.createAuthorizationCodeVerifier();
      const request = args();
      request.setCodeChallenge(verifier.challenge());
      const { code } = await client.authorize(request);
      const { token } = await client.getToken(DEMO_APP_ID, code!, verifier.verifier(), null);
      expect((await client.updateToken('Bearer', token!.accessToken)).successful).toBe(true);
      const refreshed = await client.refreshToken(DEMO_APP_ID, token!.refreshToken);
      // A token the server refuses is logged as a failure, without the token.
      expect((await client.updateToken('Bearer', `${token!.accessToken}-stale`)).successful).toBe(false);
      // Failures that quote the request: a reused code.
      expect((await client.getToken(DEMO_APP_ID, code!, verifier.verifier(), null)).result.successful).toBe(false);
      secrets.push(code!, verifier.verifier(), token!.accessToken, token!.refreshToken, refreshed.token!.accessToken, refreshed.token!.refreshToken);
      client.logger.info('the game logs its own token', { note: `Bearer ${token!.accessToken}` });
      client.logger.verbose(`token=${token!.accessToken}`);
    }

    expect(debugLines[0]).toContain(DEBUG_BUILD_WARNING);
    for (const level of ['[warning]', '[info]', '[verbose]']) expect(debugLines.some((line) => line.includes(level)), level).toBe(true);
    expect(releaseLines.some((line) => line.includes('[info]') || line.includes('[verbose]'))).toBe(false);
    expect(releaseLines.some((line) => line.includes('[warning]'))).toBe(true);
    const all = [...debugLines, ...releaseLines].join('\n');
    for (const secret of secrets) expect(all.includes(secret), 'a secret in the log').toBe(false);
    expect(all).toContain('[redacted]');
  });
});
