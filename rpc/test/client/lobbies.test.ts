import { describe, expect, it } from 'vitest';
import { Client } from '../../client/index.js';
import { getToken } from '../../client/oauth-http.js';
import { rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';

/** A game's SDK Client for a player, holding its own Bearer token with the Social SDK's scope (updateToken), Companion not running. */
async function game(platform: TestPlatform, username: string): Promise<Client> {
  const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, username);
  const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
  const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  const updated = await client.updateToken('Bearer', token.accessToken);
  expect(updated.successful).toBe(true);
  return client;
}

describe('companion/client lobbies against the emulator', () => {
  it('the same secret puts two games in one lobby; messages go both ways; leaving works', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const seen: (string | null)[] = [];
    const made = await alice.createOrJoinLobbyWithMetadata('squad-7', { map: 'harbour' }, { role: 'tank' }, (result, lobbyId) => seen.push(result.successful ? lobbyId : null));
    expect(made.result.successful).toBe(true);
    expect(seen).toEqual([made.lobbyId]);
    const joined = await bob.createOrJoinLobby('squad-7');
    expect(joined.lobbyId).toBe(made.lobbyId);
    const lobbyId = made.lobbyId as string;
    expect(bob.getLobbyHandle(lobbyId)).toMatchObject({ metadata: { map: 'harbour' }, lobbyMembers: [{ metadata: { role: 'tank' } }, {}] });
    expect(alice.getLobbyHandle(lobbyId)?.lobbyMemberIds).toHaveLength(1);
    expect((await alice.refreshLobby(lobbyId)).lobby?.lobbyMemberIds).toHaveLength(2);
    expect(bob.getLobbyIds()).toEqual([lobbyId]);

    const sent = await alice.sendLobbyMessage(lobbyId, 'gg');
    expect(sent.result.successful).toBe(true);
    await bob.sendLobbyMessage(lobbyId, 'wp');
    const read = await alice.getLobbyMessagesWithLimit(lobbyId, 10);
    expect(read.messages.map((m) => m.content)).toEqual(['wp', 'gg']);
    expect(read.messages[1]).toMatchObject({ id: sent.messageId, lobbyId, applicationId: SEED_APP_ID, additionalName: null });
    expect(read.messages[1]?.sentTimestamp).toBeGreaterThan(0);

    expect((await bob.leaveLobby(lobbyId)).successful).toBe(true);
    expect(bob.getLobbyHandle(lobbyId)).toBeNull();
    const after = await bob.sendLobbyMessage(lobbyId, 'still here?');
    expect(after.result).toMatchObject({ successful: false, type: 'HttpError', status: 403, errorCode: 50001 });
  });

  it('refusals come back as results naming the problem, never throwing, never with the token', async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    const tooLong = await alice.createOrJoinLobbyWithMetadata('s', { k: 'x'.repeat(1000) }, {});
    expect(tooLong.result).toMatchObject({ successful: false, status: 400, errorCode: 50035 });
    const unknown = await alice.getLobbyMessagesWithLimit('424242', 10);
    expect(unknown.result).toMatchObject({ successful: false, status: 404, errorCode: 10031 });
    expect((await alice.getLobbyMessagesWithLimit('424242', 201)).result).toMatchObject({ successful: false, type: 'ValidationError' });
    const noToken = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    const refused = await noToken.createOrJoinLobby('x');
    expect(refused.result).toMatchObject({ successful: false, type: 'ValidationError', error: 'no access token: call updateToken first' });
  });
});
