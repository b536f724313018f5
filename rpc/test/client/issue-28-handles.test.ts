import { describe, expect, it, vi } from 'vitest';
import { ActivityActionTypes, AdditionalContentType, RelationshipType, StatusType, type Client, type MessageHandle } from '../../client/index.js';
import { toMessageHandle } from '../../client/lobby-api.js';
import { MessageSchema } from '../../client/wire/objects.js';
import * as v from 'valibot';
import { asPlayer, desktopSession } from './support/desktop-session.js';
import { gatewayGame, LOBBY_ID, lobby } from './support/gateway-game.js';
import { getToken } from '../../client/oauth-http.js';
import { admin, rpcAuthorizationCode, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';
import { connected, game, newClient } from './support/sdk-games.js';

const PARTY = 'party-28';
/** alice's desktop presence: playing the seeded game with a joinable party. */
const HOSTING = { name: 'Companion Demo Game', type: 0, application_id: '', state: 'In a party', party: { id: PARTY, size: [1, 4] }, secrets: { join: 'join-secret-28' } };

const idOf = (client: Client): string => client.getCurrentUserV2()?.id ?? '';

/** A game token of the player (the RPC flow's code, redeemed). */
async function gameToken(platform: TestPlatform, username: string): Promise<string> {
  const code = await rpcAuthorizationCode(platform, { scope: 'identify sdk.social_layer' }, username);
  return (await getToken({ platformBase: platform.url, applicationId: SEED_APP_ID, code, timeoutMs: 5000 })).accessToken;
}

async function readyGame(platform: TestPlatform, username: string): Promise<Client> {
  const client = await game(platform, username);
  client.setApplicationId(SEED_APP_ID);
  return client;
}

/** A provisional account's game (the emulator's Steam test provider), its session ready. */
async function provisionalGame(platform: TestPlatform, steamId: string, name: string): Promise<Client> {
  const ticket = (await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: steamId, display_name: name })).token;
  const outcome = await newClient(platform).getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket);
  expect(outcome.result.successful).toBe(true);
  return connected(platform, outcome.token?.accessToken ?? '');
}

describe('issue 28 §2.1: invites and join requests are DMs a game can tell apart', () => {
  it('messageCreated and getUserMessagesWithLimit give the invite and the join request with their type, sender, application and party; a decline makes the request invalid; chat has none', async () => {
    const platform = await startTestPlatform();
    const bob = await readyGame(platform, 'bob');
    const created: string[] = [];
    const updated: string[] = [];
    bob.setLobbyCallbacks({ messageCreated: (id) => created.push(id) });
    bob.setMessageUpdatedCallback((id) => updated.push(id));
    await desktopSession(platform, 'alice', [{ ...HOSTING, application_id: SEED_APP_ID }]);
    const bobId = idOf(bob);
    const dm = await asPlayer<{ id: string }>(platform, 'alice', 'POST', '/users/@me/channels', { recipient_id: bobId });
    // Companion sends an invite for alice (ACTIVITY_INVITE_USER): a DM with the activity, no text.
    const invite = await asPlayer<{ id: string; author: { id: string } }>(platform, 'alice', 'POST', `/channels/${dm.id}/messages`, { content: '', activity: { type: 1, party_id: PARTY }, application_id: SEED_APP_ID });
    const aliceId = invite.author.id;
    await vi.waitFor(() => expect(created).toContain(invite.id), { timeout: 5000 });
    const expectedInvite = { type: ActivityActionTypes.Join, senderId: aliceId, applicationId: SEED_APP_ID, partyId: PARTY, messageId: invite.id, channelId: dm.id, isValid: true };
    expect(bob.getMessageHandle(invite.id)).toMatchObject({ content: '', type: 0, applicationId: SEED_APP_ID, sentFromGame: true, additionalContent: null, activityInvite: expectedInvite });

    // bob asks to join alice's party (his Companion's "Ask to join"), then writes from the game.
    const request = await asPlayer<{ id: string }>(platform, 'bob', 'POST', `/channels/${dm.id}/messages`, { activity: { type: 5 }, application_id: SEED_APP_ID });
    expect((await bob.sendUserMessage(aliceId, 'see you there')).result.successful).toBe(true);
    const { result, messages } = await bob.getUserMessagesWithLimit(aliceId, 10);
    expect(result.successful).toBe(true);
    const summary = (message: MessageHandle): unknown[] => [message.content, message.activityInvite?.type ?? null, message.activityInvite?.senderId ?? null];
    expect(messages.map(summary)).toEqual([
      ['see you there', null, null],
      ['', ActivityActionTypes.JoinRequest, bobId],
      ['', ActivityActionTypes.Join, aliceId],
    ]);
    expect(messages[1]?.activityInvite).toEqual({ type: ActivityActionTypes.JoinRequest, senderId: bobId, applicationId: SEED_APP_ID, partyId: PARTY, messageId: request.id, channelId: dm.id, isValid: true });
    expect(messages[2]?.activityInvite).toEqual(expectedInvite);
    expect(messages[0]).toMatchObject({ activityInvite: null, additionalContent: null, type: 0 });

    // alice declines: bob's game hears of the update, and the request is no longer valid.
    await asPlayer(platform, 'alice', 'POST', `/channels/${dm.id}/messages/${request.id}/decline-activity-request`, {});
    await vi.waitFor(() => expect(updated).toContain(request.id), { timeout: 5000 });
    expect(bob.getMessageHandle(request.id)?.activityInvite).toMatchObject({ type: ActivityActionTypes.JoinRequest, isValid: false });
  });

  it("an invite past its end is not valid; a message's additional content is its poll, thread, voice message, attachments, stickers or embeds", () => {
    const parse = (wire: Record<string, unknown>): MessageHandle => toMessageHandle(v.parse(MessageSchema, { id: '1', channel_id: '2', author: { id: '3', username: 'alice' }, content: '', ...wire }));
    expect(parse({ activity: { type: 1, party_id: 'p' }, invite_expires_at: Date.now() - 1 }).activityInvite).toMatchObject({ type: 1, isValid: false });
    expect(parse({ activity: { type: 3 } }).activityInvite).toBeNull();
    expect(parse({ poll: { question: { text: 'Map?' } } }).additionalContent).toEqual({ type: AdditionalContentType.Poll, title: 'Map?', count: 1 });
    expect(parse({ thread: { name: 'Tactics' } }).additionalContent).toEqual({ type: AdditionalContentType.Thread, title: 'Tactics', count: 1 });
    expect(parse({ attachments: [{}], flags: 1 << 13 }).additionalContent).toEqual({ type: AdditionalContentType.VoiceMessage, title: null, count: 1 });
    expect(parse({ attachments: [{}, {}] }).additionalContent).toEqual({ type: AdditionalContentType.Attachment, title: null, count: 2 });
    expect(parse({ sticker_items: [{}] }).additionalContent).toEqual({ type: AdditionalContentType.Sticker, title: null, count: 1 });
    expect(parse({ embeds: [{}, {}, {}] }).additionalContent).toEqual({ type: AdditionalContentType.Embed, title: null, count: 3 });
    expect(parse({ content: 'gg' }).additionalContent).toBeNull();
  });
});

describe('issue 28 §2.2: every user the game met has a live UserHandle', () => {
  it('a provisional stranger in the lobby: LobbyMemberHandle.user() and getUser answer, as a message author too; they stay known to the game', async () => {
    const platform = await startTestPlatform();
    const alice = await readyGame(platform, 'alice');
    const guest = await provisionalGame(platform, 'steam-28', 'Scout');
    const guestId = idOf(guest);
    const lobbyId = (await alice.createOrJoinLobby('squad-28')).lobbyId ?? '';
    expect(alice.getUser(guestId)).toBeUndefined();
    expect((await guest.createOrJoinLobby('squad-28')).lobbyId).toBe(lobbyId);
    await vi.waitFor(() => expect(alice.getLobbyHandle(lobbyId)?.lobbyMemberIds).toContain(guestId), { timeout: 5000 });
    const member = alice.getLobbyHandle(lobbyId)?.lobbyMembers.find((m) => m.id === guestId);
    expect(member?.user()?.toJSON()).toMatchObject({ id: guestId, displayName: 'Scout', isProvisional: true });
    expect(alice.getUser(guestId)?.displayName).toBe('Scout');
    // The guest's own side: alice is a member too, and the author of what she writes.
    await vi.waitFor(() => expect(guest.getLobbyHandle(lobbyId)?.lobbyMembers.find((m) => m.id === idOf(alice))?.user()?.username).toBe('alice'), { timeout: 5000 });
    const sent = await alice.sendLobbyMessage(lobbyId, 'gg');
    await vi.waitFor(() => expect(guest.getMessageHandle(sent.messageId ?? '')).not.toBeNull(), { timeout: 5000 });
    expect(guest.getUser(idOf(alice))?.displayName).toBe('Alice');
    // Met is met: after the guest leaves, alice's game still knows who it played with.
    expect((await guest.leaveLobby(lobbyId)).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getLobbyHandle(lobbyId)?.lobbyMemberIds).not.toContain(guestId), { timeout: 5000 });
    expect(alice.getUser(guestId)?.displayName).toBe('Scout');
  });

  it('a provisional game friend is known to getUser on both sides', async () => {
    const platform = await startTestPlatform();
    const alice = await readyGame(platform, 'alice');
    const guest = await provisionalGame(platform, 'steam-29', 'Rook');
    const guestId = idOf(guest);
    expect((await guest.sendGameFriendRequestById(idOf(alice))).successful).toBe(true);
    await vi.waitFor(() => expect(alice.getRelationshipHandle(guestId).gameRelationshipType).toBe(RelationshipType.PendingIncoming), { timeout: 5000 });
    expect((await alice.acceptGameFriendRequest(guestId)).successful).toBe(true);
    expect(alice.getUser(guestId)?.toJSON()).toMatchObject({ displayName: 'Rook', isProvisional: true });
    await vi.waitFor(() => expect(guest.getUser(idOf(alice))?.username).toBe('alice'), { timeout: 5000 });
  });

  it('a handle taken before shows the newer name and avatar the platform sends with the member or with their messages', async () => {
    const stranger = { id: '100000000000000009', username: 'stranger', global_name: 'Old Name', avatar: null };
    const fakeGame = await gatewayGame({
      ready: (_, fake) => ({ ...fake.readyData(), lobbies: [{ ...lobby(), members: [{ id: '100000000000000001', flags: 0, connected: true }, { id: stranger.id, flags: 0, connected: true, user: stranger }] }] }),
    });
    const { client, fake } = fakeGame;
    await vi.waitFor(() => expect(client.getUser(stranger.id)?.displayName).toBe('Old Name'), { timeout: 5000 });
    const handle = client.getLobbyHandle(LOBBY_ID)?.lobbyMembers.find((m) => m.id === stranger.id)?.user();
    fake.peer.dispatch('LOBBY_MEMBER_UPDATE', { lobby_id: LOBBY_ID, member: { id: stranger.id, flags: 0, connected: true, user: { ...stranger, global_name: 'New Name' } } });
    await vi.waitFor(() => expect(handle?.displayName).toBe('New Name'), { timeout: 5000 });
    fake.peer.dispatch('LOBBY_MESSAGE_CREATE', { id: '700000000000000001', type: 0, content: 'hi', lobby_id: LOBBY_ID, channel_id: LOBBY_ID, author: { ...stranger, global_name: 'Newest', avatar: 'abc' }, application_id: '400000000000000001', timestamp: new Date().toISOString() });
    await vi.waitFor(() => expect(handle?.displayName).toBe('Newest'), { timeout: 5000 });
    expect(handle?.avatarUrl).toBe(`https://cdn.discordapp.com/avatars/${stranger.id}/abc.png`);
    expect(handle?.status()).toBe(StatusType.Offline);
  });
});

describe('issue 28 §2.3: what the session brings when READY', () => {
  it('a game friend request made before the game started is in getRelationshipHandle when the status says ready; the initial state calls no callback', async () => {
    const platform = await startTestPlatform();
    const bob = await readyGame(platform, 'bob');
    const bobId = idOf(bob);
    const aliceId = (await asPlayer<{ id: string }>(platform, 'alice', 'GET', '/users/@me')).id;
    expect((await bob.sendGameFriendRequestById(aliceId)).successful).toBe(true);

    // alice's game starts afterwards: the request is in its READY.
    const alice = newClient(platform);
    const callbacks: string[] = [];
    alice.setRelationshipCreatedCallback((userId, isDiscord) => callbacks.push(`created ${userId} ${isDiscord}`));
    const atReady: number[] = [];
    alice.setPlatformStatusChangedCallback((status) => {
      if (status === 'ready') atReady.push(alice.getRelationshipHandle(bobId).gameRelationshipType);
    });
    await alice.updateToken('Bearer', await gameToken(platform, 'alice'));
    await vi.waitFor(() => expect(atReady).toHaveLength(1), { timeout: 5000 });
    expect(atReady).toEqual([RelationshipType.PendingIncoming]);
    expect(alice.getPlatformStatus()).toBe('ready');
    expect(callbacks).toEqual([]);
    const listed = await alice.getRelationships();
    expect(listed.relationships.find((handle) => handle.id === bobId)?.gameRelationshipType).toBe(RelationshipType.PendingIncoming);
  });

  it('a session that comes back with a new READY (its resume refused) calls back for what changed while it was away', async () => {
    const answers: Record<string, unknown> = { 'GET /api/v10/users/@me/relationships': [] };
    const { client, fake, statuses } = await gatewayGame({ answers, refuseResume: true });
    const callbacks: string[] = [];
    client.setRelationshipCreatedCallback((userId, isDiscord) => callbacks.push(`created ${userId} ${isDiscord}`));
    client.setRelationshipDeletedCallback((userId, isDiscord) => callbacks.push(`deleted ${userId} ${isDiscord}`));
    const friend = { id: '100000000000000007', username: 'pal', global_name: null, avatar: null };
    answers['GET /api/v10/users/@me/relationships'] = [{ id: friend.id, type: 3, game_relationship_type: 1, user: friend }];
    fake.peer.socket.terminate();
    await vi.waitFor(() => expect(callbacks).toEqual([`created ${friend.id} true`, `created ${friend.id} false`]), { timeout: 5000 });
    expect(statuses.filter(([status]) => status === 'ready')).toHaveLength(2);
    answers['GET /api/v10/users/@me/relationships'] = [];
    fake.peer.socket.terminate();
    await vi.waitFor(() => expect(callbacks.slice(2)).toEqual([`deleted ${friend.id} true`, `deleted ${friend.id} false`]), { timeout: 5000 });
  });
});

describe('issue 28 §2.5: every call checks its arguments before the network', () => {
  const LOBBY = '1234567890123456789';
  const USER = '1191168914227331073';
  const MESSAGE = '1191168914227331074';
  /** [call, arguments, what the error names, the answer's other fields]. */
  const BAD_CALLS: [string, unknown[], RegExp, Record<string, unknown>][] = [
    ['refreshLobby', [''], /refreshLobby: lobbyId must be a snowflake/, { lobby: null }],
    ['leaveLobby', ['lobby-1'], /lobbyId must be a snowflake/, {}],
    ['createOrJoinLobby', [''], /secret must not be empty/, { lobbyId: null }],
    ['createOrJoinLobby', ['x'.repeat(251)], /secret must be at most 250/, { lobbyId: null }],
    ['createOrJoinLobbyWithMetadata', ['squad', { map: 3 }, {}], /lobbyMetadata values must be strings/, { lobbyId: null }],
    ['createOrJoinLobbyWithMetadata', ['squad', {}, null], /memberMetadata must be an object/, { lobbyId: null }],
    ['linkChannelToLobby', [LOBBY, 'general'], /channelId must be a snowflake/, {}],
    ['unlinkChannelFromLobby', [42], /lobbyId must be a snowflake id string/, {}],
    ['sendLobbyMessage', [LOBBY, '   '], /content must not be empty/, { messageId: null }],
    ['sendLobbyMessage', [LOBBY, 'x'.repeat(2001)], /content must be at most 2000/, { messageId: null }],
    ['editLobbyMessage', [LOBBY, 'm1', 'gg'], /messageId must be a snowflake/, {}],
    ['deleteLobbyMessage', ['', MESSAGE], /lobbyId must be a snowflake/, {}],
    ['getLobbyMessagesWithLimit', [LOBBY, 0], /limit must be an integer from 1 to 200/, { messages: [] }],
    ['getLobbyMessagesWithLimit', [LOBBY, 201], /limit must be an integer from 1 to 200/, { messages: [] }],
    ['sendUserMessage', [USER, ''], /content must not be empty/, { messageId: null }],
    ['sendUserMessage', ['bob', 'hi'], /recipientId must be a snowflake/, { messageId: null }],
    ['getUserMessagesWithLimit', [USER, 1.5], /limit must be an integer from 1 to 100/, { messages: [] }],
    ['editUserMessage', [USER, MESSAGE, ''], /content must not be empty/, {}],
    ['deleteUserMessage', [USER, undefined], /messageId must be a snowflake/, {}],
    ['getGuildChannels', ['guild'], /guildId must be a snowflake/, { channels: [] }],
    ['sendDiscordFriendRequest', [' '], /username must not be empty/, {}],
    ['sendGameFriendRequestById', ['12345678901234567890123'], /userId must be a snowflake/, {}],
    ['acceptGameFriendRequest', [''], /userId must be a snowflake/, {}],
    ['blockUser', [null], /userId must be a snowflake/, {}],
    ['removeRelationship', ['-1'], /userId must be a snowflake/, {}],
    ['sendActivityJoinRequestReply', [USER, 'yes'], /accept must be a boolean/, {}],
    ['sendActivityJoinRequest', ['bob'], /sendActivityJoinRequest: userId must be a snowflake/, {}],
    ['sendUserMessageWithMetadata', [USER, 'hi', { round: 3 }], /metadata values must be strings/, { messageId: null }],
    ['sendLobbyMessageWithMetadata', ['', 'hi', {}], /lobbyId must be a snowflake/, { messageId: null }],
  ];

  it.each(BAD_CALLS)('%s(%j) answers a ValidationError (and calls back with it) before the network', async (name, args, named, rest) => {
    // The emulator is there: a call that reached it would answer something else (an HTTP error, a 405).
    const platform = await startTestPlatform();
    const client = await readyGame(platform, 'alice');
    const called: unknown[][] = [];
    const method = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name];
    const answer = await method?.call(client, ...args, (...values: unknown[]) => called.push(values));
    const result = (answer as { result?: unknown }).result ?? answer;
    expect(result).toMatchObject({ successful: false, type: 'ValidationError', error: expect.stringMatching(named) });
    expect(answer).toMatchObject(rest);
    expect(called).toEqual(name === 'refreshLobby' ? [] : [[result, ...Object.values(rest)]]);
  });

  it('valid arguments still reach the platform: refreshLobby of an unknown lobby is its 404, not a ValidationError', async () => {
    const platform = await startTestPlatform();
    const client = await readyGame(platform, 'alice');
    expect((await client.refreshLobby('1234567890123456789')).result).toMatchObject({ successful: false, type: 'HttpError', status: 404 });
  });
});
