import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import type { PlatformUser, TokenResponse, WebhookEnvelope } from '../src/wire/index.js';
import { GatewayClose } from '../src/wire/index.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { authorizeCode, bearer, obtainTokens, postForm, startWebhookReceiver } from './support/oauth.js';
import { startTestIssuer } from './support/oidc-issuer.js';

const APP = SEED.appId;
const AUDIENCE = 'my-game-client';

interface IdentityView {
  readonly external_id: string;
  readonly state: string;
  readonly user: { readonly id: string } | null;
}

function exchange(platform: PlatformServer, type: string, token: string, clientId: string = APP, secret?: string) {
  return api<TokenResponse & { code?: number; message?: string }>(platform, 'POST', '/api/v10/partner-sdk/token', {
    body: { client_id: clientId, ...(secret !== undefined ? { client_secret: secret } : {}), external_auth_type: type, external_auth_token: token },
  });
}

async function me(platform: PlatformServer, accessToken: string): Promise<PlatformUser & { provisional?: boolean }> {
  const response = await bearer<PlatformUser & { provisional?: boolean }>(platform, '/api/v10/users/@me', accessToken);
  expect(response.status).toBe(200);
  return response.body;
}

async function withOidc(platform: PlatformServer, appId: string = APP): Promise<Awaited<ReturnType<typeof startTestIssuer>>> {
  const issuer = await startTestIssuer(AUDIENCE);
  const patched = await api(platform, 'PATCH', `/_emulator/apps/${appId}`, { admin: true, body: { external_auth: [{ type: 'OIDC', issuer: issuer.issuer, audience: AUDIENCE }, { type: 'STEAM_SESSION_TICKET' }] } });
  expect(patched.status).toBe(200);
  return issuer;
}

async function mint(platform: PlatformServer, externalUserId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const minted = await api<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { admin: true, body: { type: 'STEAM_SESSION_TICKET', external_user_id: externalUserId, ...extra } });
  expect(minted.status).toBe(201);
  return minted.body.token;
}

/** Alice links: authorize, then the code redeemed with the provisional identity. */
async function link(platform: PlatformServer, user: 'alice' | 'bob', type: string, externalToken: string) {
  const code = await authorizeCode(platform, platform.loginToken(user), { client_id: APP, scope: 'identify sdk.social_layer' });
  return postForm<TokenResponse & { code?: number }>(platform, '/api/v10/oauth2/token', { grant_type: 'authorization_code', code, client_id: APP, external_auth_type: type, external_auth_token: externalToken });
}

describe('provisional accounts: the external credentials exchange', () => {
  it('an OIDC ID token from a locally served issuer makes one provisional account per subject, named by preferred_username', async () => {
    const platform = await startTestPlatform();
    const issuer = await withOidc(platform);
    const first = await exchange(platform, 'OIDC', await issuer.idToken('player-1', { preferredUsername: 'Captain' }));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, id_token: expect.any(String) });
    expect(first.body.scope.split(' ')).toEqual(expect.arrayContaining(['lobbies.write', 'dm_channels.messages.write', 'openid']));
    // The seeded app is a public client: no refresh token.
    expect(first.body.refresh_token).toBeUndefined();
    const account = await me(platform, first.body.access_token);
    expect(account).toMatchObject({ global_name: 'Captain', provisional: true });
    const profiles = await bearer(platform, '/api/v10/users/@me/application-profiles', first.body.access_token);
    expect(profiles.body).toEqual([{ provider_type: 'OIDC', provider_issued_user_id: 'player-1', provider_id: issuer.issuer, username: 'Captain', avatar_hash: '', metadata: '' }]);
    const again = await exchange(platform, 'OIDC', await issuer.idToken('player-1'));
    expect((await me(platform, again.body.access_token)).id).toBe(account.id);
    expect((await me(platform, (await exchange(platform, 'OIDC', await issuer.idToken('player-2'))).body.access_token)).id).not.toBe(account.id);
  });

  it("refuses with the docs' codes: expired, too old, wrong issuer, wrong audience, a foreign key, no discovery, a type not configured", async () => {
    const platform = await startTestPlatform();
    const issuer = await withOidc(platform);
    const code = async (token: string, type = 'OIDC') => (await exchange(platform, type, token)).body.code;
    expect(await code(await issuer.idToken('p', { expiresIn: -10 }))).toBe(530001);
    expect(await code(await issuer.idToken('p', { issuedAt: -8 * 24 * 3600, expiresIn: 600 }))).toBe(530004);
    expect(await code(await issuer.idToken('p', { issuer: 'https://elsewhere.example' }))).toBe(530002);
    expect(await code(await issuer.idToken('p', { audience: 'another-game' }))).toBe(530003);
    expect(await code(await issuer.idToken('p', { foreignKey: true }))).toBe(530020);
    expect(await code('not-a-jwt')).toBe(530020);
    // The app now has OIDC and Steam only.
    expect(await code('anything', 'EPIC_ONLINE_SERVICES_ID_TOKEN')).toBe(530000);
    const bare = await api<{ id: string }>(platform, 'POST', '/_emulator/apps', { admin: true, body: { name: 'Bare Game' } });
    await api(platform, 'PATCH', `/_emulator/apps/${bare.body.id}`, { admin: true, body: { public_client: true } });
    expect((await exchange(platform, 'OIDC', await issuer.idToken('p'), bare.body.id)).body.code).toBe(530000);
    // An issuer whose discovery document is missing.
    await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { external_auth: [{ type: 'OIDC', issuer: `${issuer.issuer}/nowhere`, audience: AUDIENCE }] } });
    expect(await code(await issuer.idToken('p', { issuer: `${issuer.issuer}/nowhere` }))).toBe(530008);
    // The configuration itself is checked: not https, an IP address, a query.
    for (const bad of ['http://games.example', 'https://10.0.0.1', 'https://games.example/?x=1']) {
      expect((await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { external_auth: [{ type: 'OIDC', issuer: bad, audience: AUDIENCE }] } })).status).toBe(400);
    }
  });

  it("the test provider's tokens: valid, expired (530001), changed or of another type (530020); a confidential client's OIDC token comes with a refresh token that still works for an hour", async () => {
    const platform = await startTestPlatform();
    const steam = await mint(platform, 'steam-76561198000000001', { display_name: 'Gabe' });
    const made = await exchange(platform, 'STEAM_SESSION_TICKET', steam);
    expect(made.status).toBe(200);
    expect(await me(platform, made.body.access_token)).toMatchObject({ global_name: 'Gabe', provisional: true });
    expect((await exchange(platform, 'STEAM_SESSION_TICKET', await mint(platform, 'x', { expires_in: -1 }))).body.code).toBe(530001);
    expect((await exchange(platform, 'STEAM_SESSION_TICKET', `${steam.slice(0, -2)}xx`)).body.code).toBe(530020);
    expect((await exchange(platform, 'UNITY_SERVICES_ID_TOKEN', steam)).body.code).toBe(530020);
    expect((await exchange(platform, 'NOT_A_TYPE', steam)).body.code).toBe(50035);

    const backend = await api<{ id: string; client_secret: string }>(platform, 'POST', '/_emulator/apps', { admin: true, body: { name: 'Server Game' } });
    const issuer = await withOidc(platform, backend.body.id);
    expect((await exchange(platform, 'OIDC', await issuer.idToken('s'), backend.body.id, 'wrong')).body.code).toBe(530007);
    const confidential = await exchange(platform, 'OIDC', await issuer.idToken('s'), backend.body.id, backend.body.client_secret);
    expect(confidential.body.refresh_token).toEqual(expect.any(String));
    const refreshed = await postForm<TokenResponse>(platform, '/api/v10/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: confidential.body.refresh_token,
      client_id: backend.body.id,
      client_secret: backend.body.client_secret,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.expires_in).toBe(3600);
  });

  it('the partner-sdk endpoints are rate limited per address: 429 with retry_after', async () => {
    const platform = await startTestPlatform({ limits: { http: { partnerSdk: { count: 2, windowMs: 60_000 } } } });
    const steam = await mint(platform, 'steam-busy');
    expect((await exchange(platform, 'STEAM_SESSION_TICKET', steam)).status).toBe(200);
    expect((await exchange(platform, 'STEAM_SESSION_TICKET', steam)).status).toBe(200);
    const limited = await api<{ retry_after: number }>(platform, 'POST', '/api/v10/partner-sdk/token', { body: { client_id: APP, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: steam } });
    expect(limited.status).toBe(429);
    expect(limited.body.retry_after).toBeGreaterThan(0);
  });

  it("the bot token endpoint: the game's own account id makes the account; its token works as DISCORD_BOT_ISSUED_ACCESS_TOKEN", async () => {
    const platform = await startTestPlatform();
    const bot = `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
    const made = await api<TokenResponse>(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: bot, body: { external_user_id: 'acct-42', preferred_global_name: 'Ranger' } });
    expect(made.status).toBe(200);
    const account = await me(platform, made.body.access_token);
    expect(account.global_name).toBe('Ranger');
    const traded = await exchange(platform, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', made.body.access_token);
    expect((await me(platform, traded.body.access_token)).id).toBe(account.id);
    expect((await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { body: { external_user_id: 'acct-42' } })).status).toBe(401);
  });
});

describe('merging, unmerging and the ban transition', () => {
  it('linking merges the provisional account (friends, DMs, lobby) into the full one; unmerging makes a fresh provisional account', async () => {
    const platform = await startTestPlatform();
    const receiver = await startWebhookReceiver();
    const issuer = await withOidc(platform);
    const idToken = await issuer.idToken('merge-me', { preferredUsername: 'Scout' });
    const provisional = (await exchange(platform, 'OIDC', idToken)).body.access_token;
    const provisionalUser = await me(platform, provisional);
    const bobToken = (await obtainTokens(platform, platform.loginToken('bob'), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token;
    await api(platform, 'POST', '/_emulator/friends', { admin: true, body: { a: provisionalUser.id, b: SEED.users.bob } });
    const dm = await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token: `Bearer ${provisional}`, body: { recipient_id: SEED.users.bob } });
    expect(dm.status).toBe(200);
    await api(platform, 'POST', `/api/v10/channels/${dm.body.id}/messages`, { token: `Bearer ${provisional}`, body: { content: 'hi from scout' } });
    const lobby = await api<{ id: string }>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${provisional}`, body: { secret: 'merge-lobby' } });

    const merged = await link(platform, 'alice', 'OIDC', idToken);
    expect(merged.status).toBe(200);
    expect(await me(platform, merged.body.access_token)).toMatchObject({ id: SEED.users.alice });
    expect((await bearer(platform, '/api/v10/users/@me', provisional)).status).toBe(401);
    const views = (await api<IdentityView[]>(platform, 'GET', '/_emulator/provisional-accounts', { admin: true })).body;
    expect(views).toEqual([expect.objectContaining({ external_id: 'merge-me', state: 'linked', user: expect.objectContaining({ id: SEED.users.alice }) })]);
    const bobsDms = await api<{ id: string; recipients: { id: string }[] }[]>(platform, 'GET', '/api/v10/users/@me/channels', { token: `Bearer ${bobToken}` });
    const withAlice = bobsDms.body.find((channel) => channel.recipients.some((user) => user.id === SEED.users.alice));
    const history = await api<{ content: string; author: { id: string } }[]>(platform, 'GET', `/api/v10/channels/${withAlice?.id ?? ''}/messages`, { token: `Bearer ${bobToken}` });
    expect(history.body).toContainEqual(expect.objectContaining({ content: 'hi from scout', author: expect.objectContaining({ id: SEED.users.alice }) }));
    const inLobby = await api<{ members: { id: string }[] }>(platform, 'GET', `/api/v10/lobbies/${lobby.body.id}`, { token: `Bearer ${merged.body.access_token}` });
    expect(inLobby.body.members.map((member) => member.id)).toEqual([SEED.users.alice]);
    expect((await exchange(platform, 'OIDC', idToken)).body.code).toBe(530010);

    await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: receiver.url } });
    await receiver.waitFor(1);
    const unmerged = await api(platform, 'POST', '/api/v10/partner-sdk/provisional-accounts/unmerge', { body: { client_id: APP, external_auth_type: 'OIDC', external_auth_token: idToken } });
    expect(unmerged.status).toBe(204);
    expect((await bearer(platform, '/api/v10/users/@me', merged.body.access_token)).status).toBe(401);
    const deauthorized = JSON.parse((await receiver.waitFor(2))[1]?.body ?? '{}') as WebhookEnvelope;
    expect(deauthorized.event).toMatchObject({ type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: SEED.users.alice } } });
    const fresh = await me(platform, (await exchange(platform, 'OIDC', idToken)).body.access_token);
    expect(fresh.provisional).toBe(true);
    expect(fresh.id).not.toBe(provisionalUser.id);
    // Bob uses the game: he is copied over as a friend.
    const relationships = await api<{ id: string; type: number }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: `Bearer ${bobToken}` });
    expect(relationships.body).toContainEqual(expect.objectContaining({ id: fresh.id, type: 1 }));
    expect((await api<{ code: number }>(platform, 'POST', '/api/v10/partner-sdk/provisional-accounts/unmerge', { body: { client_id: APP, external_auth_type: 'OIDC', external_auth_token: idToken } })).body.code).toBe(50229);
    expect((await api(platform, 'POST', '/api/v10/partner-sdk/provisional-accounts/unmerge', { body: { client_id: APP, external_auth_type: 'OIDC', external_auth_token: await issuer.idToken('stranger') } })).status).toBe(404);
  });

  it('a ban deletes the tokens, unlinks into a restricted provisional account, sends APPLICATION_DEAUTHORIZED and answers merges 530017 until it lifts', async () => {
    const platform = await startTestPlatform();
    const receiver = await startWebhookReceiver();
    await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: receiver.url } });
    await receiver.waitFor(1);
    const steam = await mint(platform, 'steam-ban');
    await exchange(platform, 'STEAM_SESSION_TICKET', steam);
    const linked = await link(platform, 'alice', 'STEAM_SESSION_TICKET', steam);
    expect(linked.status).toBe(200);
    const before = receiver.received.length;

    const banned = await api<{ restricted: { user_id: string }[] }>(platform, 'POST', `/_emulator/users/${SEED.users.alice}/ban`, { admin: true, body: { permanent: false } });
    expect(banned.status).toBe(200);
    expect(banned.body.restricted).toHaveLength(1);
    expect((await bearer(platform, '/api/v10/users/@me', linked.body.access_token)).status).toBe(401);
    const events = (await receiver.waitFor(before + 1)).slice(before).map((request) => JSON.parse(request.body) as WebhookEnvelope);
    expect(events[0]?.event).toMatchObject({ type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: SEED.users.alice } } });
    const restricted = await exchange(platform, 'STEAM_SESSION_TICKET', steam);
    expect((await me(platform, restricted.body.access_token)).id).toBe(banned.body.restricted[0]?.user_id);
    expect((await api<IdentityView[]>(platform, 'GET', '/_emulator/provisional-accounts', { admin: true })).body[0]?.state).toBe('restricted');
    // While banned, alice gets no token at all: authorize and the dev login are refused, her desktop session cannot identify.
    await expect(link(platform, 'alice', 'STEAM_SESSION_TICKET', steam)).rejects.toThrow(/403.*banned/);
    expect(await api(platform, 'POST', '/api/v10/auth/login', { body: { login: 'alice' } })).toMatchObject({ status: 403, body: { message: 'This account is banned' } });
    const refused = await GatewayClient.connect(platform.gatewayUrl);
    refused.send(2, { token: platform.loginToken('alice'), properties: { os: 'linux', browser: 'test', device: 'test' } });
    expect((await refused.closed).code).toBe(GatewayClose.AuthenticationFailed);
    // The restricted account carrying her identity cannot be merged by anyone until the ban lifts.
    expect((await link(platform, 'bob', 'STEAM_SESSION_TICKET', steam)).body.code).toBe(530017);

    expect((await api(platform, 'DELETE', `/_emulator/users/${SEED.users.alice}/ban`, { admin: true })).status).toBe(204);
    const relinked = await link(platform, 'alice', 'STEAM_SESSION_TICKET', steam);
    expect(relinked.status).toBe(200);
    expect(await me(platform, relinked.body.access_token)).toMatchObject({ id: SEED.users.alice });
  });
});

describe('publisher-level linking: child tokens', () => {
  it("trades a publisher's token for a game's: same user, the parent's scopes and end, no refresh token; revoking the parent ends it", async () => {
    const platform = await startTestPlatform();
    const publisher = await api<{ id: string }>(platform, 'POST', '/_emulator/apps', { admin: true, body: { name: 'Publisher' } });
    const game = await api<{ id: string }>(platform, 'POST', '/_emulator/apps', { admin: true, body: { name: 'Child Game' } });
    await api(platform, 'PATCH', `/_emulator/apps/${publisher.body.id}`, { admin: true, body: { public_client: true } });
    expect((await api(platform, 'PATCH', `/_emulator/apps/${game.body.id}`, { admin: true, body: { public_client: true, parent_application_id: publisher.body.id } })).status).toBe(200);
    const parent = await obtainTokens(platform, platform.loginToken('alice'), { client_id: publisher.body.id, scope: 'identify sdk.social_layer' });
    const child = await api<TokenResponse>(platform, 'POST', '/api/v10/partner-sdk/child-token', { body: { parent_access_token: parent.access_token, child_application_id: game.body.id } });
    expect(child.status).toBe(200);
    expect(child.body.refresh_token).toBeUndefined();
    expect(child.body.expires_in).toBeLessThanOrEqual(parent.expires_in);
    const who = await bearer<{ application: { id: string }; user: { id: string } }>(platform, '/api/v10/oauth2/@me', child.body.access_token);
    expect(who.body).toMatchObject({ application: { id: game.body.id }, user: { id: SEED.users.alice } });
    // Not a child of this publisher; a child app cannot authorize.
    expect((await api<{ code: number }>(platform, 'POST', '/api/v10/partner-sdk/child-token', { body: { parent_access_token: parent.access_token, child_application_id: APP } })).body.code).toBe(50035);
    await expect(authorizeCode(platform, platform.loginToken('alice'), { client_id: game.body.id, scope: 'identify' })).rejects.toThrow(/invalid_client/);
    const childBot = `Bot ${platform.admin.apps().find((app) => app.id === game.body.id)?.bot_token ?? ''}`;
    expect((await api<{ code: number }>(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: childBot, body: { external_user_id: 'x' } })).body.code).toBe(530000);
    // A publisher with games cannot itself become a game.
    expect((await api(platform, 'PATCH', `/_emulator/apps/${publisher.body.id}`, { admin: true, body: { parent_application_id: APP } })).status).toBe(400);
    // Only the child token connects to the gateway; the publisher's is refused (4004).
    const { client: session } = await GatewayClient.ready(platform.gatewayUrl, `Bearer ${child.body.access_token}`);
    const refused = await GatewayClient.connect(platform.gatewayUrl);
    refused.send(2, { token: `Bearer ${parent.access_token}`, properties: { os: 'linux', browser: 'test', device: 'test' } });
    expect((await refused.closed).code).toBe(GatewayClose.AuthenticationFailed);
    await postForm(platform, '/api/v10/oauth2/token/revoke', { token: parent.access_token, client_id: publisher.body.id });
    expect((await bearer(platform, '/api/v10/users/@me', child.body.access_token)).status).toBe(401);
    expect((await session.closed).code).toBe(GatewayClose.AuthenticationFailed);
  });
});
