import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import { LobbyEvent, type Lobby, type LobbyMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';

const APP = SEED.appId;

async function gameToken(platform: PlatformServer, user: string): Promise<string> {
  return `Bearer ${(await obtainTokens(platform, platform.loginToken(user), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
}

function bot(platform: PlatformServer): string {
  return `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
}

describe('linked channels and lobby channel invites', () => {
  it("a member with CanLinkLobby links the server's text channel; the lobby and the channel list show it; the server's additional name goes with messages", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await gameToken(platform, 'alice'), await gameToken(platform, 'bob')];
    const made = await api<Lobby>(platform, 'POST', '/api/v10/lobbies', {
      token: bot(platform),
      body: { members: [{ id: SEED.users.alice, flags: 1, additional_name: 'Captain' }, { id: SEED.users.bob }] },
    });
    expect(made.body.members[0]).toMatchObject({ flags: 1, additional_name: 'Captain' });
    const lobbyId = made.body.id;
    const { client: bobSession } = await GatewayClient.ready(platform.gatewayUrl, bob);
    const link = (token: string, body: unknown, id = lobbyId) => api<Lobby & { code?: number }>(platform, 'PATCH', `/api/v10/lobbies/${id}/channel-linking`, { token, body });

    expect((await link(bob, { channel_id: SEED.channels.general })).body).toMatchObject({ code: 50013 });
    expect((await link(alice, { channel_id: SEED.channels.voice })).body).toMatchObject({ code: 50035 });
    const linked = await link(alice, { channel_id: SEED.channels.general });
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel).toMatchObject({ id: SEED.channels.general, guild_id: SEED.guildId, name: 'general', type: 0 });
    expect((await bobSession.next(isDispatch(LobbyEvent.Update))).d).toMatchObject({ id: lobbyId, linked_channel: { id: SEED.channels.general } });
    const channels = await api<{ id: string; linked_lobby?: unknown }[]>(platform, 'GET', `/api/v10/guilds/${SEED.guildId}/channels`, { token: alice });
    expect(channels.body.find((channel) => channel.id === SEED.channels.general)?.linked_lobby).toEqual({ application_id: APP, lobby_id: lobbyId });

    // One lobby per channel; a lobby made with a secret cannot be linked.
    const other = await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: bot(platform), body: { members: [{ id: SEED.users.alice, flags: 1 }] } });
    expect((await link(alice, { channel_id: SEED.channels.general }, other.body.id)).body).toMatchObject({ code: 50035, errors: { channel_id: expect.anything() } });
    const bySecret = await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: alice, body: { secret: 'sdk-made' } });
    await api(platform, 'PUT', `/api/v10/lobbies/${bySecret.body.id}/members/${SEED.users.alice}`, { token: bot(platform), body: { flags: 1 } });
    expect((await link(alice, { channel_id: SEED.channels.general }, bySecret.body.id)).body).toMatchObject({ code: 50035 });

    const sent = await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${lobbyId}/messages`, { token: alice, body: { content: 'hello server' } });
    expect(sent.body.additional_name).toBe('Captain');
    const unlinked = await link(alice, {});
    expect(unlinked.body.linked_channel).toBeUndefined();
    bobSession.close();
  });

  it('invites to the linked channel: for self and, by the server, for a member; single use, for that member only, gone after an hour', async () => {
    const clock = new FakeClock(Date.now());
    const platform = await startTestPlatform({ clock });
    await api(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'erin' } });
    const erinId = (await api<{ id: string; username: string }[]>(platform, 'GET', '/_emulator/users', { admin: true })).body.find((user) => user.username === 'erin')?.id ?? '';
    const [alice, erin, bob] = [await gameToken(platform, 'alice'), await gameToken(platform, 'erin'), await gameToken(platform, 'bob')];
    const lobby = (await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: bot(platform), body: { members: [{ id: SEED.users.alice, flags: 1 }, { id: erinId }] } })).body;
    const noLink = await api<{ code: number }>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/members/@me/invites`, { token: alice });
    expect(noLink.body.code).toBe(50035);
    await api(platform, 'PATCH', `/api/v10/lobbies/${lobby.id}/channel-linking`, { token: alice, body: { channel_id: SEED.channels.general } });

    const own = await api<{ code: string }>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/members/@me/invites`, { token: alice });
    expect(own.body.code).toMatch(/^[A-Za-z0-9_-]{8}$/);
    const forErin = await api<{ code: string }>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/members/${erinId}/invites`, { token: bot(platform) });
    const preview = await api(platform, 'GET', `/api/v10/invites/${forErin.body.code}`);
    expect(preview.body).toMatchObject({ code: forErin.body.code, guild: { id: SEED.guildId }, channel: { id: SEED.channels.general }, max_uses: 1 });
    // Not bob's (and bob is no member of the lobby: the server cannot make him one).
    expect((await api(platform, 'POST', `/api/v10/invites/${forErin.body.code}`, { token: bob })).status).toBe(403);
    expect((await api<{ code: number }>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/members/${SEED.users.bob}/invites`, { token: bot(platform) })).body.code).toBe(50001);
    const joined = await api(platform, 'POST', `/api/v10/invites/${forErin.body.code}`, { token: erin });
    expect(joined.status).toBe(200);
    expect((await api(platform, 'GET', `/api/v10/guilds/${SEED.guildId}`, { token: platform.loginToken('erin') })).status).toBe(200);
    expect(await api(platform, 'POST', `/api/v10/invites/${forErin.body.code}`, { token: erin })).toMatchObject({ status: 404, body: { code: 10006 } });

    clock.advance(60 * 60 * 1000);
    expect((await api(platform, 'GET', `/api/v10/invites/${own.body.code}`)).status).toBe(404);
  });
});
