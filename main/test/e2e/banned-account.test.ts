/**
 * Issue 25 §1.6 on the host's side: a ban of the player's account, seen by a running host with
 * the real emulator and by a game using the SDK through it. The game is told once that its
 * token ended; the host says it is banned (control API) and refuses to relay the game's
 * presence instead of answering ok; once the ban is lifted it signs in again by itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs, Client, type ConnectionStatus, type TokenInvalidated } from '../../../rpc/client/index.js';
import { SEED } from '../../../platform/src/index.js';
import { BANNED_AUTHORIZE_DESCRIPTION, bannedAccountMessage } from '../../src/host/session/banned-account-gate.js';
import type { Host } from '../../src/host/compose/host.js';
import { controlCall, DEMO_APP_ID, eventually, startTestHost, World, type Player } from './support/world.js';

let world: World;
const clients: Client[] = [];
const hosts: Host[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  for (const host of hosts.splice(0)) await host.close();
  await world.close();
});

async function admin(method: string, pathname: string, body?: unknown): Promise<number> {
  const response = await fetch(`${world.platform.url}${pathname}`, {
    method,
    headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.text();
  return response.status;
}

/** An SDK game through the player's host, holding a token with the Social SDK's scope and its own platform session ready. */
async function linkedGame(player: Player): Promise<Client> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: player.runtimeDir }, logger: { sink: () => undefined } });
  clients.push(client);
  client.setApplicationId(DEMO_APP_ID);
  expect((await client.connect()).successful).toBe(true);
  const verifier = client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes('identify sdk.social_layer');
  args.setCodeChallenge(verifier.challenge());
  const { code } = await client.authorize(args);
  const token = await client.getToken(DEMO_APP_ID, code!, verifier.verifier(), null);
  expect(token.result.successful, token.result.error).toBe(true);
  expect((await client.updateToken('Bearer', token.token!.accessToken)).successful).toBe(true);
  await eventually(() => client.getPlatformStatus() === 'ready', "the game's platform session");
  return client;
}

describe('issue 25 §1.6: a ban, seen by the host and its games', () => {
  it("one token expiration callback per ban; the host says it is banned, refuses the game's presence and authorization saying why, and signs in again by itself after the unban", async () => {
    world = await World.start();
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    const game = await linkedGame(alice);
    const ended: TokenInvalidated[] = [];
    game.setTokenExpirationCallback((info) => ended.push(info));
    const statuses: [ConnectionStatus, number | null][] = [];
    game.setStatusChangedCallback((status, _error, code) => statuses.push([status, code]));
    expect((await game.updateRichPresence({ state: 'before the ban' })).successful).toBe(true);

    expect(await admin('POST', `/_emulator/users/${SEED.users.alice}/ban`, {})).toBe(200);
    // Both ways the token's end shows have arrived: the platform's 4004 and Companion's 4003 with the reconnect after it.
    await eventually(() => game.getPlatformStatus() === 'disconnected', 'the platform closing the game session');
    await eventually(() => alice.host.session.status.status === 'banned', 'the host saying it is banned');
    await eventually(() => statuses.some(([status, code]) => status === 'reconnecting' && code === 4003) && statuses.at(-1)?.[0] === 'ready', 'the game back on Companion after 4003');
    expect(ended).toHaveLength(1);

    expect((await alice.control('GET', '/v1/status')).body).toMatchObject({ account: { user: { username: 'alice' } }, gateway: { status: 'banned' } });
    const refused = await game.updateRichPresence({ state: 'while banned' });
    expect(refused).toMatchObject({ successful: false, errorCode: 4010, error: bannedAccountMessage('SET_ACTIVITY') });
    // Authorizing again says why it cannot be done now (not only that Companion is not signed in).
    const args = new AuthorizationArgs();
    args.setScopes('identify sdk.social_layer');
    args.setCodeChallenge(game.createAuthorizationCodeVerifier().challenge());
    const authorized = await game.authorize(args);
    expect(authorized.result).toMatchObject({ successful: false, errorCode: 5000, error: `OAuth2 Error: server_error: ${BANNED_AUTHORIZE_DESCRIPTION}` });

    expect(await admin('DELETE', `/_emulator/users/${SEED.users.alice}/ban`)).toBe(204);
    await eventually(() => alice.host.session.status.status === 'ready', 'the host signed in again', 10_000);
    expect((await alice.control('GET', '/v1/status')).body).toMatchObject({ gateway: { status: 'ready' } });
    expect((await game.updateRichPresence({ state: 'after the ban' })).successful).toBe(true);
  });

  it('a host started while its account is banned says so, and signs in by itself once the ban is lifted', async () => {
    world = await World.start();
    expect(await admin('POST', `/_emulator/users/${SEED.users.bob}/ban`, {})).toBe(200);
    const host = await startTestHost({ runtimeDir: await world.tempDir('companion-rt-'), dataDir: await world.tempDir('companion-data-'), platformUrl: world.platform.url, credentials: { username: 'bob' } });
    hosts.push(host);
    expect(host.signedIn).toMatchObject({ kind: 'failed', message: expect.stringMatching(/banned/) });
    expect((await controlCall(host, 'GET', '/v1/status')).body).toMatchObject({ gateway: { status: 'banned' } });

    expect(await admin('DELETE', `/_emulator/users/${SEED.users.bob}/ban`)).toBe(204);
    await eventually(() => host.session.status.status === 'ready', 'the host signed in', 10_000);
    expect((await controlCall(host, 'GET', '/v1/status')).body).toMatchObject({ account: { user: { username: 'bob' } }, gateway: { status: 'ready' } });
  });

  it('a host signed in with a token (the desktop app\'s stored one) finds out it is banned too, and is back after the unban', async () => {
    world = await World.start();
    const host = await startTestHost({ runtimeDir: await world.tempDir('companion-rt-'), dataDir: await world.tempDir('companion-data-'), platformUrl: world.platform.url, credentials: { token: world.platform.loginToken('carol') } });
    hosts.push(host);
    await eventually(() => host.session.status.status === 'ready', "carol's gateway READY");

    expect(await admin('POST', `/_emulator/users/${SEED.users.carol}/ban`, {})).toBe(200);
    await eventually(() => host.session.status.status === 'banned', 'the host saying it is banned');
    expect(await admin('DELETE', `/_emulator/users/${SEED.users.carol}/ban`)).toBe(204);
    await eventually(() => host.session.status.status === 'ready', 'the host signed in again', 10_000);
    expect(host.session.user?.username).toBe('carol');
  });
});
