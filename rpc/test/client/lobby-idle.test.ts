import { describe, expect, it, vi } from 'vitest';
import { SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { game } from './support/sdk-games.js';

/** The game server's view of a lobby (bot token): the status alone. */
async function serverSees(platform: TestPlatform, lobbyId: string, method = 'GET', body?: unknown): Promise<number> {
  const bot = platform.admin.apps().find((app) => app.id === SEED_APP_ID) as { bot_token?: string };
  const response = await fetch(`${platform.url}/api/v10/lobbies/${lobbyId}`, {
    method,
    headers: { Authorization: `Bot ${bot.bot_token ?? ''}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  await response.body?.cancel();
  return response.status;
}

describe('an idle lobby', () => {
  it('stays while one member is connected, and is deleted once nobody has been connected for its (shrunk) idle timeout', { timeout: 30_000 }, async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const { lobbyId } = await alice.createOrJoinLobby('idle-squad');
    expect((await bob.createOrJoinLobby('idle-squad')).lobbyId).toBe(lobbyId);
    const id = lobbyId as string;
    // The game's server shrinks the timeout to the least the platform takes (5 s).
    expect(await serverSees(platform, id, 'PATCH', { idle_timeout_seconds: 5 })).toBe(200);

    await alice.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 6500));
    // Bob is still connected: the lobby is not idle.
    expect(await serverSees(platform, id)).toBe(200);
    expect((await bob.refreshLobby(id)).lobby?.lobbyMemberIds).toHaveLength(2);

    const gone = Date.now();
    await bob.disconnect();
    await vi.waitFor(async () => expect(await serverSees(platform, id)).toBe(404), { timeout: 10_000, interval: 250 });
    const after = (Date.now() - gone) / 1000;
    expect(after).toBeGreaterThanOrEqual(4.5);
    // Back in the game: the lobby is gone for the players too.
    const again = await game(platform, 'alice');
    expect((await again.refreshLobby(id)).result).toMatchObject({ successful: false, status: 404, errorCode: 10031 });
  });
});
