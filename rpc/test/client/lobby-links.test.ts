import { describe, expect, it, vi } from 'vitest';
import { SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { game } from './support/sdk-games.js';

/** The game's server (bot token) makes a lobby for alice (CanLinkLobby, named "Captain") and bob. */
async function serverLobby(platform: TestPlatform, alice: string, bob: string): Promise<string> {
  const app = platform.admin.apps().find((candidate) => candidate.id === SEED_APP_ID) as { bot_token?: string };
  const response = await fetch(`${platform.url}/api/v10/lobbies`, {
    method: 'POST',
    headers: { Authorization: `Bot ${app.bot_token ?? ''}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ members: [{ id: alice, flags: 1, additional_name: 'Captain' }, { id: bob }] }),
  });
  return ((await response.json()) as { id: string }).id;
}

describe('companion/client linked channels', () => {
  it("links a guild channel the player may link; both games see it on the lobby; messages carry the server's additional name", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const [aliceId, bobId] = [alice.getCurrentUserV2()?.id ?? '', bob.getCurrentUserV2()?.id ?? ''];
    const lobbyId = await serverLobby(platform, aliceId, bobId);
    await vi.waitFor(() => expect(bob.getLobbyHandle(lobbyId)).not.toBeNull());
    const guildId = (await alice.getUserGuilds()).guilds[0]?.id ?? '';
    const channels = (await alice.getGuildChannels(guildId)).channels;
    const general = channels.find((channel) => channel.name === 'general');
    expect(general?.isLinkable).toBe(true);

    // Bob holds no CanLinkLobby (and no Manage Channels): refused with the platform's code.
    expect((await bob.linkChannelToLobby(lobbyId, general?.id ?? '')).errorCode).toBe(50013);
    const results: boolean[] = [];
    expect((await alice.linkChannelToLobby(lobbyId, general?.id ?? '', (result) => results.push(result.successful))).successful).toBe(true);
    expect(results).toEqual([true]);
    expect(alice.getLobbyHandle(lobbyId)?.linkedChannel).toEqual({ id: general?.id, name: 'general', guildId });
    await vi.waitFor(() => expect(bob.getLobbyHandle(lobbyId)?.linkedChannel?.id).toBe(general?.id));
    const relisted = (await alice.getGuildChannels(guildId)).channels.find((channel) => channel.id === general?.id);
    expect(relisted).toMatchObject({ isLinkable: false, linkedLobby: { applicationId: SEED_APP_ID, lobbyId } });

    const sent = await alice.sendLobbyMessage(lobbyId, 'all hands');
    await vi.waitFor(() => expect(bob.getMessageHandle(sent.messageId ?? '')?.additionalName).toBe('Captain'));
    expect((await alice.unlinkChannelFromLobby(lobbyId)).successful).toBe(true);
    await vi.waitFor(() => expect(bob.getLobbyHandle(lobbyId)?.linkedChannel).toBeNull());
  });
});
