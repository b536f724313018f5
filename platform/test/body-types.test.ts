import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import type { Lobby, LobbyMessage, PlatformChannel, PlatformMessage } from '../src/wire/index.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';

const APP = SEED.appId;
const FAST = { count: 10_000, windowMs: 1000 };

interface World {
  readonly platform: PlatformServer;
  /** alice's and bob's game tokens (Bearer, sdk.social_layer), the app's bot token, alice's user token. */
  readonly alice: string;
  readonly bob: string;
  readonly bot: string;
  readonly user: string;
  /** A lobby of alice and bob, made by the game; a message of alice's in it. */
  readonly lobby: Lobby;
  readonly lobbyMessage: LobbyMessage;
  /** The DM of alice and bob, and a message alice's game sent there. */
  readonly dm: PlatformChannel;
  readonly dmMessage: PlatformMessage;
}

async function world(): Promise<World> {
  const platform = await startTestPlatform({
    limits: { http: { lobbyJoin: FAST, lobbyMessage: FAST, partnerSdk: FAST, relationshipChange: FAST, messageCreate: FAST } },
  });
  const game = async (who: 'alice' | 'bob'): Promise<string> =>
    `Bearer ${(await obtainTokens(platform, platform.loginToken(who), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
  const [alice, bob] = [await game('alice'), await game('bob')];
  const bot = `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
  const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: alice, body: { secret: 'types', lobby_metadata: { map: 'harbour' } } })).body;
  await api(platform, 'PUT', '/api/v10/lobbies', { token: bob, body: { secret: 'types' } });
  const lobbyMessage = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token: alice, body: { content: 'gg' } })).body;
  const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token: alice, body: { recipient_id: SEED.users.bob } })).body;
  const dmMessage = (await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: alice, body: { content: 'hi' } })).body;
  return { platform, alice, bob, bot, user: platform.loginToken('alice'), lobby, lobbyMessage, dm, dmMessage };
}

/** The `_errors` of the field at `path` in a 50035 body (the root's for an empty path). */
function fieldErrors(body: unknown, path: readonly string[]): unknown {
  let node = (body as { errors?: unknown }).errors;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
  return (node as { _errors?: unknown } | undefined)?._errors;
}

async function expectInvalid(w: World, method: string, path: string, token: string, body: unknown, field: readonly string[]): Promise<void> {
  const answer = await api(w.platform, method, path, { token, body });
  const what = `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`;
  expect(answer.status, what).toBe(400);
  expect(answer.body, what).toMatchObject({ code: 50035, message: expect.any(String) });
  expect(fieldErrors(answer.body, field), `${what}: errors at ${field.join('.') || '(the body)'} in ${JSON.stringify(answer.body)}`).toEqual([
    { code: expect.any(String), message: expect.any(String) },
  ]);
}

describe('issue 25 §4.2: type-confused bodies are refused with 50035 naming the field', () => {
  it('arrays as lobby metadata, member flags of 1e308 and [] as moderation metadata (lobby and DM) are refused, and change nothing', async () => {
    const w = await world();
    const lobbyPath = `/api/v10/lobbies/${w.lobby.id}`;
    await expectInvalid(w, 'PUT', '/api/v10/lobbies', w.alice, { secret: 'types', lobby_metadata: [] }, ['lobby_metadata']);
    await expectInvalid(w, 'PUT', '/api/v10/lobbies', w.alice, { secret: 'types', member_metadata: ['healer'] }, ['member_metadata']);
    await expectInvalid(w, 'PATCH', lobbyPath, w.bot, { metadata: ['a', 'b'] }, ['metadata']);
    await expectInvalid(w, 'POST', '/api/v10/lobbies', w.bot, { metadata: [] }, ['metadata']);
    await expectInvalid(w, 'PUT', `${lobbyPath}/members/${SEED.users.bob}`, w.bot, { flags: 1e308 }, ['flags']);
    await expectInvalid(w, 'POST', `${lobbyPath}/members/bulk`, w.bot, [{ id: SEED.users.bob, flags: 1e308 }], ['0', 'flags']);
    await expectInvalid(w, 'POST', '/api/v10/lobbies', w.bot, { members: [{ id: SEED.users.bob, flags: 1e308 }] }, ['members', '0', 'flags']);
    await expectInvalid(w, 'PUT', `${lobbyPath}/messages/${w.lobbyMessage.id}/moderation-metadata`, w.bot, [], []);
    await expectInvalid(w, 'PUT', `/api/v10/partner-sdk/dms/${SEED.users.alice}/${SEED.users.bob}/messages/${w.dmMessage.id}/moderation-metadata`, w.bot, [], []);
    // Nothing changed: the lobby's metadata and bob's flags are as they were, no moderation metadata was set.
    const lobby = (await api<Lobby>(w.platform, 'GET', lobbyPath, { token: w.bot })).body;
    expect(lobby.metadata).toEqual({ map: 'harbour' });
    expect(lobby.members.map((member) => [member.id, member.flags, member.metadata])).toEqual([
      [SEED.users.alice, 0, null],
      [SEED.users.bob, 0, null],
    ]);
    const messages = (await api<LobbyMessage[]>(w.platform, 'GET', `${lobbyPath}/messages`, { token: w.bot })).body;
    expect(messages.map((message) => (message as { moderation_metadata?: unknown }).moderation_metadata)).toEqual([undefined]);
    // The largest flags taken, as a 32-bit signed bitfield (ours), and an ordinary dictionary.
    expect((await api(w.platform, 'PUT', `${lobbyPath}/members/${SEED.users.bob}`, { token: w.bot, body: { flags: 2 ** 31 - 1 } })).status).toBe(200);
    await expectInvalid(w, 'PUT', `${lobbyPath}/members/${SEED.users.bob}`, w.bot, { flags: 2 ** 31 }, ['flags']);
    expect((await api(w.platform, 'PUT', `${lobbyPath}/messages/${w.lobbyMessage.id}/moderation-metadata`, { token: w.bot, body: { verdict: 'ok' } })).status).toBe(204);
  });

  it('every social route, a wrong type per field', async () => {
    const w = await world();
    const lobby = `/api/v10/lobbies/${w.lobby.id}`;
    const dmModeration = `/api/v10/partner-sdk/dms/${SEED.users.alice}/${SEED.users.bob}/messages/${w.dmMessage.id}/moderation-metadata`;
    type Case = readonly [method: string, path: string, token: string, body: unknown, field: readonly string[]];
    const cases: Case[] = [
      // Lobbies, the game's side.
      ['PUT', '/api/v10/lobbies', w.alice, [], []],
      ['PUT', '/api/v10/lobbies', w.alice, 'secret', []],
      ['PUT', '/api/v10/lobbies', w.alice, { secret: 7 }, ['secret']],
      ['PUT', '/api/v10/lobbies', w.alice, { secret: 's', lobby_metadata: { map: 1 } }, ['lobby_metadata', 'map']],
      ['PUT', '/api/v10/lobbies', w.alice, { secret: 's', member_metadata: 'healer' }, ['member_metadata']],
      ['PUT', '/api/v10/lobbies', w.alice, { secret: 's', idle_timeout_seconds: '300' }, ['idle_timeout_seconds']],
      ['PUT', '/api/v10/lobbies', w.alice, { secret: 's', idle_timeout_seconds: 1e308 }, ['idle_timeout_seconds']],
      ['POST', `${lobby}/messages`, w.alice, { content: ['gg'] }, ['content']],
      ['POST', `${lobby}/messages`, w.alice, { content: 'gg', metadata: [] }, ['metadata']],
      ['POST', `${lobby}/messages`, w.alice, { content: 'gg', metadata: { k: {} } }, ['metadata', 'k']],
      ['PATCH', `${lobby}/messages/${w.lobbyMessage.id}`, w.alice, { content: 5 }, ['content']],
      ['PATCH', `${lobby}/messages/${w.lobbyMessage.id}`, w.alice, [], []],
      // Channel linking.
      ['PATCH', `${lobby}/channel-linking`, w.alice, { channel_id: 5 }, ['channel_id']],
      ['PATCH', `${lobby}/channel-linking`, w.alice, [], []],
      // Lobbies, the server API.
      ['POST', '/api/v10/lobbies', w.bot, { members: {} }, ['members']],
      ['POST', '/api/v10/lobbies', w.bot, { members: [[]] }, ['members', '0']],
      ['POST', '/api/v10/lobbies', w.bot, { members: [{ id: 5 }] }, ['members', '0', 'id']],
      ['POST', '/api/v10/lobbies', w.bot, { idle_timeout_seconds: true }, ['idle_timeout_seconds']],
      ['PATCH', lobby, w.bot, { members: 'x' }, ['members']],
      ['PATCH', lobby, w.bot, [], []],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, { flags: -1 }, ['flags']],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, { flags: 1.5 }, ['flags']],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, { flags: '1' }, ['flags']],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, { metadata: [] }, ['metadata']],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, { additional_name: 5 }, ['additional_name']],
      ['PUT', `${lobby}/members/${SEED.users.bob}`, w.bot, [], []],
      ['PUT', `${lobby}/messages/${w.lobbyMessage.id}/moderation-metadata`, w.bot, { verdict: 1 }, ['verdict']],
      ['PUT', `${lobby}/messages/${w.lobbyMessage.id}/moderation-metadata`, w.bot, 'toxic', []],
      ['POST', `${lobby}/members/bulk`, w.bot, {}, []],
      ['POST', `${lobby}/members/bulk`, w.bot, [{ id: SEED.users.bob, remove_member: 'yes' }], ['0', 'remove_member']],
      ['POST', `${lobby}/members/bulk`, w.bot, [{ id: SEED.users.bob, metadata: ['x'] }], ['0', 'metadata']],
      // DMs, their messages, edits and moderation metadata.
      ['POST', '/api/v10/users/@me/channels', w.alice, { recipient_id: 5 }, ['recipient_id']],
      ['POST', '/api/v10/users/@me/channels', w.alice, [], []],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, { content: 5 }, ['content']],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, { content: 'x', activity: [] }, ['activity']],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, { content: 'x', activity: { type: '1' } }, ['activity', 'type']],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, { content: 'x', nonce: {} }, ['nonce']],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, { content: 'x', enforce_nonce: 'yes' }, ['enforce_nonce']],
      ['POST', `/api/v10/channels/${w.dm.id}/messages`, w.alice, [], []],
      ['PATCH', `/api/v10/channels/${w.dm.id}/messages/${w.dmMessage.id}`, w.alice, { content: [] }, ['content']],
      ['PATCH', `/api/v10/channels/${w.dm.id}/messages/${w.dmMessage.id}`, w.alice, [], []],
      ['PUT', dmModeration, w.bot, { verdict: ['toxic'] }, ['verdict']],
      ['PUT', dmModeration, w.bot, 5, []],
      ['POST', `/api/v10/users/${SEED.users.bob}/activities/${APP}/join`, w.user, { message_id: 5 }, ['message_id']],
      ['POST', `/api/v10/users/${SEED.users.bob}/activities/${APP}/join`, w.user, [], []],
      // Relationships and game relationships.
      ['PUT', `/api/v10/users/@me/relationships/${SEED.users.carol}`, w.user, { type: '2' }, ['type']],
      ['PUT', `/api/v10/users/@me/relationships/${SEED.users.carol}`, w.user, [], []],
      ['POST', '/api/v10/users/@me/relationships', w.user, { username: 5 }, ['username']],
      ['POST', '/api/v10/users/@me/relationships', w.user, { username: 'carol', discriminator: {} }, ['discriminator']],
      ['POST', '/api/v10/users/@me/game-relationships', w.alice, { username: ['carol'] }, ['username']],
      ['POST', '/api/v10/users/@me/game-relationships', w.alice, [], []],
      ['PUT', `/api/v10/users/@me/game-relationships/${SEED.users.carol}`, w.alice, [], []],
      // The Social SDK's account routes (provisional accounts).
      ['POST', '/api/v10/partner-sdk/token', '', [], []],
      ['POST', '/api/v10/partner-sdk/token', '', { client_id: 5, external_auth_type: 'OIDC', external_auth_token: 't' }, ['client_id']],
      ['POST', '/api/v10/partner-sdk/token', '', { client_id: APP, external_auth_type: 'OIDC', external_auth_token: {} }, ['external_auth_token']],
      ['POST', '/api/v10/partner-sdk/token/bot', w.bot, { external_user_id: 5 }, ['external_user_id']],
      ['POST', '/api/v10/partner-sdk/token/bot', w.bot, { external_user_id: 'p1', preferred_global_name: [] }, ['preferred_global_name']],
      ['POST', '/api/v10/partner-sdk/provisional-accounts/unmerge', '', { client_id: APP, external_auth_type: 5, external_auth_token: 't' }, ['external_auth_type']],
      ['POST', '/api/v10/partner-sdk/provisional-accounts/unmerge/bot', w.bot, { external_user_id: [] }, ['external_user_id']],
      ['POST', '/api/v10/partner-sdk/provisional-accounts/unmerge/bot', w.bot, [], []],
      ['POST', '/api/v10/partner-sdk/child-token', '', { parent_access_token: [], child_application_id: APP }, ['parent_access_token']],
      ['POST', '/api/v10/partner-sdk/child-token', '', [], []],
      // QA's provisional-account levers.
      ['POST', `/_emulator/users/${SEED.users.carol}/ban`, `Admin ${w.platform.adminToken}`, { permanent: 'yes' }, ['permanent']],
      ['POST', `/_emulator/users/${SEED.users.carol}/ban`, `Admin ${w.platform.adminToken}`, [], []],
      ['POST', '/_emulator/external-tokens', `Admin ${w.platform.adminToken}`, [], []],
      // QA's simulated friend (its presence and invites reach the players as a friend's would).
      ['POST', '/_emulator/simulated-friend/presence', `Admin ${w.platform.adminToken}`, { as: 'bob', activity: [] }, ['activity']],
      ['POST', '/_emulator/simulated-friend/presence', `Admin ${w.platform.adminToken}`, { as: 'bob', activity: { assets: [] } }, ['activity', 'assets']],
      ['POST', '/_emulator/simulated-friend/presence', `Admin ${w.platform.adminToken}`, { as: 'bob', activity: { party: { size: [1, 4] }, buttons: [[]] } }, ['activity', 'buttons', '0']],
      ['POST', '/_emulator/simulated-friend/invite', `Admin ${w.platform.adminToken}`, [], []],
      ['POST', '/_emulator/simulated-friend/ask-to-join', `Admin ${w.platform.adminToken}`, { as: ['bob'], to: 'alice' }, ['as']],
    ];
    for (const [method, path, token, body, field] of cases) await expectInvalid(w, method, path, token, body, field);
  });
});
