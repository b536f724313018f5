import { describe, expect, it, vi } from 'vitest';
import type { Client } from '../../client/index.js';
import { SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { game } from './support/sdk-games.js';

async function userId(platform: TestPlatform, username: string): Promise<string> {
  const response = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: platform.loginToken(username) } });
  return ((await response.json()) as { id: string }).id;
}

/** Records the message callbacks of a game as lines. */
function watch(client: Client): string[] {
  const seen: string[] = [];
  client.setLobbyCallbacks({ messageCreated: (id) => seen.push(`created ${id}`) });
  client.setMessageUpdatedCallback((id) => seen.push(`updated ${id} ${client.getMessageHandle(id)?.content ?? '?'}`));
  client.setMessageDeletedCallback((id, channelId) => seen.push(`deleted ${id} in ${channelId} (handle ${client.getMessageHandle(id) === null ? 'gone' : 'kept'})`));
  return seen;
}

describe('companion/client: editing and deleting messages', () => {
  it("editUserMessage and deleteUserMessage by the author reach the other player's game (setMessageUpdatedCallback, setMessageDeletedCallback); the other player is refused", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const [aliceId, bobId] = [await userId(platform, 'alice'), await userId(platform, 'bob')];
    const seen = watch(bob);
    const sent = await alice.sendUserMessage(bobId, 'ready in 5');
    const id = sent.messageId ?? '';
    await vi.waitFor(() => expect(seen).toEqual([`created ${id}`]));
    const channelId = bob.getMessageHandle(id)?.channelId ?? '';
    expect(bob.getMessageHandle(id)?.editedTimestamp).toBe(0);

    const results: boolean[] = [];
    const edited = await alice.editUserMessage(bobId, id, 'ready in 10', (result) => results.push(result.successful));
    expect(edited.successful, edited.error).toBe(true);
    expect(results).toEqual([true]);
    expect(alice.getMessageHandle(id)).toMatchObject({ content: 'ready in 10', applicationId: SEED_APP_ID });
    expect(alice.getMessageHandle(id)?.editedTimestamp).toBeGreaterThan(0);
    await vi.waitFor(() => expect(seen).toEqual([`created ${id}`, `updated ${id} ready in 10`]));
    expect(bob.getMessageHandle(id)?.editedTimestamp).toBe(alice.getMessageHandle(id)?.editedTimestamp);

    expect(await bob.editUserMessage(aliceId, id, 'mine now')).toMatchObject({ successful: false, status: 403, errorCode: 50005 });
    expect(await bob.deleteUserMessage(aliceId, id)).toMatchObject({ successful: false, status: 403, errorCode: 50003 });
    expect(await alice.editUserMessage(bobId, 'not-an-id', 'x')).toMatchObject({ successful: false, type: 'ValidationError' });
    expect(await alice.editUserMessage(bobId, id, ' ')).toMatchObject({ successful: false, type: 'ValidationError' });

    expect((await alice.deleteUserMessage(bobId, id)).successful).toBe(true);
    expect(alice.getMessageHandle(id)).toBeNull();
    await vi.waitFor(() => expect(seen).toContain(`deleted ${id} in ${channelId} (handle gone)`));
    expect(bob.getMessageHandle(id)).toBeNull();
    expect((await bob.getUserMessagesWithLimit(aliceId, 10)).messages).toEqual([]);
    expect(await alice.deleteUserMessage(bobId, id)).toMatchObject({ successful: false, status: 404, errorCode: 10008 });
  });

  it('editLobbyMessage and deleteLobbyMessage by the author reach the other members; another member is refused', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const lobbyId = (await alice.createOrJoinLobby('edits')).lobbyId ?? '';
    await bob.createOrJoinLobby('edits');
    const seen = watch(bob);
    const id = (await alice.sendLobbyMessage(lobbyId, 'push mid')).messageId ?? '';
    await vi.waitFor(() => expect(seen).toEqual([`created ${id}`]));

    expect((await alice.editLobbyMessage(lobbyId, id, 'push B')).successful).toBe(true);
    expect(alice.getMessageHandle(id)).toMatchObject({ content: 'push B', lobbyId });
    await vi.waitFor(() => expect(seen).toEqual([`created ${id}`, `updated ${id} push B`]));
    expect(bob.getMessageHandle(id)?.editedTimestamp).toBeGreaterThan(0);
    expect(await bob.editLobbyMessage(lobbyId, id, 'no')).toMatchObject({ successful: false, status: 403, errorCode: 50005 });
    expect(await bob.deleteLobbyMessage(lobbyId, id)).toMatchObject({ successful: false, status: 403, errorCode: 50013 });

    const results: boolean[] = [];
    expect((await alice.deleteLobbyMessage(lobbyId, id, (result) => results.push(result.successful))).successful).toBe(true);
    expect(results).toEqual([true]);
    expect(alice.getMessageHandle(id)).toBeNull();
    await vi.waitFor(() => expect(seen).toContain(`deleted ${id} in ${lobbyId} (handle gone)`));
    expect((await bob.getLobbyMessagesWithLimit(lobbyId, 10)).messages).toEqual([]);
  });
});
