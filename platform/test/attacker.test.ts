import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { createRequestHandler } from '../src/http/handler.js';
import type { Route } from '../src/http/router.js';
import { DEFAULT_LIMITS } from '../src/support/limits.js';
import { SILENT_LOGGER } from '../src/support/logger.js';
import { GatewayClose, type LobbyMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { api, serverObserves } from './support/harness.js';
import { obtainTokens, postForm } from './support/oauth.js';
import { setUpTenants, withServices } from './support/tenants.js';

describe('issue 25 §1 (attacker): one game exhausting another game\'s rate limits', () => {
  it("game A's server editing its own lobby's messages does not use up game B's server's bucket", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const mineA = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${t.lobbyA}/messages`, { token: await t.bearer('alice', t.appA), body: { content: 'a' } })).body;
    // Game A's server spends the whole lobby-message bucket (its edits of a member's message are refused, but count).
    const { count } = platform.limits.http.lobbyMessage;
    for (let i = 0; i <= count; i += 1) await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyA}/messages/${mineA.id}`, { token: t.botA, body: { content: `x${i}` } });
    const spent = await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyA}/messages/${mineA.id}`, { token: t.botA, body: { content: 'again' } });
    expect(spent.status).toBe(429);
    // Game B's server is another tenant: its own bucket is untouched.
    const theirs = await api(platform, 'PATCH', `/api/v10/lobbies/${t.lobbyB}/messages/${t.lobbyMessageB}`, { token: t.botB, body: { content: 'edit' } });
    // Answered by the route (a server edits no member's message), not refused by the limiter.
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: 403, body: expect.objectContaining({ code: 50005 }) });
  });

  it("a player's game A using up her lobby-join bucket leaves her game B its own", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const [aliceA, aliceB] = [await t.bearer('alice', t.appA), await t.bearer('alice', t.appB)];
    const { count } = platform.limits.http.lobbyJoin;
    for (let i = 0; i <= count; i += 1) await api(platform, 'PUT', '/api/v10/lobbies', { token: aliceA, body: { secret: `a-${i}` } });
    expect((await api(platform, 'PUT', '/api/v10/lobbies', { token: aliceA, body: { secret: 'a-more' } })).status).toBe(429);
    const theirs = await api(platform, 'PUT', '/api/v10/lobbies', { token: aliceB, body: { secret: 'b-1' } });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  });

  it("game A's server spending the partner-sdk bucket leaves game B's server its own", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const { count } = platform.limits.http.partnerSdk;
    for (let i = 0; i <= count; i += 1) await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botA, body: { external_user_id: `a-${i}` } });
    expect((await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botA, body: { external_user_id: 'a-more' } })).status).toBe(429);
    const theirs = await api(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botB, body: { external_user_id: 'b-1' } });
    expect(theirs.status, JSON.stringify(theirs.body)).not.toBe(429);
    expect(theirs.headers.get('x-ratelimit-remaining')).toBe(String(count - 1));
  });
});

describe("issue 25 §1 (attacker): a game's session speaking as another game", () => {
  /** A joinable, public party: a friend may join it with no invite. */
  const asGame = (applicationId: string) => ({
    since: null,
    afk: false,
    status: 'online' as const,
    activities: [{ name: 'Game B', type: 0, application_id: applicationId, party: { id: 'forged', size: [1, 4] as [number, number], privacy: 1 }, secrets: { join: 'planted-by-game-a' } }],
  });

  it("game A's session (op 3 or identify) cannot publish an activity of game B: the activity is game A's, and B's players cannot be handed A's join secret", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const bob = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('bob'))).client;
    const aliceA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appA))).client;
    aliceA.setPresence(asGame(t.appB) as never);
    const seen = await bob.next((m) => m.t === 'PRESENCE_UPDATE' && JSON.stringify(m.d).includes('forged'));
    const activities = (seen.d as { activities: { application_id?: string }[] }).activities;
    expect(activities.map((activity) => activity.application_id)).toEqual([t.appA]);
    // Bob, alice's friend, asks game B's party of alice: there is none, so no secret of game A's making.
    const join = await api(platform, 'POST', `/api/v10/users/${t.ids.alice}/activities/${t.appB}/join`, { token: t.userToken('bob'), body: {} });
    expect(join.status).toBe(403);
    expect(JSON.stringify(join.body)).not.toContain('planted');

    // The same through IDENTIFY's presence, on carol's game A session.
    const carol = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    await GatewayClient.ready(platform.gatewayUrl, await t.bearer('carol', t.appA), asGame(t.appB) as never);
    const carolSeen = await carol.next((m) => m.t === 'PRESENCE_UPDATE' && JSON.stringify(m.d).includes('forged'));
    expect((carolSeen.d as { activities: { application_id?: string }[] }).activities.map((activity) => activity.application_id)).toEqual([t.appA]);
    expect((await api(platform, 'POST', `/api/v10/users/${t.ids.carol}/activities/${t.appB}/join`, { token: t.userToken('alice'), body: {} })).status).toBe(403);
  });

  it("the player's own client (the host relaying its games) still names each activity's game", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const bob = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('bob'))).client;
    const alice = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    alice.setPresence(asGame(t.appB) as never);
    const seen = await bob.next((m) => m.t === 'PRESENCE_UPDATE' && JSON.stringify(m.d).includes('forged'));
    expect((seen.d as { activities: { application_id?: string }[] }).activities.map((activity) => activity.application_id)).toEqual([t.appB]);
  });
});

describe("issue 25 §1 (attacker): a lobby channel invite of another game's lobby", () => {
  it("alice's game A token answers an invite game B's server made for her as one that does not exist; her game B token and her own client may use it", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const mint = async (): Promise<string> =>
      (await api<{ code: string }>(platform, 'POST', `/api/v10/lobbies/${t.lobbyB}/members/${t.ids.alice}/invites`, { token: t.botB, body: {} })).body.code;
    const aliceA = await t.bearer('alice', t.appA);
    const code = await mint();
    const [theirs, none] = [
      await api(platform, 'POST', `/api/v10/invites/${code}`, { token: aliceA }),
      await api(platform, 'POST', '/api/v10/invites/NoSuchCode', { token: aliceA }),
    ];
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: 404, body: { code: 10006, message: 'Unknown Invite' } });
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: none.status, body: none.body });
    // An invite for bob, tried by alice's game A token: unknown too (not "not yours", which would tell of it).
    const forBob = await api(platform, 'POST', `/api/v10/invites/${t.inviteForBob}`, { token: aliceA });
    expect({ status: forBob.status, body: forBob.body }).toEqual({ status: 404, body: { code: 10006, message: 'Unknown Invite' } });
    // Game B's token (its own lobby's invite) and alice's own client use theirs.
    expect((await api(platform, 'POST', `/api/v10/invites/${code}`, { token: await t.bearer('alice', t.appB) })).status).toBe(200);
    expect((await api(platform, 'POST', `/api/v10/invites/${await mint()}`, { token: t.userToken('alice') })).status).toBe(200);
  });
});

describe("issue 25 §1 (attacker): a lobby message's moderation metadata outside its application", () => {
  it("game B's moderation metadata reaches B's game sessions, never the player's own client or another game's session", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const aliceClient = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    const aliceB = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appB))).client;
    const put = await api(platform, 'PUT', `/api/v10/lobbies/${t.lobbyB}/messages/${t.lobbyMessageB}/moderation-metadata`, { token: t.botB, body: { verdict: 'held-for-review' } });
    expect(put.status).toBe(204);
    const toGame = await aliceB.next((m) => m.t === 'LOBBY_MESSAGE_UPDATE');
    expect(toGame.d).toMatchObject({ id: t.lobbyMessageB, moderation_metadata: { verdict: 'held-for-review' } });
    // The player's own client hears of the update (its lobbies are the player's), without B's metadata.
    const toClient = await aliceClient.next((m) => m.t === 'LOBBY_MESSAGE_UPDATE');
    expect(toClient.d).toMatchObject({ id: t.lobbyMessageB });
    expect(JSON.stringify(toClient.d)).not.toContain('held-for-review');
    expect(toClient.d).not.toHaveProperty('moderation_metadata');
  });
});

describe('issue 25 §1 (attacker): a blocked player joining through an invite sent before the block', () => {
  it("once either has blocked the other, an earlier invite no longer hands out the host's join secret (403 50001, as without an invite)", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const secret = 'host-join-secret-after-block';
    const hosting = {
      since: null,
      afk: false,
      status: 'online' as const,
      activities: [{ name: 'Game A', type: 0, application_id: t.appA, party: { id: 'party-1', size: [1, 4] as [number, number], privacy: 1 }, secrets: { join: secret } }],
    };
    await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'), hosting as never);
    const dm = (await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token: t.userToken('alice'), body: { recipient_id: t.ids.bob } })).body;
    const invite = await api<{ id: string }>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, {
      token: t.userToken('alice'),
      body: { content: 'come', activity: { type: 1, party_id: 'party-1' }, application_id: t.appA },
    });
    expect(invite.status).toBe(200);
    const join = (body: { message_id?: string }) => api(platform, 'POST', `/api/v10/users/${t.ids.alice}/activities/${t.appA}/join`, { token: t.userToken('bob'), body });

    // Bob blocks alice (the host): he has said he wants nothing of hers, and she nothing of his.
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.alice}`, { token: t.userToken('bob'), body: { type: 2 } })).status).toBe(204);
    for (const body of [{ message_id: invite.body.id }, {}]) {
      const answer = await join(body);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    }
    // Unblocked, the invite works again; then alice (the host) blocks bob: refused the same way.
    expect((await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${t.ids.alice}`, { token: t.userToken('bob') })).status).toBe(204);
    expect((await join({ message_id: invite.body.id })).body).toEqual({ secret });
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.bob}`, { token: t.userToken('alice'), body: { type: 2 } })).status).toBe(204);
    const refused = await join({ message_id: invite.body.id });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: { code: 50001, message: 'Missing Access' } });
  });
});

describe('issue 25 §1 (attacker): a route under /_emulator that takes a player\'s or game\'s token', () => {
  it('cannot be served without an access rule: only the admin\'s own routes go without one', async () => {
    await withServices((services) => {
      const routes = services.routes();
      const make = (extra: Route) => () =>
        createRequestHandler({ ...routes, adminRoutes: [...routes.adminRoutes, extra], bearer: () => undefined, store: services.store, policy: services.policy, adminToken: 'x', limits: DEFAULT_LIMITS, now: Date.now, logger: SILENT_LOGGER });
      const forgotten: Route = { method: 'GET', pattern: '/_emulator/lobbies/:id/peek', auth: 'bearer-or-bot', handle: () => ({ status: 200 }) };
      expect(make(forgotten)).toThrow(/declares no access rule/);
      expect(make({ ...forgotten, access: { id: 'lobby' } })).not.toThrow();
      expect(make({ ...forgotten, auth: 'admin' })).not.toThrow();
    });
  });
});

describe("issue 25 §1 (attacker): a game's server probing who has a DM with whom", () => {
  it("PUT /partner-sdk/dms/{a}/{b}/messages/{id}/moderation-metadata answers a DM its game has no message in exactly as no DM at all", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    // Bob and carol have a DM (carol wrote in it with game B); bob and mallory have none.
    const probe = (a: string, b: string) => api(platform, 'PUT', `/api/v10/partner-sdk/dms/${a}/${b}/messages/${t.dmMessage}/moderation-metadata`, { token: t.botA, body: { probe: '1' } });
    const [existing, none] = [await probe(t.ids.bob, t.ids.carol), await probe(t.ids.bob, t.ids.mallory)];
    expect({ status: existing.status, body: existing.body }).toEqual({ status: none.status, body: none.body });
    expect(existing.status).toBe(404);
    // Game B's server moderates its own game's message there, as before.
    expect((await api(platform, 'PUT', `/api/v10/partner-sdk/dms/${t.ids.bob}/${t.ids.carol}/messages/${t.dmMessage}/moderation-metadata`, { token: t.botB, body: { ok: '1' } })).status).toBe(204);
  });
});

describe("issue 25 §1 (attacker): a lobby member's other games showing through `connected`", () => {
  it("bob, connected only to game A, is not connected in game B's lobby, and B's members hear nothing when his game A session ends", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const memberOf = async (): Promise<boolean | undefined> =>
      (await api<{ members: { id: string; connected: boolean }[] }>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}`, { token: t.botB })).body.members.find((member) => member.id === t.ids.bob)?.connected;
    const aliceB = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appB))).client;
    const bobA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('bob', t.appA))).client;
    expect(await memberOf()).toBe(false);
    bobA.close(1000);
    await serverObserves(() => platform.admin.sessions().every((session) => session.user_id !== t.ids.bob), "bob's game A session ended");
    await aliceB.barrier();
    expect(aliceB.dispatches('LOBBY_MEMBER_UPDATE')).toEqual([]);
    // His game B session (the lobby's application's) does count.
    await GatewayClient.ready(platform.gatewayUrl, await t.bearer('bob', t.appB));
    expect(await memberOf()).toBe(true);
  });
});

describe("issue 25 §1 (attacker): a game using up the player's op 8 all-members cooldown", () => {
  it("game A's session asking for every member of a guild does not make the player's own client (or game B) wait", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const allMembers = { guild_id: SEED.guildId, query: '', limit: 0 };
    const gameA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appA))).client;
    gameA.send(8, allMembers);
    await gameA.barrier();
    gameA.send(8, allMembers);
    // Its own second request within the cooldown is limited.
    expect((await gameA.next((m) => m.t === 'RATE_LIMITED')).d).toMatchObject({ opcode: 8 });
    const own = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    own.send(8, allMembers);
    const answer = await own.next((m) => m.t === 'GUILD_MEMBERS_CHUNK' || m.t === 'RATE_LIMITED');
    expect(answer.t).toBe('GUILD_MEMBERS_CHUNK');
  });
});

describe("issue 25 §1 (attacker): another game's provisional accounts", () => {
  it("a provisional account game A made exists only in game A: game B's server and tokens are answered as for an unknown user", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const made = await api<{ access_token: string }>(platform, 'POST', '/api/v10/partner-sdk/token/bot', { token: t.botA, body: { external_user_id: 'a-player-7', preferred_global_name: 'Seven' } });
    const provisional = (await api<{ id: string }>(platform, 'GET', '/api/v10/users/@me', { token: `Bearer ${made.body.access_token}` })).body.id;
    const aliceB = await t.bearer('alice', t.appB);
    const unknownUser = { status: 404, body: { code: 10013, message: 'Unknown User' } };
    const tries: [string, string, string, unknown][] = [
      [t.botB, 'PUT', `/api/v10/lobbies/${t.lobbyB}/members/${provisional}`, {}],
      [t.botB, 'POST', '/api/v10/lobbies', { members: [{ id: provisional }] }],
      [t.botB, 'POST', `/api/v10/lobbies/${t.lobbyB}/members/bulk`, [{ id: provisional }]],
      [aliceB, 'PUT', `/api/v10/users/@me/game-relationships/${provisional}`, {}],
      [aliceB, 'POST', '/api/v10/users/@me/channels', { recipient_id: provisional }],
    ];
    for (const [token, method, path, body] of tries) {
      const answer = await api(platform, method, path, { token, body });
      expect({ status: answer.status, body: answer.body }, `${method} ${path}`).toEqual(unknownUser);
    }
    // By its username too: no such username, to game B.
    const username = (await api<{ username: string }>(platform, 'GET', '/api/v10/users/@me', { token: `Bearer ${made.body.access_token}` })).body.username;
    const byName = await api(platform, 'POST', '/api/v10/users/@me/game-relationships', { token: aliceB, body: { username } });
    expect({ status: byName.status, body: byName.body }).toEqual({ status: 400, body: { code: 80004, message: 'No users with DiscordTag exist' } });
    // Game A's own server and players use it as before.
    expect((await api(platform, 'PUT', `/api/v10/lobbies/${t.lobbyA}/members/${provisional}`, { token: t.botA, body: {} })).status).toBe(200);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${provisional}`, { token: await t.bearer('alice', t.appA), body: {} })).status).toBe(204);
  });
});

describe("issue 25 §1 (attacker): another game hearing that the player accepted an invite", () => {
  it("ACTIVITY_INVITE_ACCEPTED for game B's invite reaches the player's game B sessions and own client, never game A's session", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const hosting = {
      since: null,
      afk: false,
      status: 'online' as const,
      activities: [{ name: 'Game B', type: 0, application_id: t.appB, party: { id: 'b-party', size: [1, 4] as [number, number] }, secrets: { join: 'b-secret' } }],
    };
    await GatewayClient.ready(platform.gatewayUrl, await t.bearer('bob', t.appB), hosting as never);
    const dm = (await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token: t.userToken('bob'), body: { recipient_id: t.ids.alice } })).body;
    const invite = (await api<{ id: string }>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: await t.bearer('bob', t.appB), body: { activity: { type: 1, party_id: 'b-party' } } })).body;
    const gameA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appA))).client;
    const gameB = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appB))).client;
    const client = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    const joined = await api(platform, 'POST', `/api/v10/users/${t.ids.bob}/activities/${t.appB}/join`, { token: t.userToken('alice'), body: { message_id: invite.id } });
    expect(joined.body).toEqual({ secret: 'b-secret' });
    expect((await gameB.next((m) => m.t === 'ACTIVITY_INVITE_ACCEPTED')).d).toMatchObject({ application_id: t.appB, message_id: invite.id });
    expect((await client.next((m) => m.t === 'ACTIVITY_INVITE_ACCEPTED')).d).toMatchObject({ application_id: t.appB });
    await gameA.barrier();
    expect(gameA.dispatches('ACTIVITY_INVITE_ACCEPTED')).toEqual([]);
  });
});

describe("issue 25 §1 (attacker): one game's message nonces swallowing another game's messages", () => {
  it("game B's message with the nonce game A used is sent, as game B's (enforce_nonce dedupes within one game and channel)", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const dm = (await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token: t.userToken('alice'), body: { recipient_id: t.ids.bob } })).body;
    const post = async (token: string, content: string) =>
      (await api<{ id: string; application_id?: string; content: string }>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token, body: { content, nonce: '1', enforce_nonce: true } })).body;
    const fromA = await post(await t.bearer('alice', t.appA), 'from game A');
    const fromB = await post(await t.bearer('alice', t.appB), 'from game B');
    expect(fromB.id).not.toBe(fromA.id);
    expect(fromB).toMatchObject({ content: 'from game B', application_id: t.appB });
    // Game A's retry is still answered with its first message.
    expect((await post(await t.bearer('alice', t.appA), 'retry')).id).toBe(fromA.id);
  });
});

describe('issue 25 §1.5 (ban): a banned account in lobbies, DMs and relationships', () => {
  it("a ban takes the account out of every lobby (LOBBY_MEMBER_REMOVE to the others, once), and a game's server cannot add it back (404 10013); removing it is still allowed", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const carolB = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('carol', t.appB))).client;
    expect((await api(platform, 'POST', `/_emulator/users/${t.ids.bob}/ban`, { admin: true, body: {} })).status).toBe(200);
    const removed = await carolB.next((m) => m.t === 'LOBBY_MEMBER_REMOVE');
    expect(removed.d).toEqual({ lobby_id: t.lobbyB, member: { id: t.ids.bob } });
    const lobby = await api<{ members: { id: string }[] }>(platform, 'GET', `/api/v10/lobbies/${t.lobbyB}`, { token: t.botB });
    expect(lobby.body.members.map((member) => member.id).sort()).toEqual([t.ids.alice, t.ids.carol].sort());
    await carolB.barrier();
    expect(carolB.dispatches('LOBBY_MEMBER_REMOVE')).toHaveLength(1);

    const unknownUser = { status: 404, body: { code: 10013, message: 'Unknown User' } };
    const tries: [string, string, unknown][] = [
      ['PUT', `/api/v10/lobbies/${t.lobbyB}/members/${t.ids.bob}`, {}],
      ['POST', '/api/v10/lobbies', { members: [{ id: t.ids.bob }] }],
      ['PATCH', `/api/v10/lobbies/${t.lobbyB}`, { members: [{ id: t.ids.bob }] }],
      ['POST', `/api/v10/lobbies/${t.lobbyB}/members/bulk`, [{ id: t.ids.bob }]],
      ['POST', `/api/v10/lobbies/${t.lobbyB}/members/${t.ids.bob}/invites`, {}],
    ];
    for (const [method, path, body] of tries) {
      const answer = await api(platform, method, path, { token: t.botB, body });
      expect({ status: answer.status, body: answer.body }, `${method} ${path}`).toEqual(unknownUser);
    }
    // Naming the account to take it out stays allowed (nothing to do: it is out already).
    expect((await api(platform, 'DELETE', `/api/v10/lobbies/${t.lobbyB}/members/${t.ids.bob}`, { token: t.botB })).status).toBe(204);
    expect((await api(platform, 'POST', `/api/v10/lobbies/${t.lobbyB}/members/bulk`, { token: t.botB, body: [{ id: t.ids.bob, remove_member: true }] })).status).toBe(200);
    // Lifted, the account can be added again.
    expect((await api(platform, 'DELETE', `/_emulator/users/${t.ids.bob}/ban`, { admin: true })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/lobbies/${t.lobbyB}/members/${t.ids.bob}`, { token: t.botB, body: {} })).status).toBe(200);
  });

  it('DMs to a banned account cannot be opened or posted to (403 50007); friend and game friend requests to it answer as for an unknown user, a block still goes through', async () => {
    const t = await setUpTenants();
    const { platform } = t;
    expect((await api(platform, 'POST', `/_emulator/users/${t.ids.bob}/ban`, { admin: true, body: {} })).status).toBe(200);
    const cannotMessage = { status: 403, body: { code: 50007, message: 'Cannot send messages to this user' } };
    const dmTries: [string, string, string, unknown][] = [
      [t.userToken('carol'), 'POST', `/api/v10/channels/${t.dm}/messages`, { content: 'still there?' }],
      [await t.bearer('carol', t.appB), 'POST', `/api/v10/channels/${t.dm}/messages`, { content: 'still there?' }],
      [t.userToken('carol'), 'POST', '/api/v10/users/@me/channels', { recipient_id: t.ids.bob }],
      [await t.bearer('mallory', t.appA), 'POST', '/api/v10/users/@me/channels', { recipient_id: t.ids.bob }],
    ];
    for (const [token, method, path, body] of dmTries) {
      const answer = await api(platform, method, path, { token, body });
      expect({ status: answer.status, body: answer.body }, `${method} ${path}`).toEqual(cannotMessage);
    }
    const malloryA = await t.bearer('mallory', t.appA);
    const unknownUser = { status: 404, body: { code: 10013, message: 'Unknown User' } };
    for (const [token, path] of [
      [t.userToken('mallory'), `/api/v10/users/@me/relationships/${t.ids.bob}`],
      [malloryA, `/api/v10/users/@me/game-relationships/${t.ids.bob}`],
    ] as const) {
      const answer = await api(platform, 'PUT', path, { token, body: {} });
      expect({ status: answer.status, body: answer.body }, path).toEqual(unknownUser);
    }
    const noSuchName = { status: 400, body: { code: 80004, message: 'No users with DiscordTag exist' } };
    for (const path of ['/api/v10/users/@me/relationships', '/api/v10/users/@me/game-relationships']) {
      const answer = await api(platform, 'POST', path, { token: malloryA, body: { username: 'bob' } });
      expect({ status: answer.status, body: answer.body }, path).toEqual(noSuchName);
    }
    // A block needs nothing of the banned account: it goes through.
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.bob}`, { token: t.userToken('carol'), body: { type: 2 } })).status).toBe(204);
    // Lifted, the account is reachable again.
    expect((await api(platform, 'DELETE', `/_emulator/users/${t.ids.bob}/ban`, { admin: true })).status).toBe(204);
    expect((await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.bob}`, { token: t.userToken('mallory'), body: {} })).status).toBe(204);
  });
});

describe("issue 25 §1 (attacker): one game exhausting another game's unauthenticated buckets", () => {
  it("looking up game A's lobby invites until 429 leaves game B's invites their own bucket (GET /invites/{code})", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    // Game A's server makes a lobby alice may link to the guild's channel, and an invite for her.
    const lobbyA = (await api<{ id: string }>(platform, 'POST', '/api/v10/lobbies', { token: t.botA, body: { members: [{ id: t.ids.alice, flags: 1 }] } })).body.id;
    const linked = await api(platform, 'PATCH', `/api/v10/lobbies/${lobbyA}/channel-linking`, { token: await t.bearer('alice', t.appA), body: { channel_id: SEED.channels.general } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const inviteA = await api<{ code: string }>(platform, 'POST', `/api/v10/lobbies/${lobbyA}/members/${t.ids.alice}/invites`, { token: t.botA, body: {} });
    expect(inviteA.status, JSON.stringify(inviteA.body)).toBe(200);
    const { count } = platform.limits.http.partnerSdk;
    for (let i = 0; i < count; i += 1) await api(platform, 'GET', `/api/v10/invites/${inviteA.body.code}`);
    expect((await api(platform, 'GET', `/api/v10/invites/${inviteA.body.code}`)).status).toBe(429);
    const theirs = await api(platform, 'GET', `/api/v10/invites/${t.inviteForBob}`);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.headers.get('x-ratelimit-remaining')).toBe(String(count - 1));
  });

  it('calls naming game A (token exchange, unmerge, child token) until 429 leave the calls naming game B their own bucket', async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const { count } = platform.limits.http.partnerSdk;
    const credentials = (app: string) => ({ client_id: app, external_auth_type: 'OIDC', external_auth_token: 'not-a-real-token' });
    const calls: [string, (app: string) => unknown][] = [
      ['/api/v10/partner-sdk/token', credentials],
      ['/api/v10/partner-sdk/provisional-accounts/unmerge', credentials],
      ['/api/v10/partner-sdk/child-token', (app) => ({ parent_access_token: 'not-a-real-token', child_application_id: app })],
    ];
    for (let i = 0; i < count; i += 1) {
      const [path, body] = calls[i % calls.length] as [string, (app: string) => unknown];
      await api(platform, 'POST', path, { body: body(t.appA) });
    }
    for (const [path, body] of calls) {
      expect((await api(platform, 'POST', path, { body: body(t.appA) })).status, path).toBe(429);
    }
    // Refused for their made-up tokens, but answered: not the limiter's 429.
    for (const [path, body] of calls) {
      const theirs = await api(platform, 'POST', path, { body: body(t.appB) });
      expect(theirs.status, `${path} ${JSON.stringify(theirs.body)}`).not.toBe(429);
    }
  });
});

describe("issue 25 §1 (attacker): a gateway session outliving its token", () => {
  it('a session identified with an access token ends (4004) when a refresh replaces the token, and when it is revoked; a session on another token stays', async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const app = SEED.appId;
    const scope = 'identify sdk.social_layer';
    const first = await obtainTokens(platform, t.userToken('alice'), { client_id: app, scope });
    const other = await obtainTokens(platform, t.userToken('alice'), { client_id: app, scope });
    const onFirst = (await GatewayClient.ready(platform.gatewayUrl, `Bearer ${first.access_token}`)).client;
    const onOther = (await GatewayClient.ready(platform.gatewayUrl, `Bearer ${other.access_token}`)).client;
    const refreshed = await postForm<{ access_token: string }>(platform, '/api/v10/oauth2/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app });
    expect(refreshed.status).toBe(200);
    // The old token is dead on HTTP, and so is the session it opened.
    expect((await api(platform, 'GET', '/api/v10/users/@me', { token: `Bearer ${first.access_token}` })).status).toBe(401);
    expect((await onFirst.closed).code).toBe(GatewayClose.AuthenticationFailed);
    await onOther.barrier();
    // The new token opens a session; revoking it ends that one (and the grant's others) with 4004.
    const onNew = (await GatewayClient.ready(platform.gatewayUrl, `Bearer ${refreshed.body.access_token}`)).client;
    expect((await postForm(platform, '/api/v10/oauth2/token/revoke', { token: refreshed.body.access_token, client_id: app })).status).toBe(200);
    expect((await onNew.closed).code).toBe(GatewayClose.AuthenticationFailed);
    expect((await onOther.closed).code).toBe(GatewayClose.AuthenticationFailed);
  });

  it('a session lives on the token it last resumed with, and a detached one cannot be resumed once its token was refreshed', async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const app = SEED.appId;
    const scope = 'identify sdk.social_layer';
    const [first, second] = [await obtainTokens(platform, t.userToken('carol'), { client_id: app, scope }), await obtainTokens(platform, t.userToken('carol'), { client_id: app, scope })];
    const detachedFrom = async (client: GatewayClient, sessionId: string): Promise<void> => {
      client.terminate();
      await serverObserves(() => platform.sessions().some((session) => session.session_id === sessionId && !session.connected), 'the session detached');
    };
    // Identified with the first token, resumed with the second: refreshing the second ends it.
    const { client, ready } = await GatewayClient.ready(platform.gatewayUrl, `Bearer ${first.access_token}`);
    await detachedFrom(client, ready.session_id);
    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token: `Bearer ${second.access_token}`, session_id: ready.session_id, seq: client.seq });
    await resumed.next(isDispatch('RESUMED'));
    expect((await postForm(platform, '/api/v10/oauth2/token', { grant_type: 'refresh_token', refresh_token: second.refresh_token, client_id: app })).status).toBe(200);
    expect((await resumed.closed).code).toBe(GatewayClose.AuthenticationFailed);

    // Detached, then its token refreshed: the new token cannot bring the session back.
    const again = await GatewayClient.ready(platform.gatewayUrl, `Bearer ${first.access_token}`);
    await detachedFrom(again.client, again.ready.session_id);
    const refreshed = await postForm<{ access_token: string }>(platform, '/api/v10/oauth2/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app });
    const late = await GatewayClient.connect(platform.gatewayUrl);
    late.send(6, { token: `Bearer ${refreshed.body.access_token}`, session_id: again.ready.session_id, seq: again.client.seq });
    expect((await late.next(isOp(9))).d).toBe(false);
  });
});
