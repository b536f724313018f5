import { describe, expect, it, vi } from 'vitest';
import { Client, RelationshipKind } from '../../client/index.js';
import { getToken } from '../../client/oauth-http.js';
import { rpcAuthorizationCode, SEED_APP_ID, startTestPlatform } from './support/platform.js';
import { game, newClient } from './support/sdk-games.js';

describe('companion/client lobbies against the emulator', () => {
  it('the same secret puts two games in one lobby; messages go both ways; leaving works', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const events: string[] = [];
    alice.setLobbyCallbacks({ lobbyCreated: (id) => events.push(`alice created ${id}`), memberAdded: (id, member) => events.push(`alice added ${member}`) });
    bob.setLobbyCallbacks({ messageCreated: (id) => events.push(`bob message ${bob.getMessageHandle(id)?.content ?? '?'}`) });
    const seen: (string | null)[] = [];
    const made = await alice.createOrJoinLobbyWithMetadata('squad-7', { map: 'harbour' }, { role: 'tank' }, (result, lobbyId) => seen.push(result.successful ? lobbyId : null));
    expect(made.result.successful).toBe(true);
    expect(seen).toEqual([made.lobbyId]);
    const joined = await bob.createOrJoinLobby('squad-7');
    expect(joined.lobbyId).toBe(made.lobbyId);
    const lobbyId = made.lobbyId as string;
    expect(bob.getLobbyHandle(lobbyId)).toMatchObject({ metadata: { map: 'harbour' }, lobbyMembers: [{ metadata: { role: 'tank' } }, {}] });
    // alice's game is told over its gateway connection: her handle has bob, and her callbacks ran.
    await vi.waitFor(() => expect(alice.getLobbyHandle(lobbyId)?.lobbyMemberIds).toHaveLength(2));
    const bobId = bob.getLobbyHandle(lobbyId)?.lobbyMemberIds[1] ?? '';
    expect(events).toEqual([`alice created ${lobbyId}`, `alice added ${bobId}`]);
    expect((await alice.refreshLobby(lobbyId)).lobby?.lobbyMemberIds).toHaveLength(2);
    expect(bob.getLobbyIds()).toEqual([lobbyId]);

    const sent = await alice.sendLobbyMessage(lobbyId, 'gg');
    expect(sent.result.successful).toBe(true);
    await bob.sendLobbyMessage(lobbyId, 'wp');
    await vi.waitFor(() => expect(events).toContain('bob message gg'));
    const read = await alice.getLobbyMessagesWithLimit(lobbyId, 10);
    expect(read.messages.map((m) => m.content)).toEqual(['wp', 'gg']);
    expect(read.messages[1]).toMatchObject({ id: sent.messageId, lobbyId, applicationId: SEED_APP_ID, additionalName: null });
    expect(read.messages[1]?.sentTimestamp).toBeGreaterThan(0);

    expect((await bob.leaveLobby(lobbyId)).successful).toBe(true);
    expect(bob.getLobbyHandle(lobbyId)).toBeNull();
    const after = await bob.sendLobbyMessage(lobbyId, 'still here?');
    expect(after.result).toMatchObject({ successful: false, type: 'HttpError', status: 403, errorCode: 50001 });
  });

  it('a game that starts while its player is in lobbies knows them from its session: getLobbyIds, handles and lobbyCreated once each', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const { lobbyId } = await alice.createOrJoinLobbyWithMetadata('squad-7', { map: 'harbour' }, {});
    await bob.createOrJoinLobby('squad-7');
    const { lobbyId: other } = await alice.createOrJoinLobby('duo');

    // A second game of alice (a restart, another device): no call, its session tells it.
    const created: string[] = [];
    const again = newClient(platform);
    again.setLobbyCallbacks({ lobbyCreated: (id) => created.push(id) });
    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
    await again.updateToken('Bearer', token.accessToken);
    await vi.waitFor(() => expect(again.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect(again.getLobbyIds().sort()).toEqual([lobbyId, other].sort());
    expect(again.getLobbyHandle(lobbyId as string)).toMatchObject({ metadata: { map: 'harbour' } });
    expect(again.getLobbyHandle(lobbyId as string)?.lobbyMemberIds).toHaveLength(2);
    expect(created.sort()).toEqual([lobbyId, other].sort());
    // A game of another application is told of none of them.
    const otherGame = platform.admin.createApp({ name: 'Other Game' });
    platform.admin.patchApp(otherGame.id, { public_client: true });
    const otherApp = await game(platform, 'alice', { applicationId: otherGame.id });
    expect(otherApp.getLobbyIds()).toEqual([]);
  });

  it('refusals come back as results naming the problem, never throwing, never with the token', async () => {
    const platform = await startTestPlatform();
    const alice = await game(platform, 'alice');
    const tooLong = await alice.createOrJoinLobbyWithMetadata('s', { k: 'x'.repeat(1000) }, {});
    expect(tooLong.result).toMatchObject({ successful: false, status: 400, errorCode: 50035 });
    const unknown = await alice.getLobbyMessagesWithLimit('424242', 10);
    expect(unknown.result).toMatchObject({ successful: false, status: 404, errorCode: 10031 });
    expect((await alice.getLobbyMessagesWithLimit('424242', 201)).result).toMatchObject({ successful: false, type: 'ValidationError' });
    // Too fast: the platform's 429 comes back as a retryable result with retryAfter.
    const { lobbyId } = await alice.createOrJoinLobby('chatty');
    const results = [];
    for (let i = 0; i < 11; i++) results.push((await alice.sendLobbyMessage(lobbyId as string, `m${i}`)).result);
    expect(results[10]).toMatchObject({ successful: false, type: 'HttpError', status: 429, retryable: true });
    expect(results[10]?.retryAfter).toBeGreaterThan(0);
    const noToken = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    const refused = await noToken.createOrJoinLobby('x');
    expect(refused.result).toMatchObject({ successful: false, type: 'ValidationError', error: 'no access token: call updateToken first' });
  });
});

describe("companion/client: the game's own gateway connection", () => {
  it('resumes after the platform asks it to reconnect; a revoked token ends it and is reported as expired', async () => {
    const platform = await startTestPlatform();
    const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
    const client = newClient(platform);
    const statuses: string[] = [];
    const expired: string[] = [];
    client.setPlatformStatusChangedCallback((status) => statuses.push(status));
    client.setTokenExpirationCallback((info) => expired.push(`${info.reason} ${info.code}`));
    await client.updateToken('Bearer', token.accessToken);
    await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'));
    expect(statuses).toEqual(['connecting', 'connected', 'ready']);

    // Op 7 from the platform: the SDK reconnects and resumes (RESUMED, not a second READY).
    const response = await fetch(`${platform.url}/_emulator/gateway/reconnect`, { method: 'POST', headers: { Authorization: `Admin ${platform.adminToken}`, 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.status).toBeLessThan(300);
    await vi.waitFor(() => expect(statuses.slice(3)).toEqual(['reconnecting', 'connecting', 'connected', 'ready']), { timeout: 5000 });

    // The player revokes the game: the platform closes the game's connection with 4004.
    expect((await client.revokeToken(SEED_APP_ID, token.accessToken)).successful).toBe(true);
    await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('disconnected'));
    expect(expired).toEqual(['invalid 4004']);
  });

  it("refreshing the token is no token end: the old token's session closes (4004), no expiration callback, and updateToken's new one is ready", async () => {
    const { client, token, expired } = await gameWatchingItsToken();

    const refreshed = await client.refreshToken(SEED_APP_ID, token.refreshToken);
    expect(refreshed.result.successful).toBe(true);
    // The platform ends the old access token's session; the game has not handed over the new one yet.
    await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('disconnected'), { timeout: 5000 });
    expect(expired).toEqual([]);
    await client.updateToken('Bearer', refreshed.token?.accessToken as string);
    await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect(expired).toEqual([]);

    // The new token's end is told again.
    expect((await client.revokeToken(SEED_APP_ID, refreshed.token?.accessToken as string)).successful).toBe(true);
    await vi.waitFor(() => expect(expired).toEqual(['invalid 4004']), { timeout: 5000 });
  });

  it('a game that hands over the refreshed token from the refresh callback itself still hears of that token\'s end', async () => {
    const { client, token, expired } = await gameWatchingItsToken();
    let fresh = '';
    await client.refreshToken(SEED_APP_ID, token.refreshToken, (result, accessToken) => {
      fresh = accessToken ?? '';
      void client.updateToken('Bearer', fresh);
    });
    await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'), { timeout: 5000 });
    expect(expired).toEqual([]);
    expect((await client.revokeToken(SEED_APP_ID, fresh)).successful).toBe(true);
    await vi.waitFor(() => expect(expired).toEqual(['invalid 4004']), { timeout: 5000 });
  });

  it('a token without the gateway scopes opens no session and is not reported as expired', async () => {
    const platform = await startTestPlatform();
    const code = await rpcAuthorizationCode(platform, { scope: 'identify' }, 'alice');
    const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
    const client = newClient(platform);
    const expired: unknown[] = [];
    const details: (string | null)[] = [];
    client.setTokenExpirationCallback((info) => expired.push(info));
    client.setPlatformStatusChangedCallback((status, detail) => status === 'disconnected' && details.push(detail));
    await client.updateToken('Bearer', token.accessToken);
    await vi.waitFor(() => expect(details).toHaveLength(1));
    expect(details[0]).toContain('4004');
    expect(expired).toEqual([]);
  });
});

describe('companion/client direct messages', () => {
  it("alice's game sends bob a message, bob's game is told (messageCreated) and reads the conversation, newest first", async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const bobId = ((await (await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: platform.loginToken('bob') } })).json()) as { id: string }).id;
    const aliceId = ((await (await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: platform.loginToken('alice') } })).json()) as { id: string }).id;
    const told: string[] = [];
    bob.setLobbyCallbacks({ messageCreated: (id) => told.push(bob.getMessageHandle(id)?.content ?? '?') });
    const sent = await alice.sendUserMessage(bobId, 'ready?');
    expect(sent.result.successful, sent.result.error).toBe(true);
    expect(alice.getMessageHandle(sent.messageId ?? '')).toMatchObject({ content: 'ready?', authorId: aliceId, applicationId: SEED_APP_ID });
    await vi.waitFor(() => expect(told).toEqual(['ready?']));
    expect((await bob.sendUserMessage(aliceId, 'yes')).result.successful).toBe(true);
    const conversation = await bob.getUserMessagesWithLimit(aliceId, 10);
    expect(conversation.messages.map((m) => m.content)).toEqual(['yes', 'ready?']);
    expect((await bob.getUserMessagesWithLimit(aliceId, 101)).result).toMatchObject({ successful: false, type: 'ValidationError' });
    expect((await bob.sendUserMessage('not-a-user', 'x')).result).toMatchObject({ successful: false, type: 'ValidationError' });
  });
});

describe('companion/client relationships', () => {
  it('lists friends; a removal, a request and its acceptance reach the other game as relationship callbacks; a block shows as blocked', async () => {
    const platform = await startTestPlatform();
    const [alice, bob] = [await game(platform, 'alice'), await game(platform, 'bob')];
    const listed = await alice.getRelationships();
    expect(listed.result.successful).toBe(true);
    const bobEntry = listed.relationships.find((r) => r.username === 'bob');
    expect(bobEntry).toMatchObject({ type: RelationshipKind.Friend, displayName: 'Bob' });
    const aliceId = (await bob.getRelationships()).relationships.find((r) => r.username === 'alice')?.id ?? '';
    const seen: string[] = [];
    bob.setRelationshipCallbacks({ relationshipCreated: (id, type) => seen.push(`created ${id} ${type}`), relationshipDeleted: (id) => seen.push(`deleted ${id}`) });

    expect((await alice.removeRelationship(bobEntry?.id ?? '')).successful).toBe(true);
    await vi.waitFor(() => expect(seen).toEqual([`deleted ${aliceId}`]));
    expect((await alice.sendFriendRequest(bobEntry?.id ?? '')).successful).toBe(true);
    await vi.waitFor(() => expect(seen).toContain(`created ${aliceId} ${RelationshipKind.PendingIncoming}`));
    expect((await bob.sendFriendRequest(aliceId)).successful).toBe(true);
    await vi.waitFor(() => expect(seen).toContain(`created ${aliceId} ${RelationshipKind.Friend}`));
    expect((await bob.blockUser(aliceId)).successful).toBe(true);
    expect((await bob.getRelationships()).relationships.find((r) => r.id === aliceId)?.type).toBe(RelationshipKind.Blocked);
    // alice cannot ask again while blocked: the platform's refusal as a result.
    expect(await alice.sendFriendRequest(bobEntry?.id ?? '')).toMatchObject({ successful: false, status: 403, errorCode: 50001 });
  });
});

/** Alice's game on the Social SDK's scope, its own session ready, with the token expiration callbacks it hears. */
async function gameWatchingItsToken(): Promise<{ client: Client; token: { accessToken: string; refreshToken: string }; expired: string[] }> {
  const platform = await startTestPlatform();
  const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, 'alice');
  const token = await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 });
  const client = newClient(platform);
  const expired: string[] = [];
  client.setTokenExpirationCallback((info) => expired.push(`${info.reason} ${info.code}`));
  await client.updateToken('Bearer', token.accessToken);
  await vi.waitFor(() => expect(client.getPlatformStatus()).toBe('ready'));
  return { client, token, expired };
}
