import { describe, expect, it, vi } from 'vitest';
import { type TokenInvalidated } from '../../client/index.js';
import { admin, rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { newClient } from './support/sdk-games.js';

/** A Steam ticket from the emulator's test provider. */
async function steamTicket(platform: TestPlatform, steamId: string): Promise<string> {
  return (await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: steamId, display_name: 'Scout' })).token;
}

describe('companion/client provisional accounts', () => {
  it('getProvisionalToken, then updateToken: the provisional account plays (a lobby) with an hour-long token and no refresh token', async () => {
    const platform = await startTestPlatform();
    const game = newClient(platform);
    const seen: unknown[] = [];
    const outcome = await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', await steamTicket(platform, 'steam-1'), (result, access, refresh, type, expiresIn) =>
      seen.push([result.successful, typeof access, refresh, type, expiresIn]),
    );
    expect(outcome.result.successful).toBe(true);
    expect(seen).toEqual([[true, 'string', '', 'Bearer', 3600]]);
    await game.updateToken('Bearer', outcome.token?.accessToken ?? '');
    await vi.waitFor(() => expect(game.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect((await game.createOrJoinLobby('provisional-squad')).result.successful).toBe(true);
    const { profiles } = await game.getUserApplicationProfiles();
    expect(profiles).toEqual([{ providerType: 'Steam', providerIssuedUserId: 'steam-1', providerId: '', username: 'Scout', avatarHash: '', metadata: '' }]);
    const refused = await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', 'forged');
    expect(refused.result).toMatchObject({ successful: false, status: 400, errorCode: 530020 });
  });

  it('linking merges (the provisional session ends), a ban reports expiry and 530017, unmerging gives a fresh provisional account', async () => {
    const platform = await startTestPlatform();
    const ticket = await steamTicket(platform, 'steam-2');
    const provisionalGame = newClient(platform);
    const provisional = await provisionalGame.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    const provisionalExpired: TokenInvalidated[] = [];
    provisionalGame.setTokenExpirationCallback((info) => provisionalExpired.push(info));
    await provisionalGame.updateToken('Bearer', provisional.token?.accessToken ?? '');
    await vi.waitFor(() => expect(provisionalGame.getPlatformStatus()).toBe('ready'), { timeout: 5000 });

    const linkedGame = newClient(platform);
    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    const merged = await linkedGame.getTokenFromProvisionalMerge(SEED_APP_ID, code, null, null, 'STEAM_SESSION_TICKET', ticket);
    expect(merged.result.successful).toBe(true);
    await vi.waitFor(() => expect(provisionalExpired).toHaveLength(1), { timeout: 5000 });
    expect(provisionalExpired[0]).toMatchObject({ code: 4004 });
    const linkedExpired: TokenInvalidated[] = [];
    linkedGame.setTokenExpirationCallback((info) => linkedExpired.push(info));
    await linkedGame.updateToken('Bearer', merged.token?.accessToken ?? '');
    await vi.waitFor(() => expect(linkedGame.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect((await linkedGame.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket)).result).toMatchObject({ successful: false, errorCode: 530010 });

    const aliceId = (await admin<{ id: string; username: string }[]>(platform, 'GET', '/_emulator/users')).find((user) => user.username === 'alice')?.id ?? '';
    await admin(platform, 'POST', `/_emulator/users/${aliceId}/ban`, {});
    await vi.waitFor(() => expect(linkedExpired).toHaveLength(1), { timeout: 5000 });
    // Banned, alice cannot authorize at all; the restricted account of her identity cannot be merged into bob's either.
    await expect(rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice')).rejects.toThrow(/banned/);
    const again = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'bob');
    const refused = await linkedGame.getTokenFromProvisionalMerge(SEED_APP_ID, again, null, null, 'STEAM_SESSION_TICKET', ticket);
    expect(refused.result).toMatchObject({ successful: false, status: 400, errorCode: 530017 });
    await admin(platform, 'DELETE', `/_emulator/users/${aliceId}/ban`);
    const relinkCode = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    expect((await linkedGame.getTokenFromProvisionalMerge(SEED_APP_ID, relinkCode, null, null, 'STEAM_SESSION_TICKET', ticket)).result.successful).toBe(true);

    const results: boolean[] = [];
    expect((await linkedGame.unmergeIntoProvisionalAccount(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket, (result) => results.push(result.successful))).successful).toBe(true);
    expect(results).toEqual([true]);
    const fresh = await linkedGame.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
    expect(fresh.result.successful).toBe(true);
    expect((await linkedGame.unmergeIntoProvisionalAccount(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket)).errorCode).toBe(50229);
  });

  it('a provisional token about to end is reported once through the token expiration callback; a fresh one and updateToken carry on', async () => {
    // Tokens of 61 s: the callback runs when a minute is left, at once.
    const platform = await startTestPlatform({ limits: { provisionalTokenTtlMs: 61_000 } });
    const game = newClient(platform);
    const expiring: TokenInvalidated[] = [];
    game.setTokenExpirationCallback((info) => expiring.push(info));
    const first = await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', await steamTicket(platform, 'steam-3'));
    expect(first.token?.expiresIn).toBe(61);
    await game.updateToken('Bearer', first.token?.accessToken ?? '');
    await vi.waitFor(() => expect(expiring).toHaveLength(1), { timeout: 5000 });
    expect(expiring[0]).toMatchObject({ reason: 'expiring', code: 0, message: expect.stringMatching(/^the token expires at \d{4}-/) });
    const second = await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', await steamTicket(platform, 'steam-3'));
    await game.updateToken('Bearer', second.token?.accessToken ?? '');
    await vi.waitFor(() => expect(expiring).toHaveLength(2), { timeout: 5000 });
    expect((await game.createOrJoinLobby('still-playing')).result.successful).toBe(true);
  });

  it("exchangeChildToken: a publisher's token for its game's, which connects; one for a stranger app is refused", async () => {
    const platform = await startTestPlatform();
    const publisher = await admin<{ id: string }>(platform, 'POST', '/_emulator/apps', { name: 'Publisher' });
    const child = await admin<{ id: string }>(platform, 'POST', '/_emulator/apps', { name: 'Child Game' });
    await admin(platform, 'PATCH', `/_emulator/apps/${publisher.id}`, { public_client: true });
    await admin(platform, 'PATCH', `/_emulator/apps/${child.id}`, { public_client: true, parent_application_id: publisher.id });
    const game = newClient(platform);
    const code = await rpcAuthorizationCode(platform, { client_id: publisher.id, scope: 'identify sdk.social_layer' }, 'alice');
    const parent = await game.getToken(publisher.id, code, null, null);
    const seen: unknown[] = [];
    const childToken = await game.exchangeChildToken(parent.token?.accessToken ?? '', child.id, (result, access, type, expiresIn) => seen.push([result.successful, typeof access, type, expiresIn > 0]));
    expect(seen).toEqual([[true, 'string', 'Bearer', true]]);
    await game.updateToken('Bearer', childToken.token?.accessToken ?? '');
    await vi.waitFor(() => expect(game.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect((await game.exchangeChildToken(parent.token?.accessToken ?? '', SEED_APP_ID)).result).toMatchObject({ successful: false, errorCode: 50035 });
  });
});
