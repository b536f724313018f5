import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { createRequestHandler } from '../src/http/handler.js';
import type { Route } from '../src/http/router.js';
import { DEFAULT_LIMITS } from '../src/support/limits.js';
import { SILENT_LOGGER } from '../src/support/logger.js';
import type { LobbyMessage } from '../src/wire/index.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, serverObserves } from './support/harness.js';
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
