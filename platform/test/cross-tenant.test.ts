import { describe, expect, it } from 'vitest';
import { accessProblems, type ParamKind } from '../src/access/route-access.js';
import type { Route } from '../src/http/router.js';
import { SEED } from '../src/index.js';
import { GameRelationshipEvent, GatewayEvent, LobbyEvent, OAuthGatewayEvent, type GatewayPayload, type Lobby, type LobbyMessage, type PlatformMessage } from '../src/wire/index.js';
import { GatewayClient } from './support/gateway-client.js';
import { api, type ApiResponse } from './support/harness.js';
import { startWebhookReceiver } from './support/oauth.js';
import { registeredRoutes, SECRETS, setUpTenants, type Player, type Tenants } from './support/tenants.js';

/**
 * Issue 25 §1: the cross-tenant suite. Two applications (A, the attackers'; B, the victims'),
 * players alice (who plays both games and is in B's lobby), bob and carol (B's players, with a
 * DM between them) and mallory (in nothing). Every registered route is tried from the other
 * side: A's bot, alice's and mallory's A tokens, alice's and mallory's user tokens, with its
 * params naming B's and bob's things (by what the route declares they name); then every
 * dispatch and webhook of B's side is made while the attackers listen.
 */

const NO_LOBBY = '1000000000000000001';
const SECRET_TEXT = Object.values(SECRETS);

interface Attacker {
  readonly name: string;
  readonly token: string | undefined;
  /** Whether the attacker is outside what a `guild` param names (alice is in the seeded guild). */
  readonly outsideGuild: boolean;
  /** A player of game B itself (not in B's lobby): B's lobbies exist for them (403 50001 when not a member). */
  readonly sameApplication?: boolean;
}

/** The attackers whose credentials a route takes. */
async function attackersFor(t: Tenants, route: Route): Promise<Attacker[]> {
  const player = async (who: Player): Promise<Attacker[]> => {
    const list: Attacker[] = [];
    if (route.auth === 'user') list.push({ name: `${who}'s user token`, token: t.userToken(who), outsideGuild: who === 'mallory' });
    if (route.auth === 'bearer' || route.auth === 'bearer-or-bot' || (route.auth === 'user' && route.bearerScopes !== undefined)) {
      list.push({ name: `${who}'s game-A token`, token: await t.bearer(who, t.appA), outsideGuild: who === 'mallory' });
    }
    return list;
  };
  if (route.auth === 'none') return [{ name: 'anyone', token: undefined, outsideGuild: true }];
  const bot: Attacker[] = route.auth === 'bot' || route.auth === 'bearer-or-bot' ? [{ name: "game A's bot", token: t.botA, outsideGuild: true }] : [];
  const playerOfB: Attacker[] = route.auth === 'bearer' || route.auth === 'bearer-or-bot' || (route.auth === 'user' && route.bearerScopes !== undefined) ? [{ name: "mallory's game-B token", token: await t.bearer('mallory', t.appB), outsideGuild: true, sameApplication: true }] : [];
  return [...bot, ...(await player('alice')), ...(await player('mallory')), ...playerOfB];
}

/** B's or bob's thing of each kind; a kind without one fails the suite (a new kind needs a victim here). */
function victimOf(t: Tenants, route: Route, kind: ParamKind): string {
  const inLobby = Object.values(route.access ?? {}).some((declared) => declared.startsWith('lobby'));
  const victims: Record<ParamKind, string> = {
    lobby: t.lobbyB,
    'lobby-or-gone': t.lobbyB,
    message: inLobby ? t.lobbyMessageB : t.dmMessage,
    'dm-channel': t.dm,
    channel: t.dm,
    guild: SEED.guildId,
    user: t.ids.bob,
    'reachable-user': t.ids.bob,
    application: t.appB,
    invite: t.inviteForBob,
    grant: t.grantOfBob,
    asset: 'icon.png',
  };
  const victim = victims[kind];
  if (victim === undefined) throw new Error(`no victim for a param of kind ${kind}: add one to the cross-tenant suite`);
  return victim;
}

/** A body that gets past parsing where one is needed, so that only access decides. */
const BODIES: Readonly<Record<string, unknown>> = {
  'POST /lobbies/:id/messages': { content: 'from the other side' },
  'PATCH /lobbies/:id/messages/:message': { content: 'edited from the other side' },
  'PUT /lobbies/:id/messages/:message/moderation-metadata': { flagged: 'by A' },
  'POST /lobbies/:id/members/bulk': [{ id: SEED.users.dave }],
  'PATCH /lobbies/:id': { metadata: { where: 'changed by A' } },
  'PATCH /lobbies/:id/channel-linking': { channel_id: null },
  'POST /channels/:id/messages': { content: 'from the other side' },
  'PATCH /channels/:id/messages/:message': { content: 'edited from the other side' },
  'PUT /partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata': { flagged: 'by A' },
};

function pathOf(route: Route, values: Readonly<Record<string, string>>): string {
  return route.pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? encodeURIComponent(values[segment.slice(1)] as string) : segment))
    .join('/');
}

function send(t: Tenants, route: Route, attacker: Attacker, values: Readonly<Record<string, string>>): Promise<ApiResponse> {
  const key = `${route.method} ${route.pattern}`;
  const body = BODIES[key] ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
  const prefix = route.pattern.startsWith('/app-') ? '' : '/api/v10';
  return api(t.platform, route.method, `${prefix}${pathOf(route, values)}`, { ...(attacker.token !== undefined ? { token: attacker.token } : {}), ...(body !== undefined ? { body } : {}) });
}

/**
 * Every dispatch the emulator sends, and why it is or is not another tenant's data. `tenant`:
 * it carries an application's or two players' data, and the second test makes it on B's side
 * and checks that no one else hears it. A dispatch added later fails the suite until it is
 * placed here.
 */
const DISPATCHES: Readonly<Record<string, 'tenant' | string>> = {
  ...Object.fromEntries(Object.values(LobbyEvent).map((event) => [event, 'tenant'])),
  ...Object.fromEntries(Object.values(GameRelationshipEvent).map((event) => [event, 'tenant'])),
  [GatewayEvent.MessageCreate]: 'tenant',
  [GatewayEvent.MessageUpdate]: 'tenant',
  [GatewayEvent.MessageDelete]: 'tenant',
  [GatewayEvent.ChannelCreate]: 'tenant',
  [GatewayEvent.RelationshipAdd]: 'tenant',
  [GatewayEvent.RelationshipRemove]: 'tenant',
  [GatewayEvent.Ready]: "the session's own user",
  [GatewayEvent.Resumed]: "the session's own",
  [GatewayEvent.UserUpdate]: "the session's own user",
  [GatewayEvent.RateLimited]: "the session's own requests",
  [GatewayEvent.PresenceUpdate]: "friends' presence: platform-wide, to the friends the player chose",
  [GatewayEvent.GuildMembersChunk]: "an answer to the session's own request, of a guild it is in",
  [GatewayEvent.ChannelInfo]: "an answer to the session's own request, of a guild it is in",
  [GatewayEvent.SoundboardSounds]: "an answer to the session's own request, of a guild it is in",
  [GatewayEvent.GuildUpdate]: "the guild's members: the player's own guilds",
  [GatewayEvent.VoiceStateUpdate]: "the guild's members: the player's own guilds (voice-channels.test.ts)",
  [GatewayEvent.VoiceChannelStatusUpdate]: "the guild's members: the player's own guilds (voice-channels.test.ts)",
  [GatewayEvent.VoiceChannelStartTimeUpdate]: "the guild's members: the player's own guilds (voice-channels.test.ts)",
  [GatewayEvent.VoiceSpeakingUpdate]: "the users connected to the voice channel (voice-speaking.test.ts)",
  [GatewayEvent.ActivityInviteAccepted]: "the player's own other sessions, of the invite's game and their own client (attacker.test.ts)",
  [OAuthGatewayEvent.GrantCreate]: "the player's own grants, to their own client",
  [OAuthGatewayEvent.GrantDelete]: "the player's own grants, to their own client",
};

/** Kinds that name a tenant's thing: an outsider is refused. */
const PRIVATE: readonly ParamKind[] = ['dm-channel', 'channel', 'grant'];

describe("issue 25 §1: cross-tenant suite (another application's and another player's side)", () => {
  it('every registered route, tried with B’s and bob’s things by A’s bot, A’s tokens and other players’ tokens, leaks nothing and changes nothing', async () => {
    const t = await setUpTenants();
    const { api: apiTable, root } = await registeredRoutes();
    const routes = [...apiTable, ...root].filter((route) => route.auth !== 'admin');
    // The suite fills each param by what the route declares it names: every route declares, and
    // the declarations agree with what the paths say (a lobby's id is a lobby, a channel's a channel).
    expect(accessProblems(routes)).toEqual([]);
    const convention: readonly [RegExp, readonly ParamKind[]][] = [
      [/^\/lobbies\/:id/, ['lobby', 'lobby-or-gone']],
      [/^\/channels\/:c?id/, ['dm-channel', 'channel']],
      [/^\/guilds\/:id/, ['guild']],
    ];
    for (const route of routes) {
      for (const [prefix, allowed] of convention) {
        if (!prefix.test(route.pattern)) continue;
        const first = route.pattern.split('/')[2]?.slice(1) as string;
        expect(allowed, `${route.method} ${route.pattern}`).toContain(route.access?.[first]);
      }
    }
    const tried = new Set<string>();
    const failures: string[] = [];

    for (const route of routes) {
      const access = route.access ?? {};
      const kinds = Object.values(access);
      const values = Object.fromEntries(Object.entries(access).map(([param, kind]) => [param, victimOf(t, route, kind)]));
      for (const attacker of await attackersFor(t, route)) {
        // Alice is in the seeded guild: its routes are hers to use.
        if (kinds.includes('guild') && !attacker.outsideGuild) continue;
        const where = `${route.method} ${route.pattern} as ${attacker.name}`;
        tried.add(`${route.method} ${route.pattern}`);
        const answer = await send(t, route, attacker, values);
        const text = JSON.stringify(answer.body ?? null);
        for (const secret of SECRET_TEXT) if (text.includes(secret)) failures.push(`${where}: the answer shows "${secret}"`);
        if (answer.status >= 500) failures.push(`${where}: ${answer.status}`);
        if (kinds.some((kind) => kind.startsWith('lobby')) && attacker.sameApplication === true) {
          // B's own player outside the lobby: refused or a no-op (leaving a lobby one is not in), never shown.
          if (answer.status < 400 && answer.status !== 204) failures.push(`${where}: ${answer.status} ${text}`);
        } else if (kinds.some((kind) => kind.startsWith('lobby'))) {
          // Another application's lobby answers exactly as one that never existed.
          const lobbyParam = Object.entries(access).find(([, kind]) => kind.startsWith('lobby'))?.[0] as string;
          const none = await send(t, route, attacker, { ...values, [lobbyParam]: NO_LOBBY });
          if (answer.status !== none.status || JSON.stringify(answer.body) !== JSON.stringify(none.body)) {
            failures.push(`${where}: ${answer.status} ${text}, but a lobby that does not exist: ${none.status} ${JSON.stringify(none.body)}`);
          }
        } else if (kinds.some((kind) => PRIVATE.includes(kind) || kind === 'guild') && ![401, 403, 404].includes(answer.status)) {
          failures.push(`${where}: ${answer.status} ${text} (another player's thing must be refused)`);
        } else if (kinds.includes('invite') && route.method !== 'GET' && attacker.name.includes('game-A') && (answer.status !== 404 || (answer.body as { code?: number }).code !== 10006)) {
          // An invite of B's lobby, to a game-A token: as a code that does not exist.
          failures.push(`${where}: ${answer.status} (an invite of another application's lobby)`);
        } else if (kinds.includes('invite') && route.method !== 'GET' && !attacker.name.includes('game-A') && answer.status !== 403) {
          failures.push(`${where}: ${answer.status} (an invite made for bob)`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Every registered route was tried: one added later is tried too, by what it declares.
    expect(routes.map((route) => `${route.method} ${route.pattern}`).filter((key) => !tried.has(key))).toEqual([]);

    // B's and bob's things are as they were.
    const lobby = await api<Lobby>(t.platform, 'GET', `/api/v10/lobbies/${t.lobbyB}`, { token: t.botB });
    expect(lobby.body).toMatchObject({ metadata: { where: SECRETS.lobbyMetadata }, linked_channel: { id: SEED.channels.general } });
    expect(lobby.body.members.map((member) => member.id).sort()).toEqual([t.ids.alice, t.ids.bob, t.ids.carol].sort());
    const lobbyMessages = await api<LobbyMessage[]>(t.platform, 'GET', `/api/v10/lobbies/${t.lobbyB}/messages`, { token: t.botB });
    expect(lobbyMessages.body).toEqual([expect.objectContaining({ id: t.lobbyMessageB, content: SECRETS.lobbyMessage })]);
    expect(lobbyMessages.body[0]).not.toHaveProperty('moderation_metadata');
    expect(lobbyMessages.body[0]).not.toHaveProperty('edited_timestamp');
    const dmMessages = await api<PlatformMessage[]>(t.platform, 'GET', `/api/v10/channels/${t.dm}/messages`, { token: t.userToken('carol') });
    expect(dmMessages.body.map((message) => [message.id, message.content, message.edited_timestamp])).toEqual([[t.dmMessage, SECRETS.dmMessage, undefined]]);
    expect((await api(t.platform, 'GET', `/api/v10/invites/${t.inviteForBob}`)).status).toBe(200);
    const grants = await api<{ id: string }[]>(t.platform, 'GET', '/api/v10/oauth2/tokens', { token: t.userToken('bob') });
    expect(grants.body.some((grant) => grant.id === t.grantOfBob)).toBe(true);
  });

  it("every dispatch and webhook of B's side reaches only B's sessions and B's server: A's game sessions and other players hear nothing", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const listen = async (token: string) => (await GatewayClient.ready(platform.gatewayUrl, token)).client;
    const attackers = {
      "alice's game-A session": await listen(await t.bearer('alice', t.appA)),
      "mallory's game-A session": await listen(await t.bearer('mallory', t.appA)),
      "mallory's game-B session": await listen(await t.bearer('mallory', t.appB)),
      "mallory's own client": await listen(t.userToken('mallory')),
    };
    const bobB = await t.bearer('bob', t.appB);
    const carolB = await t.bearer('carol', t.appB);
    const aliceB = await listen(await t.bearer('alice', t.appB));
    const aliceDesktop = await listen(t.userToken('alice'));
    const bobDesktop = await listen(t.userToken('bob'));
    const bobGameB = await listen(bobB);
    // The webhooks from now on: every token is minted already (no APPLICATION_AUTHORIZED after the PING).
    const [hookA, hookB] = [await startWebhookReceiver(), await startWebhookReceiver()];
    for (const [app, hook] of [
      [t.appA, hookA],
      [t.appB, hookB],
    ] as const) {
      await api(platform, 'PATCH', `/_emulator/apps/${app}`, { admin: true, body: { webhook_events_url: hook.url } });
      await hook.waitFor(1); // the PING
    }

    // Every lobby event, in a lobby of B's with alice in it.
    const l2 = (await api<Lobby>(platform, 'POST', '/api/v10/lobbies', { token: t.botB, body: { members: [{ id: t.ids.alice }], metadata: { where: SECRETS.lobbyMetadata } } })).body;
    await api(platform, 'PUT', `/api/v10/lobbies/${l2.id}/members/${t.ids.carol}`, { token: t.botB, body: {} });
    await api(platform, 'PUT', `/api/v10/lobbies/${l2.id}/members/${t.ids.carol}`, { token: t.botB, body: { metadata: { role: 'scout' } } });
    await api(platform, 'PATCH', `/api/v10/lobbies/${l2.id}`, { token: t.botB, body: { metadata: { where: SECRETS.lobbyMetadata, phase: '2' } } });
    const said = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${l2.id}/messages`, { token: carolB, body: { content: SECRETS.lobbyMessage } })).body;
    await api(platform, 'PATCH', `/api/v10/lobbies/${l2.id}/messages/${said.id}`, { token: carolB, body: { content: `${SECRETS.lobbyMessage}!` } });
    await api(platform, 'PUT', `/api/v10/lobbies/${l2.id}/messages/${said.id}/moderation-metadata`, { token: t.botB, body: { verdict: 'ok' } });
    await api(platform, 'DELETE', `/api/v10/lobbies/${l2.id}/messages/${said.id}`, { token: t.botB });
    await api(platform, 'DELETE', `/api/v10/lobbies/${l2.id}/members/${t.ids.carol}`, { token: t.botB });
    await api(platform, 'DELETE', `/api/v10/lobbies/${l2.id}`, { token: t.botB });
    // Bob's and carol's DM (a game DM of B's), and their game relationship in B.
    const dm = (await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${t.dm}/messages`, { token: bobB, body: { content: SECRETS.dmMessage } })).body;
    await api(platform, 'PATCH', `/api/v10/channels/${t.dm}/messages/${dm.id}`, { token: bobB, body: { content: `${SECRETS.dmMessage}!` } });
    await api(platform, 'PUT', `/api/v10/partner-sdk/dms/${t.ids.bob}/${t.ids.carol}/messages/${dm.id}/moderation-metadata`, { token: t.botB, body: { verdict: 'ok' } });
    await api(platform, 'DELETE', `/api/v10/channels/${t.dm}/messages/${dm.id}`, { token: bobB });
    await api(platform, 'PUT', `/api/v10/users/@me/game-relationships/${t.ids.carol}`, { token: bobB, body: {} });
    await api(platform, 'DELETE', `/api/v10/users/@me/game-relationships/${t.ids.bob}`, { token: carolB });
    // A new DM of bob's (CHANNEL_CREATE), and bob's and carol's own relationship: unfriended, asked again, accepted.
    await api(platform, 'POST', '/api/v10/users/@me/channels', { token: bobB, body: { recipient_id: SEED.users.dave } });
    await api(platform, 'DELETE', `/api/v10/users/@me/relationships/${t.ids.carol}`, { token: t.userToken('bob') });
    await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.carol}`, { token: t.userToken('bob'), body: {} });
    await api(platform, 'PUT', `/api/v10/users/@me/relationships/${t.ids.bob}`, { token: t.userToken('carol'), body: {} });

    // Alice's game-B session heard every lobby event (the control), and so did her own client.
    const lobbyEvents: readonly string[] = Object.values(LobbyEvent);
    const seen = (client: GatewayClient) => new Set(client.messages.map((message) => message.t));
    await aliceB.barrier();
    await aliceDesktop.barrier();
    for (const event of lobbyEvents) {
      expect(seen(aliceB).has(event), `alice's game-B session: ${event}`).toBe(true);
      expect(seen(aliceDesktop).has(event), `alice's own client: ${event}`).toBe(true);
    }
    // Every dispatch the emulator knows is placed; the tenant ones are the ones watched.
    const known = [...Object.values(GatewayEvent), ...lobbyEvents, ...Object.values(GameRelationshipEvent), ...Object.values(OAuthGatewayEvent)];
    expect(known.filter((event) => DISPATCHES[event] === undefined)).toEqual([]);
    const watched = new Set(Object.entries(DISPATCHES).flatMap(([event, kind]) => (kind === 'tenant' ? [event] : [])));
    // Each watched dispatch was made on B's side: bob's own sessions heard them all.
    await bobDesktop.barrier();
    await bobGameB.barrier();
    const heardByVictims = new Set([...seen(aliceB), ...seen(bobDesktop), ...seen(bobGameB)]);
    expect([...watched].filter((event) => !heardByVictims.has(event))).toEqual([]);
    for (const [name, client] of Object.entries(attackers)) {
      await client.barrier();
      const heard = client.messages.filter((message: GatewayPayload) => typeof message.t === 'string' && watched.has(message.t));
      expect(heard.map((message) => message.t), name).toEqual([]);
      for (const secret of SECRET_TEXT) expect(JSON.stringify(client.messages), name).not.toContain(secret);
      client.close();
    }

    // B's server heard its events; A's server heard nothing of B's.
    await platform.webhooksIdle();
    const types = (hook: typeof hookA) => hook.received.slice(1).map((received) => (JSON.parse(received.body) as { event?: { type?: string } }).event?.type);
    expect(types(hookB)).toEqual(expect.arrayContaining(['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE', 'LOBBY_MESSAGE_DELETE', 'GAME_DIRECT_MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_UPDATE', 'GAME_DIRECT_MESSAGE_DELETE']));
    expect(types(hookA)).toEqual([]);
    for (const client of [aliceB, aliceDesktop, bobDesktop, bobGameB]) client.close();
  });
});

describe("issue 28 §1: a game's status and join requests stay with its own player and application", () => {
  it("a game sets only its own player's status; a join request is its token's application's, to a friend playing that application only", async () => {
    const t = await setUpTenants();
    const { platform } = t;
    const hosting = (app: string) => ({ name: 'Game', type: 0, application_id: app, party: { id: 'party-b', size: [1, 4] as [number, number] }, secrets: { join: SECRETS.dmMessage } });
    // bob's own client plays B with a joinable party; alice's is online.
    const bobDesktop = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('bob'), { since: null, activities: [hosting(t.appB)], status: 'online', afk: false })).client;
    const aliceDesktop = (await GatewayClient.ready(platform.gatewayUrl, t.userToken('alice'))).client;
    // mallory's and alice's game-A sessions choose statuses: each only for its own player.
    const malloryA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('mallory', t.appA))).client;
    const aliceA = (await GatewayClient.ready(platform.gatewayUrl, await t.bearer('alice', t.appA))).client;
    malloryA.send(3, { since: null, activities: [], status: 'invisible', afk: false });
    aliceA.send(3, { since: null, activities: [], status: 'dnd', afk: false });
    await malloryA.barrier();
    await aliceA.barrier();
    expect(platform.presence(t.ids.bob)).toMatchObject({ status: 'online', activities: [expect.objectContaining({ application_id: t.appB })] });
    expect(platform.presence(t.ids.alice)?.status).toBe('dnd');
    expect(JSON.stringify(platform.presence(t.ids.bob))).not.toContain(SECRETS.dmMessage);

    const askBob = async (token: string, body: Record<string, unknown>) => {
      const channel = (await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token, body: { recipient_id: t.ids.bob } })).body;
      return api(platform, 'POST', `/api/v10/channels/${channel.id}/messages`, { token, body: { activity: { type: 5 }, ...body } });
    };
    // alice's game A cannot ask for B (the body's application is refused), nor for A (bob plays B only).
    expect((await askBob(await t.bearer('alice', t.appA), { application_id: t.appB })).status).toBe(400);
    expect((await askBob(await t.bearer('alice', t.appA), {})).status).toBe(400);
    // mallory plays B but is no friend of bob: refused; alice (a friend) playing B may ask.
    expect(await askBob(await t.bearer('mallory', t.appB), {})).toMatchObject({ status: 403, body: { code: 50001 } });
    expect((await askBob(await t.bearer('alice', t.appB), {})).status).toBe(200);
    for (const client of [bobDesktop, aliceDesktop, malloryA, aliceA]) client.close();
  });
});
