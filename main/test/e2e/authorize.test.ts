/* eslint-disable @typescript-eslint/no-explicit-any -- replies and events are checked by the tests' own expectations */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the library ships no types; the rpc project's minimal declaration lives outside this project's root
/// <reference path="../../../rpc/test/compat/discord-rpc.d.ts" />
/**
 * Authorization end to end: real client libraries (npm discord-rpc AUTHORIZE + AUTHENTICATE,
 * @xhayper/discord-rpc login with scopes and a client secret) against a host and the
 * emulator's token endpoint, with the player's answers given through the consent broker.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import DiscordRPC from 'discord-rpc';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import { ACCESS_DENIED_MESSAGE, Opcode, TIMED_OUT_MESSAGE } from '../../../rpc/src/index.js';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { within } from '../../../rpc/test/compat/helpers.js';
import { verifyWebhook } from '../../../platform/src/index.js';
import type { ConsentRequestView } from '../../src/host/auth/consent-broker.js';
import { DEMO_APP_ID, eventually, World, type Player, type TestHostOptions } from './support/world.js';

let world: World;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await world.close();
});

/** Answers every consent prompt of this host as `answer` says, recording them. */
function answerPrompts(player: Player, answer: (request: ConsentRequestView) => 'approve' | 'deny' | 'dismiss' | 'ignore'): ConsentRequestView[] {
  const seen: ConsentRequestView[] = [];
  player.host.consent.on('request', (request) => {
    seen.push(request);
    const decision = answer(request);
    if (decision !== 'ignore') setImmediate(() => player.host.consent.decide(request.id, decision));
  });
  return seen;
}

async function alice(extra: Partial<TestHostOptions> = {}): Promise<Player> {
  world = await World.start();
  return world.player('alice', extra);
}

/** A raw game connection of `applicationId` to the player's host. */
async function rawGame(player: Player, applicationId = DEMO_APP_ID): Promise<RawClient> {
  const { client } = await RawClient.ready(player.host.ipcPath, applicationId);
  cleanups.push(() => client.close());
  return client;
}

async function tokenExchange(player: Player, form: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  void player;
  return { status: response.status, body: await response.json() };
}

describe('AUTHORIZE and AUTHENTICATE with npm discord-rpc', () => {
  it('approve: the game gets a code, redeems it at the emulator, AUTHENTICATE answers with the user and scopes', async () => {
    const player = await alice({ rpcWebSocket: true });
    const prompts = answerPrompts(player, () => 'approve');
    const previous = process.env['XDG_RUNTIME_DIR'];
    process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
    const client = new DiscordRPC.Client({ transport: 'ipc' });
    cleanups.push(() => client.destroy().catch(() => undefined));
    (client as any).fetch.endpoint = `${world.platform.url}/api`;
    const errors: unknown[] = [];
    client.on('error', (error: unknown) => errors.push(error));
    try {
      await within(client.login({ clientId: DEMO_APP_ID, scopes: ['identify', 'rpc'] }), 10_000, 'discord-rpc login with scopes');
    } finally {
      if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
      else process.env['XDG_RUNTIME_DIR'] = previous;
    }
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ applicationId: DEMO_APP_ID, applicationName: 'Companion Demo Game', expandedScopes: ['identify', 'rpc'] });
    expect((client as any).application).toMatchObject({ id: DEMO_APP_ID, name: 'Companion Demo Game' });
    expect((client as any).user).toMatchObject({ username: 'alice' });
    // npm discord-rpc probed 127.0.0.1:6463-6472 after AUTHORIZE and found the host's 404.
    expect(player.host.rpcWebSocketPort).not.toBeNull();
    expect(errors).toEqual([]);
    const connection = [...player.host.server.connections()].find((c) => c.authenticated);
    expect([...(connection?.scopes ?? [])].sort()).toEqual(['identify', 'rpc']);
  });
});

describe('AUTHORIZE outcomes', () => {
  it('deny answers 5000 access_denied at once', async () => {
    const player = await alice();
    answerPrompts(player, () => 'deny');
    const game = await rawGame(player);
    const reply = await game.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
    expect(reply).toMatchObject({ evt: 'ERROR', data: { code: 5000, message: ACCESS_DENIED_MESSAGE } });
  });

  it('a dismissed prompt, and a game that disconnects while asking, answer access_denied and leave nothing pending', async () => {
    const player = await alice();
    answerPrompts(player, () => 'dismiss');
    const game = await rawGame(player);
    expect(await game.request('AUTHORIZE', { scopes: ['identify'] })).toMatchObject({ data: { code: 5000, message: ACCESS_DENIED_MESSAGE } });

    player.host.consent.removeAllListeners('request');
    const settled = new Promise<unknown>((resolve) => player.host.consent.once('settled', (_request, outcome) => resolve(outcome)));
    const leaving = await rawGame(player);
    leaving.send(Opcode.Frame, { cmd: 'AUTHORIZE', nonce: 'n1', args: { scopes: ['identify'] } });
    await eventually(() => player.host.consent.pending().length === 1, 'the prompt');
    leaving.close();
    expect(await settled).toEqual({ kind: 'dismissed' });
    expect(player.host.consent.pending()).toEqual([]);
  });

  it('while the player decides, the game\'s other commands are answered (AUTHORIZE does not hold the connection)', async () => {
    const player = await alice();
    const game = await rawGame(player);
    game.send(Opcode.Frame, { cmd: 'AUTHORIZE', nonce: 'n-auth', args: { scopes: ['identify'] } });
    await eventually(() => player.host.consent.pending().length === 1, 'the prompt');
    const activity = await game.request('SET_ACTIVITY', { pid: 1, activity: { state: 'Waiting for the player' } });
    expect(activity).toMatchObject({ cmd: 'SET_ACTIVITY', data: { state: 'Waiting for the player' } });
    player.host.consent.decide(player.host.consent.pending()[0]!.id, 'approve');
    const reply = await game.next(5000);
    expect(reply.payload).toMatchObject({ cmd: 'AUTHORIZE', nonce: 'n-auth', data: { code: expect.any(String) } });
  });

  it('a client_id other than the connection\'s application is refused before any prompt', async () => {
    const player = await alice();
    const prompts = answerPrompts(player, () => 'approve');
    const game = await rawGame(player, '999999999999999999');
    const reply = await game.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
    expect(reply.data).toEqual({
      code: 5000,
      message: `OAuth2 Error: invalid_request: client_id ${DEMO_APP_ID} is not the application of this connection (999999999999999999)`,
    });
    expect(prompts).toEqual([]);
  });

  it('no answer within the time limit: access_denied "the authorization request timed out"', async () => {
    const player = await alice({ consentTimeoutMs: 300 });
    const game = await rawGame(player);
    game.send(Opcode.Frame, { cmd: 'AUTHORIZE', nonce: 'n-timeout', args: { scopes: ['identify'] } });
    const reply = await game.next(3000);
    expect(reply.payload).toMatchObject({ nonce: 'n-timeout', data: { code: 5000, message: TIMED_OUT_MESSAGE } });
  });

  it('invalid requests answer 5000 before any prompt: unknown scope, a scope needing approval, redirect_uri over IPC', async () => {
    const player = await alice();
    const prompts = answerPrompts(player, () => 'approve');
    const game = await rawGame(player);
    const unknown = await game.request('AUTHORIZE', { scopes: ['identify', 'telepathy'] });
    expect(unknown.data.code).toBe(5000);
    expect(unknown.data.message).toMatch(/^OAuth2 Error: invalid_scope: .*telepathy/);
    const premium = await game.request('AUTHORIZE', { scopes: ['identify.premium'] });
    expect(premium.data.message).toMatch(/^OAuth2 Error: invalid_scope: .*identify\.premium/);
    const redirect = await game.request('AUTHORIZE', { scopes: ['identify'], redirect_uri: 'http://127.0.0.1/callback' });
    expect(redirect.data).toEqual({ code: 5000, message: 'Redirect URI cannot be used in the RPC OAuth2 Authorization flow' });
    expect(prompts).toEqual([]);
  });

  it('a remembered grant is approved without a prompt; new scopes prompt again', async () => {
    const player = await alice();
    const prompts = answerPrompts(player, () => 'approve');
    const announced: unknown[] = [];
    player.host.consent.on('auto-approved', (request) => announced.push(request.expandedScopes));
    const game = await rawGame(player);
    expect((await game.request('AUTHORIZE', { scopes: ['identify'], prompt: 'consent' })).data.code).toEqual(expect.any(String));
    // Remembered once the platform confirmed the grant list for alice (what GET /v1/grants shows).
    for (let i = 0; i < 500; i += 1) {
      if ((await player.control('GET', '/v1/grants')).body.grants.some((g: any) => g.application.id === DEMO_APP_ID)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const again = await game.request('AUTHORIZE', { scopes: ['identify'], prompt: 'consent' });
    expect(again.data.code).toEqual(expect.any(String));
    expect(prompts).toHaveLength(1);
    expect(announced).toEqual([['identify']]);

    await game.request('AUTHORIZE', { scopes: ['identify', 'guilds'] });
    expect(prompts).toHaveLength(2);
    expect(prompts[1]!.expandedScopes).toEqual(['identify', 'guilds']);
  });
});

describe('AUTHORIZE_REQUEST', () => {
  it('a player action on the control API sends AUTHORIZE_REQUEST to that application\'s subscribed games only', async () => {
    const player = await alice();
    const game = await rawGame(player);
    expect((await game.request('SUBSCRIBE', {}, { evt: 'AUTHORIZE_REQUEST' })).data).toEqual({ evt: 'AUTHORIZE_REQUEST' });
    const other = await rawGame(player, '999999999999999999');
    await other.request('SUBSCRIBE', {}, { evt: 'AUTHORIZE_REQUEST' });

    const sent = await player.control('POST', `/v1/games/${DEMO_APP_ID}/authorize-request`);
    expect(sent.body).toEqual({ delivered: 1 });
    expect((await game.next()).payload).toEqual({ cmd: 'DISPATCH', data: null, evt: 'AUTHORIZE_REQUEST', nonce: null });
    expect(await other.framesBeforeBarrier()).toEqual([]);
  });
});

describe('codes and tokens', () => {
  async function approvedCode(player: Player, args: Record<string, unknown>): Promise<string> {
    const game = await rawGame(player);
    const reply = await game.request('AUTHORIZE', args);
    expect(reply.evt, JSON.stringify(reply)).toBeNull();
    return reply.data.code;
  }

  it('PKCE: the right verifier redeems the code, a wrong one is invalid_grant, and a code works once', async () => {
    const player = await alice();
    answerPrompts(player, () => 'approve');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');

    const wrongCode = await approvedCode(player, { scopes: ['identify'], code_challenge: challenge, code_challenge_method: 'S256' });
    const wrong = await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: wrongCode, code_verifier: `${verifier}x` });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const code = await approvedCode(player, { scopes: ['identify'], code_challenge: challenge, code_challenge_method: 'S256' });
    // npm discord-rpc sends the literal string "undefined" as redirect_uri: RPC codes ignore it.
    const good = await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code, code_verifier: verifier, redirect_uri: 'undefined' });
    expect(good).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 604800, scope: 'identify' } });
    const reused = await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code, code_verifier: verifier });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revoking the grant closes the authenticated game with 4003, and a refresh then answers invalid_grant', async () => {
    const player = await alice();
    answerPrompts(player, () => 'approve');
    const game = await rawGame(player);
    const code = (await game.request('AUTHORIZE', { scopes: ['identify', 'rpc'] })).data.code;
    const tokens = (await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code })).body;
    const authenticated = await game.request('AUTHENTICATE', { access_token: tokens.access_token });
    expect(authenticated.data).toMatchObject({ user: { username: 'alice' }, scopes: expect.arrayContaining(['identify', 'rpc']), application: { id: DEMO_APP_ID } });
    await eventually(() => player.host.grants.list().length === 1, 'the grant in the cache');

    expect((await player.control('DELETE', `/v1/grants/${DEMO_APP_ID}`)).status).toBe(200);
    const close = await game.next(5000);
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 4003 } });
    const refresh = await tokenExchange(player, { grant_type: 'refresh_token', client_id: DEMO_APP_ID, refresh_token: tokens.refresh_token });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await eventually(() => player.host.grants.list().length === 0, 'the grant gone from the cache');
  });

  it('AUTHENTICATE with another user\'s token is 4009 "Token does not match current user"; a bad one 4009 too', async () => {
    world = await World.start();
    const bob = await world.player('bob');
    const alicePlayer = await world.player('alice');
    answerPrompts(bob, () => 'approve');
    const bobGame = await rawGame(bob);
    const code = (await bobGame.request('AUTHORIZE', { scopes: ['identify'] })).data.code;
    const tokens = (await tokenExchange(bob, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code })).body;
    const aliceGame = await rawGame(alicePlayer);
    expect((await aliceGame.request('AUTHENTICATE', { access_token: tokens.access_token })).data).toEqual({ code: 4009, message: 'Token does not match current user' });
    expect((await aliceGame.request('AUTHENTICATE', { access_token: 'not-a-token' })).data).toMatchObject({ code: 4009 });
  });
});

describe('grants belong to one user, and revocations are never missed', () => {
  it('AUTHENTICATE works for a token without identify (the host asks the platform whose token it is)', async () => {
    const player = await alice();
    answerPrompts(player, () => 'approve');
    const game = await rawGame(player);
    const code = (await game.request('AUTHORIZE', { scopes: ['rpc'] })).data.code;
    const tokens = (await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code })).body;
    const reply = await game.request('AUTHENTICATE', { access_token: tokens.access_token });
    expect(reply.data).toMatchObject({ user: { username: 'alice' }, scopes: ['rpc'], application: { id: DEMO_APP_ID } });
  });

  it("after switching to bob, alice's remembered grant does not approve bob's request", async () => {
    const player = await alice();
    const prompts = answerPrompts(player, () => 'approve');
    const game = await rawGame(player);
    await game.request('AUTHORIZE', { scopes: ['identify'] });
    await eventually(() => player.host.grants.list().length > 0, "alice's grant");
    expect((await player.control('POST', '/v1/account/login', { username: 'bob' })).status).toBe(200);
    expect((await player.control('GET', '/v1/grants')).body).toEqual({ grants: [] });
    const bobGame = await rawGame(player);
    expect((await bobGame.request('AUTHORIZE', { scopes: ['identify'] })).data.code).toEqual(expect.any(String));
    expect(prompts).toHaveLength(2);
  });

  it('a grant revoked while the host was away from the gateway closes the game with 4003 once it is back', async () => {
    const player = await alice();
    answerPrompts(player, () => 'approve');
    const game = await rawGame(player);
    const code = (await game.request('AUTHORIZE', { scopes: ['identify', 'rpc'] })).data.code;
    const tokens = (await tokenExchange(player, { grant_type: 'authorization_code', client_id: DEMO_APP_ID, code })).body;
    await game.request('AUTHENTICATE', { access_token: tokens.access_token });
    await world.restartPlatform();
    // Revoked at once, before the host's gateway is back (its reconnect waits at least 50 ms).
    const revoke = await fetch(`${world.platform.url}/api/v10/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: DEMO_APP_ID }),
    });
    expect(revoke.status).toBe(200);
    const close = await game.next(10_000);
    expect(close).toMatchObject({ opcode: Opcode.Close, payload: { code: 4003 } });
  });
});

describe('with @xhayper/discord-rpc', () => {
  it('login with scopes and a client secret: AUTHORIZE, the token endpoint, AUTHENTICATE; then GUILD_STATUS on subscribe and on change', async () => {
    const player = await alice();
    answerPrompts(player, () => 'approve');
    const created = world.platform.admin.createApp({ name: 'Secret Game' });
    expect(created.public_client).toBe(false);
    // The rpc scope needs the platform's approval, as on the real service.
    const app = world.platform.admin.patchApp(created.id, { approved_scopes: ['rpc'] });

    const previous = process.env['XDG_RUNTIME_DIR'];
    process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
    const client = new XhayperClient({ clientId: app.id, clientSecret: app.client_secret });
    cleanups.push(() => within(client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined));
    (client as any).rest.options.api = `${world.platform.url}/api`;
    try {
      await within(client.login({ scopes: ['identify', 'rpc', 'guilds'] }), 10_000, 'xhayper login with scopes');
    } finally {
      if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
      else process.env['XDG_RUNTIME_DIR'] = previous;
    }
    expect(client.user?.username).toBe('alice');

    const guilds = await client.request('GET_GUILDS', {});
    const lounge = guilds.data.guilds.find((g: any) => g.name === 'Companion Lounge');
    expect(lounge).toMatchObject({ id: expect.any(String), name: 'Companion Lounge' });

    const statuses: any[] = [];
    client.on('GUILD_STATUS', (data: any) => statuses.push(data));
    await client.subscribe('GUILD_STATUS', { guild_id: lounge.id });
    await eventually(() => statuses.length === 1, 'GUILD_STATUS on subscribe');
    expect(statuses[0]).toMatchObject({ guild: { id: lounge.id, name: 'Companion Lounge' }, online: 0 });
    world.platform.admin.patchGuild(lounge.id, { name: 'Companion Lounge II' });
    await eventually(() => statuses.length === 2, 'GUILD_STATUS on change');
    expect(statuses[1]).toMatchObject({ guild: { id: lounge.id, name: 'Companion Lounge II' } });
  });
});

describe('what the libraries see', () => {
  async function xhayper(player: Player, app: { id: string; client_secret: string }): Promise<XhayperClient> {
    const previous = process.env['XDG_RUNTIME_DIR'];
    process.env['XDG_RUNTIME_DIR'] = player.runtimeDir;
    const client = new XhayperClient({ clientId: app.id, clientSecret: app.client_secret });
    cleanups.push(() => within(client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined));
    (client as any).rest.options.api = `${world.platform.url}/api`;
    try {
      await within(client.connect(), 5000, 'xhayper connect');
    } finally {
      if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
      else process.env['XDG_RUNTIME_DIR'] = previous;
    }
    return client;
  }

  it('@xhayper/discord-rpc: a denied login rejects with code 5000 and access_denied; a revoked one is disconnected', async () => {
    const player = await alice();
    const created = world.platform.admin.createApp({ name: 'Secret Game' });
    const app = world.platform.admin.patchApp(created.id, { approved_scopes: ['rpc'] });
    let answer: 'deny' | 'approve' = 'deny';
    answerPrompts(player, () => answer);

    const denied = await xhayper(player, app);
    const error = await denied.login({ scopes: ['identify'] }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message?: string },
    );
    expect(error).toMatchObject({ code: 5000, message: expect.stringContaining('access_denied') });

    answer = 'approve';
    const client = await xhayper(player, app);
    await within(client.login({ scopes: ['identify', 'rpc'] }), 10_000, 'xhayper login');
    const disconnected = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
    expect((await player.control('DELETE', `/v1/grants/${app.id}`)).status).toBe(200);
    await within(disconnected, 5000, 'the disconnect after the revocation');
  });
});

describe('webhook events', () => {
  it('consent delivers APPLICATION_AUTHORIZED to the app\'s webhook URL, signed with its key', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;

    const player = await alice();
    answerPrompts(player, () => 'approve');
    const app = world.platform.admin.patchApp(DEMO_APP_ID, { webhook_events_url: url });
    await eventually(() => received.some((r) => JSON.parse(r.body).type === 0), 'the PING on configuration');

    const game = await rawGame(player);
    await game.request('AUTHORIZE', { scopes: ['identify'], integration_type: 1 });
    const event = await eventually(() => received.find((r) => JSON.parse(r.body).event?.type === 'APPLICATION_AUTHORIZED'), 'APPLICATION_AUTHORIZED');
    const payload = JSON.parse(event.body);
    expect(payload).toMatchObject({ version: 1, application_id: DEMO_APP_ID, type: 1, event: { data: { integration_type: 1, scopes: ['identify'], user: { username: 'alice' } } } });
    const signature = event.headers['x-signature-ed25519'] as string;
    const timestamp = event.headers['x-signature-timestamp'] as string;
    expect(verifyWebhook(app.public_key, event.body, signature, timestamp)).toBe(true);
    expect(verifyWebhook(app.public_key, event.body.replace('alice', 'mallory'), signature, timestamp)).toBe(false);
  });
});
