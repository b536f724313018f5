import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { MEMBER_PERMISSIONS, OWNER_PERMISSIONS } from '../src/users/user-guilds.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';
import { downgradeToStateFile } from './support/stored-state.js';
import { bearer, obtainTokens } from './support/oauth.js';

const APP = SEED.appId;
type Connection = { type: string; name: string };
const kinds = (body: unknown): string[] => (body as Connection[]).map((connection) => connection.type).sort();

describe('GET /users/@me/connections', () => {
  it('returns the connected accounts in the documented shape; legacy Riot-type ones until 10 July 2026, Battle-type ones until 22 September 2026, new ones never', async () => {
    const clock = new FakeClock(Date.UTC(2026, 6, 9, 23, 59));
    const platform = await startTestPlatform({ clock });
    const alice = platform.loginToken('alice');
    const before = await api(platform, 'GET', '/api/v10/users/@me/connections', { token: alice });
    expect(before.status).toBe(200);
    expect(kinds(before.body)).toEqual(['battlenet', 'github', 'riotgames', 'steam']);
    expect((before.body as Connection[]).find((c) => c.type === 'steam')).toEqual({
      id: '76561198000000001',
      name: 'alice_plays',
      type: 'steam',
      verified: true,
      friend_sync: false,
      show_activity: true,
      two_way_link: false,
      visibility: 1,
      revoked: false,
    });

    clock.time = Date.UTC(2026, 6, 10);
    expect(kinds((await api(platform, 'GET', '/api/users/@me/connections', { token: alice })).body)).toEqual(['battlenet', 'github', 'steam']);
    clock.time = Date.UTC(2026, 8, 21, 23, 59);
    expect(kinds((await api(platform, 'GET', '/api/users/@me/connections', { token: alice })).body)).toEqual(['battlenet', 'github', 'steam']);
    clock.time = Date.UTC(2026, 8, 22);
    expect(kinds((await api(platform, 'GET', '/api/users/@me/connections', { token: alice })).body)).toEqual(['github', 'steam']);
  });

  it('never returns a Battle-type or Riot-type connection made after the change, nor one made after the clock', async () => {
    const clock = new FakeClock(Date.UTC(2026, 7, 25));
    const platform = await startTestPlatform({ clock });
    const bob = platform.loginToken('bob');
    // bob's Riot Games account (8 July 2026) and Battle.net account (20 August 2026) are new ones.
    expect(kinds((await api(platform, 'GET', '/api/users/@me/connections', { token: bob })).body)).toEqual(['xbox']);
    clock.time = Date.UTC(2026, 6, 1);
    expect(kinds((await api(platform, 'GET', '/api/users/@me/connections', { token: bob })).body)).toEqual(['xbox']);
    expect((await api(platform, 'GET', '/api/users/@me/connections', { token: platform.loginToken('dave') })).body).toEqual([]);
  });

  it('a game reads them with the connections scope only; 401 without a token', async () => {
    const platform = await startTestPlatform({ clock: new FakeClock(Date.UTC(2026, 0, 1)) });
    const alice = platform.loginToken('alice');
    const withScope = await obtainTokens(platform, alice, { client_id: APP, scope: 'identify connections' });
    expect(kinds((await bearer(platform, '/api/v10/users/@me/connections', withScope.access_token)).body)).toEqual(['battlenet', 'github', 'riotgames', 'steam']);
    const without = await obtainTokens(platform, alice, { client_id: APP, scope: 'identify sdk.social_layer' });
    expect(await bearer(platform, '/api/v10/users/@me/connections', without.access_token)).toMatchObject({ status: 403, body: { code: 50026 } });
    expect(await api(platform, 'GET', '/api/v10/users/@me/connections')).toMatchObject({ status: 401, body: { code: 0 } });
  });
});

describe('GET /users/@me/guilds', () => {
  it('partial guilds with banner, owner and permissions; counts only when asked', async () => {
    const platform = await startTestPlatform();
    const owner = await api(platform, 'GET', '/api/v10/users/@me/guilds', { token: platform.loginToken('alice') });
    expect(owner.body).toEqual([
      { id: SEED.guildId, name: SEED.guildName, icon: null, banner: SEED.guildBanner, owner: true, permissions: OWNER_PERMISSIONS.toString(), features: [] },
    ]);
    const member = await api(platform, 'GET', '/api/v10/users/@me/guilds', { token: platform.loginToken('bob') });
    expect(member.body).toEqual([expect.objectContaining({ owner: false, permissions: MEMBER_PERMISSIONS.toString(), banner: SEED.guildBanner })]);
    // MANAGE_CHANNELS (1 << 4) is the owner's only.
    expect(BigInt((member.body as { permissions: string }[])[0]?.permissions ?? '0') & (1n << 4n)).toBe(0n);

    const bob = await GatewayClient.open(platform.gatewayUrl);
    await bob.identify(platform.loginToken('bob'));
    const counted = await api(platform, 'GET', '/api/v10/users/@me/guilds?with_counts=true', { token: platform.loginToken('alice') });
    expect(counted.body).toEqual([expect.objectContaining({ approximate_member_count: 4, approximate_presence_count: 1 })]);
    bob.close();
  });

  it('pages with before, after and limit; a bad query is 400 50035 naming the field', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    expect((await api(platform, 'GET', `/api/users/@me/guilds?after=${SEED.guildId}`, { token })).body).toEqual([]);
    expect((await api(platform, 'GET', `/api/users/@me/guilds?before=${SEED.guildId}`, { token })).body).toEqual([]);
    expect((await api<unknown[]>(platform, 'GET', `/api/users/@me/guilds?before=${BigInt(SEED.guildId) + 1n}&limit=1`, { token })).body).toHaveLength(1);
    for (const bad of ['limit=0', 'limit=201', 'limit=x', 'after=nope', 'with_counts=maybe']) {
      const field = bad.split('=')[0] as string;
      const answer = await api(platform, 'GET', `/api/users/@me/guilds?${bad}`, { token });
      expect(answer, bad).toMatchObject({ status: 400, body: { code: 50035, errors: { [field]: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_BAD' })] } } } });
    }
  });

  it('a game with the guilds scope sees the banner too', async () => {
    const platform = await startTestPlatform();
    const tokens = await obtainTokens(platform, platform.loginToken('carol'), { client_id: APP, scope: 'guilds' });
    expect((await bearer(platform, '/api/v10/users/@me/guilds', tokens.access_token)).body).toEqual([expect.objectContaining({ id: SEED.guildId, banner: SEED.guildBanner, owner: false })]);
  });

  it('a state file written before banners and connections loads: no banner, no connections', async () => {
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir });
    await first.flush();
    await stopTestPlatform(first);
    await downgradeToStateFile(dataDir);
    const file = path.join(dataDir, 'state.json');
    const state = JSON.parse(await readFile(file, 'utf8')) as { connections?: unknown; guilds: { banner?: unknown }[] };
    delete state.connections;
    for (const guild of state.guilds) delete guild.banner;
    await writeFile(file, JSON.stringify(state));
    const platform = await startTestPlatform({ dataDir });
    const token = platform.loginToken('alice');
    expect((await api(platform, 'GET', '/api/users/@me/guilds', { token })).body).toEqual([expect.objectContaining({ banner: null })]);
    expect((await api(platform, 'GET', `/api/guilds/${SEED.guildId}`, { token })).body).toMatchObject({ banner: null });
    expect((await api(platform, 'GET', '/api/users/@me/connections', { token })).body).toEqual([]);
  });
});

describe('GET /guilds/{id}/channels with a game token', () => {
  it("the Social SDK's umbrella scope reads a member's guild channels; another guild's are 50001", async () => {
    const platform = await startTestPlatform();
    const alice = await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' });
    const channels = await bearer<{ id: string; type: number; position: number; parent_id: string | null }[]>(platform, `/api/v10/guilds/${SEED.guildId}/channels`, alice.access_token);
    expect(channels.body.map((channel) => [channel.id, channel.type, channel.position, channel.parent_id])).toEqual([
      [SEED.channels.general, 0, 0, null],
      [SEED.channels.voice, 2, 1, null],
      [SEED.channels.party, 2, 2, null],
    ]);
    const erin = platform.admin.createUser('erin');
    const outsider = await obtainTokens(platform, platform.loginToken(erin.username), { client_id: APP, scope: 'sdk.social_layer' });
    expect(await bearer(platform, `/api/v10/guilds/${SEED.guildId}/channels`, outsider.access_token)).toMatchObject({ status: 403, body: { code: 50001 } });
    const narrow = await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' });
    expect(await bearer(platform, `/api/v10/guilds/${SEED.guildId}/channels`, narrow.access_token)).toMatchObject({ status: 403, body: { code: 50026 } });
  });
});
