import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { LobbyEvent, type Lobby, type LobbyMessage, type PlatformChannel, type PlatformMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api } from './support/harness.js';
import { SECRETS, setUpTenants } from './support/tenants.js';

/** A lobby id that was never issued (snowflakes of the emulator's clock are far larger). */
const NO_LOBBY = '1000000000000000001';

describe("issue 25 §1.1: another game's lobby by id", () => {
  it("game A's server reads, changes and deletes game B's lobby exactly as one that does not exist: 404 10031, nothing done", async () => {
    const t = await setUpTenants();
    const { platform, botA } = t;
    const asBotA = async (method: string, suffix: string, body?: unknown) => {
      const [theirs, none] = [
        await api(platform, method, `/api/v10/lobbies/${t.lobbyB}${suffix}`, { token: botA, ...(body !== undefined ? { body } : {}) }),
        await api(platform, method, `/api/v10/lobbies/${NO_LOBBY}${suffix}`, { token: botA, ...(body !== undefined ? { body } : {}) }),
      ];
      // The same answer as for a lobby that never existed: its existence does not leak.
      expect({ status: theirs.status, body: theirs.body }, `${method} ${suffix}`).toEqual({ status: none.status, body: none.body });
      expect(JSON.stringify(theirs.body ?? null)).not.toContain('swordfish');
      return theirs;
    };
    expect(await asBotA('GET', '')).toMatchObject({ status: 404, body: { code: 10031, message: 'Unknown Lobby' } });
    expect(await asBotA('GET', '/messages')).toMatchObject({ status: 404, body: { code: 10031 } });
    await asBotA('PATCH', '', { metadata: { where: 'changed' } });
    await asBotA('PUT', `/members/${t.ids.mallory}`, {});
    await asBotA('DELETE', `/members/${t.ids.bob}`);
    await asBotA('POST', '/members/bulk', [{ id: t.ids.mallory }]);
    await asBotA('PUT', `/messages/${t.lobbyMessageB}/moderation-metadata`, { flagged: 'yes' });
    await asBotA('PATCH', `/messages/${t.lobbyMessageB}`, { content: 'x' });
    await asBotA('DELETE', `/messages/${t.lobbyMessageB}`);
    await asBotA('POST', `/members/${t.ids.bob}/invites`, {});
    // Deleting is safe to repeat: 204 for both, and B's lobby stays.
    expect((await asBotA('DELETE', '')).status).toBe(204);

    // Walking the snowflakes around B's lobby (the attack: ids close to ones A knows) finds nothing.
    for (let id = BigInt(t.lobbyB) - 3n; id <= BigInt(t.lobbyB) + 3n; id += 1n) {
      const walked = await api(platform, 'GET', `/api/v10/lobbies/${id}`, { token: botA });
      expect({ status: walked.status, body: walked.body }).toEqual({ status: 404, body: { code: 10031, message: 'Unknown Lobby' } });
    }

    // Game B's own server still sees its lobby, untouched.
    const own = await api<Lobby>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}`, { token: t.botB });
    expect(own.status).toBe(200);
    expect(own.body.metadata).toEqual({ where: SECRETS.lobbyMetadata });
    expect(own.body.members.map((member) => member.id).sort()).toEqual([t.ids.alice, t.ids.bob, t.ids.carol].sort());
    const messages = await api<LobbyMessage[]>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}/messages`, { token: t.botB });
    expect(messages.body).toEqual([expect.objectContaining({ id: t.lobbyMessageB, content: SECRETS.lobbyMessage })]);
    expect(messages.body[0]?.moderation_metadata).toBeUndefined();
  });
});

describe("issue 25 §1.2: a player's token for game A used in game B's lobby", () => {
  it("alice, a member of B's lobby, cannot use it with her game-A token, and her game-A session hears nothing of game B's lobbies", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const [aliceA, aliceB] = [await t.bearer('alice', t.appA), await t.bearer('alice', t.appB)];
    const mine = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${t.lobbyB}/messages`, { token: aliceB, body: { content: 'mine' } })).body;
    const gameA = (await GatewayClient.ready(platform.gatewayUrl, aliceA)).client;
    const gameB = (await GatewayClient.ready(platform.gatewayUrl, aliceB)).client;

    const attempts: [string, string, unknown?][] = [
      ['GET', ''],
      ['GET', '/messages'],
      ['POST', '/messages', { content: 'from game A' }],
      ['PATCH', `/messages/${mine.id}`, { content: 'edited from game A' }],
      ['DELETE', `/messages/${mine.id}`],
      ['PATCH', '/channel-linking', {}],
      ['POST', '/members/@me/invites', {}],
      ['DELETE', '/members/@me'],
    ];
    for (const [method, suffix, body] of attempts) {
      const answer = await api(platform, method, `/api/v10/lobbies/${t.lobbyB}${suffix}`, { token: aliceA, ...(body !== undefined ? { body } : {}) });
      expect({ status: answer.status, body: answer.body }, `${method} ${suffix}`).toEqual({ status: 404, body: { code: 10031, message: 'Unknown Lobby' } });
    }
    // Game B's server adds alice to a new lobby and bob writes in the old one: only game B's session hears.
    const created = (await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: t.botB, body: { members: [{ id: t.ids.alice }] } })).body;
    await api(platform, 'POST', `/api/v10/lobbies/${t.lobbyB}/messages`, { token: await t.bearer('bob', t.appB), body: { content: 'to B only' } });
    expect((await gameB.next(isDispatch(LobbyEvent.Create))).d).toMatchObject({ id: created.id, application_id: t.appB });
    expect((await gameB.next(isDispatch(LobbyEvent.MessageCreate))).d).toMatchObject({ content: 'to B only' });
    await gameA.barrier();
    expect(gameA.messages.filter((message) => typeof message.t === 'string' && message.t.startsWith('LOBBY_'))).toEqual([]);
    // B's lobby is as it was: alice still a member, her message unedited.
    const lobby = await api<Lobby>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}`, { token: aliceB });
    expect(lobby.body.members.some((member) => member.id === t.ids.alice)).toBe(true);
    const messages = await api<LobbyMessage[]>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}/messages`, { token: aliceB });
    expect(messages.body.find((message) => message.id === mine.id)?.content).toBe('mine');
    // Channel linking: B's link of the guild channel is not game A's business; each game sees its own.
    const lobbyOfA = (await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: t.botA, body: { members: [{ id: t.ids.alice, flags: 1 }] } })).body;
    const linked = await api<Lobby>(platform, 'PATCH', `/api/v10/lobbies/${lobbyOfA.id}/channel-linking`, { token: aliceA, body: { channel_id: SEED.channels.general } });
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel?.id).toBe(SEED.channels.general);
    const linkOf = async (token: string) => {
      const channels = await api<{ id: string; linked_lobby?: { application_id: string; lobby_id: string } }[]>(platform, 'GET', `/api/v10/guilds/${SEED.guildId}/channels`, { token });
      return channels.body.find((channel) => channel.id === SEED.channels.general)?.linked_lobby;
    };
    expect(await linkOf(aliceA)).toEqual({ application_id: t.appA, lobby_id: lobbyOfA.id });
    expect(await linkOf(aliceB)).toEqual({ application_id: t.appB, lobby_id: t.lobbyB });
    gameA.close();
    gameB.close();
  });
});

describe('issue 25 §1.3: DMs labelled as another game', () => {
  it("a game DM carries its token's application, never the body's; another game's server cannot moderate it", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const aliceA = await t.bearer('alice', t.appA);
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token: aliceA, body: { recipient_id: t.ids.bob } })).body;
    const post = (token: string, body: unknown) => api<PlatformMessage & { code?: number; errors?: unknown }>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token, body });

    const asB = await post(aliceA, { content: 'pretending to be B', application_id: t.appB });
    expect(asB).toMatchObject({ status: 400, body: { code: 50035, errors: { application_id: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_BAD' })] } } } });
    expect((await post(aliceA, { content: 'from nowhere', application_id: '999999999999999999' })).status).toBe(400);
    // A player's own token names no game on a plain message.
    expect((await post(t.userToken('alice'), { content: 'typed', application_id: t.appB })).status).toBe(400);

    const sent = await post(aliceA, { content: 'from game A', application_id: t.appA });
    expect(sent.status).toBe(200);
    expect(sent.body.application_id).toBe(t.appA);
    const unlabelled = await post(aliceA, { content: 'from game A too' });
    expect(unlabelled.body.application_id).toBe(t.appA);

    const moderate = (bot: string, messageId: string) => api(platform, 'PUT', `/api/v10/partner-sdk/dms/${t.ids.alice}/${t.ids.bob}/messages/${messageId}/moderation-metadata`, { token: bot, body: { verdict: 'ok' } });
    // Game B wrote nothing in this DM: to its server there is no such DM (404 10003).
    expect(await moderate(t.botB, sent.body.id)).toMatchObject({ status: 404, body: { code: 10003 } });
    expect((await moderate(t.botA, sent.body.id)).status).toBe(204);
    const seenByB = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: await t.bearer('bob', t.appB) });
    expect(seenByB.body.find((message) => message.id === sent.body.id)?.moderation_metadata).toBeUndefined();
    const seenByA = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: await t.bearer('bob', t.appA) });
    expect(seenByA.body.find((message) => message.id === sent.body.id)?.moderation_metadata).toEqual({ verdict: 'ok' });
  });
});

describe('issue 25 §1.4: blocks', () => {
  it('after bob blocks carol neither can open a DM or post in it (403 50007), nor make a friend or game request', async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const [bob, carol] = [t.userToken('bob'), t.userToken('carol')];
    const carolGame = await t.bearer('carol', t.appB);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.carol}`, { token: bob, body: { type: 2 } })).status).toBe(204);
    const refused = { status: 403, body: { code: 50007, message: 'Cannot send messages to this user' } };

    const open = await api(platform, 'POST', '/api/v10/users/@me/channels', { token: carol, body: { recipient_id: t.ids.bob } });
    expect({ status: open.status, body: open.body }).toEqual(refused);
    const openBack = await api(platform, 'POST', '/api/v10/users/@me/channels', { token: bob, body: { recipient_id: t.ids.carol } });
    expect({ status: openBack.status, body: openBack.body }).toEqual(refused);
    for (const [who, token] of [
      ['carol', carol],
      ['carol (game)', carolGame],
      ['bob', bob],
    ] as const) {
      const posted = await api(platform, 'POST', `/api/v10/channels/${t.dm}/messages`, { token, body: { content: `from ${who}` } });
      expect({ status: posted.status, body: posted.body }, who).toEqual(refused);
    }
    const edit = await api(platform, 'PATCH', `/api/v10/channels/${t.dm}/messages/${t.dmMessage}`, { token: carolGame, body: { content: 'edited' } });
    expect({ status: edit.status, body: edit.body }).toEqual(refused);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.bob}`, { token: carol, body: {} })).status).toBe(403);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${t.ids.bob}`, { token: carolGame, body: {} })).status).toBe(403);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${t.ids.carol}`, { token: await t.bearer('bob', t.appB), body: {} })).status).toBe(403);

    // Nothing was posted; unblocking lets them write again.
    const messages = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${t.dm}/messages`, { token: bob });
    expect(messages.body.map((message) => message.content)).toEqual([SECRETS.dmMessage]);
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${t.ids.carol}`, { token: bob })).status).toBe(204);
    expect((await api(platform, 'POST', `/api/v10/channels/${t.dm}/messages`, { token: carol, body: { content: 'hi again' } })).status).toBe(200);
  });
});

describe('issue 25 §1.5: bans over HTTP', () => {
  it("a ban ends every token of the account: bob's earlier user token and game token get 401 on every route", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const bob = t.userToken('bob');
    const bobGame = await t.bearer('bob', t.appA);
    const calls: [string, string, string, unknown?][] = [
      [bob, 'GET', '/users/@me'],
      [bob, 'GET', '/users/@me/relationships'],
      [bob, 'GET', '/users/@me/guilds'],
      [bob, 'GET', '/oauth2/tokens'],
      [bob, 'POST', '/users/@me/channels', { recipient_id: t.ids.carol }],
      [bob, 'POST', `/channels/${t.dm}/messages`, { content: 'still here' }],
      [bob, 'POST', '/users/@me/relationships', { username: 'mallory' }],
      [bobGame, 'GET', '/users/@me'],
      [bobGame, 'GET', `/lobbies/${t.lobbyA}`],
    ];
    // Before the ban the user token works.
    expect((await api(platform, 'GET', '/api/v10/users/@me', { token: bob })).status).toBe(200);
    expect((await api(platform, 'POST', `/_emulator/users/${t.ids.bob}/ban`, { admin: true, body: {} })).status).toBe(200);
    for (const [token, method, pathname, body] of calls) {
      const answer = await api(platform, method, `/api/v10${pathname}`, { token, ...(body !== undefined ? { body } : {}) });
      expect({ status: answer.status, body: answer.body }, `${method} ${pathname}`).toEqual({ status: 401, body: { code: 0, message: '401: Unauthorized' } });
    }
    const messages = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${t.dm}/messages`, { token: t.userToken('carol') });
    expect(messages.body.map((message) => message.content)).toEqual([SECRETS.dmMessage]);
    // Lifting the ban gives the account its user token back.
    expect((await api(platform, 'DELETE', `/_emulator/users/${t.ids.bob}/ban`, { admin: true })).status).toBe(204);
    expect((await api(platform, 'GET', '/api/v10/users/@me', { token: bob })).status).toBe(200);
  });
});
