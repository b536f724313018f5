import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import { verifyWebhook } from '../src/webhooks/signer.js';
import { GatewayEvent, LobbyEvent, type Lobby, type LobbyMessage, type PlatformChannel, type PlatformMessage, type WebhookEnvelope } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens, startWebhookReceiver, type WebhookReceiver } from './support/oauth.js';

const APP = SEED.appId;

/** The signed webhook event of `type` (deliveries are not ordered), checked against the app's public key. */
async function webhookEvent(platform: PlatformServer, receiver: WebhookReceiver, count: number, type: string, appId = APP): Promise<WebhookEnvelope['event']> {
  const received = await receiver.waitFor(count);
  const app = platform.admin.apps().find((candidate) => candidate.id === appId);
  for (const request of received) {
    const envelope = JSON.parse(request.body) as WebhookEnvelope;
    if (envelope.event?.type !== type) continue;
    expect(verifyWebhook(app?.public_key ?? '', request.body, request.headers['x-signature-ed25519'] as string, request.headers['x-signature-timestamp'] as string)).toBe(true);
    expect(envelope.application_id).toBe(appId);
    return envelope.event;
  }
  throw new Error(`no ${type} among ${received.length} webhook requests`);
}

/** The emulator with the seeded app's webhook URL set (PING received), and alice's game token. */
async function setUp(): Promise<{ platform: PlatformServer; receiver: WebhookReceiver; game: string; bot: string }> {
  const platform = await startTestPlatform();
  const receiver = await startWebhookReceiver();
  await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: receiver.url } });
  await receiver.waitFor(1);
  const game = `Bearer ${(await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
  await receiver.waitFor(2); // APPLICATION_AUTHORIZED
  const bot = `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
  return { platform, receiver, game, bot };
}

describe('editing and deleting a DM message', () => {
  it("only its author edits it (50005 to the other): MESSAGE_UPDATE to both, GAME_DIRECT_MESSAGE_UPDATE signed; only the author deletes it (50003): MESSAGE_DELETE {id, channel_id}, GAME_DIRECT_MESSAGE_DELETE", async () => {
    const { platform, receiver, game } = await setUp();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: aliceGame } = await GatewayClient.ready(platform.gatewayUrl, game);
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token: game, body: { recipient_id: SEED.users.bob } })).body;
    const sent = (await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: game, body: { content: 'ready in 5' } })).body;
    await webhookEvent(platform, receiver, 3, 'GAME_DIRECT_MESSAGE_CREATE');
    const path = `/api/v10/channels/${dm.id}/messages/${sent.id}`;

    expect(await api(platform, 'PATCH', path, { token: platform.loginToken('bob'), body: { content: 'hacked' } })).toMatchObject({ status: 403, body: { code: 50005, message: 'Cannot edit a message authored by another user' } });
    expect((await api(platform, 'PATCH', path, { token: game, body: { content: '   ' } })).body).toMatchObject({ code: 50035 });
    expect((await api(platform, 'PATCH', `/api/v10/channels/${dm.id}/messages/424242`, { token: game, body: { content: 'x' } })).body).toMatchObject({ code: 10008 });
    const edited = await api<PlatformMessage>(platform, 'PATCH', path, { token: game, body: { content: 'ready in 10' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: sent.id, content: 'ready in 10', application_id: APP, timestamp: sent.timestamp });
    expect(Date.parse(edited.body.edited_timestamp ?? '')).toBeGreaterThanOrEqual(Date.parse(sent.timestamp));
    expect((await bob.next(isDispatch(GatewayEvent.MessageUpdate))).d).toMatchObject({ id: sent.id, content: 'ready in 10', edited_timestamp: edited.body.edited_timestamp });
    expect((await aliceGame.next(isDispatch(GatewayEvent.MessageUpdate))).d).toMatchObject({ id: sent.id, content: 'ready in 10' });
    expect(await webhookEvent(platform, receiver, 4, 'GAME_DIRECT_MESSAGE_UPDATE')).toMatchObject({ data: { id: sent.id, content: 'ready in 10', application_id: APP } });
    const read = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: platform.loginToken('bob') });
    expect(read.body.map((m) => [m.content, m.edited_timestamp])).toEqual([['ready in 10', edited.body.edited_timestamp]]);

    expect(await api(platform, 'DELETE', path, { token: platform.loginToken('bob') })).toMatchObject({ status: 403, body: { code: 50003 } });
    expect((await api(platform, 'DELETE', path, { token: game })).status).toBe(204);
    expect((await bob.next(isDispatch(GatewayEvent.MessageDelete))).d).toEqual({ id: sent.id, channel_id: dm.id });
    expect((await aliceGame.next(isDispatch(GatewayEvent.MessageDelete))).d).toEqual({ id: sent.id, channel_id: dm.id });
    expect(await webhookEvent(platform, receiver, 5, 'GAME_DIRECT_MESSAGE_DELETE')).toMatchObject({ data: { id: sent.id, channel_id: dm.id, content: 'ready in 10' } });
    expect((await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: game })).body).toEqual([]);
    expect(await api(platform, 'DELETE', path, { token: game })).toMatchObject({ status: 404, body: { code: 10008 } });
    bob.close();
    aliceGame.close();
  });

  it('the user token edits and deletes too, with no webhook (no game sent it); a token without the scopes of posting is refused', async () => {
    const { platform, receiver } = await setUp();
    const token = platform.loginToken('alice');
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } })).body;
    const typed = (await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token, body: { content: 'typed' } })).body;
    const path = `/api/v10/channels/${dm.id}/messages/${typed.id}`;
    expect((await api<PlatformMessage>(platform, 'PATCH', path, { token, body: { content: 'retyped' } })).body).toMatchObject({ content: 'retyped' });
    const identify = `Bearer ${(await obtainTokens(platform, token, { client_id: APP, scope: 'identify' })).access_token}`;
    expect(await api(platform, 'PATCH', path, { token: identify, body: { content: 'x' } })).toMatchObject({ status: 403, body: { code: 50026 } });
    expect(await api(platform, 'DELETE', path, { token: identify })).toMatchObject({ status: 403, body: { code: 50026 } });
    expect((await api(platform, 'DELETE', path, { token })).status).toBe(204);
    // A channel that is not theirs: 50001; an unknown one: 10003.
    expect(await api(platform, 'PATCH', path, { token: platform.loginToken('carol'), body: { content: 'x' } })).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await api(platform, 'DELETE', `/api/v10/channels/424242/messages/${typed.id}`, { token })).toMatchObject({ status: 404, body: { code: 10003 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await platform.webhooksIdle();
    // PING, APPLICATION_AUTHORIZED twice (the game's token and the identify one): nothing for a message typed by the player.
    expect(receiver.received.map((request) => (JSON.parse(request.body) as WebhookEnvelope).event?.type ?? 'PING')).toEqual(['PING', 'APPLICATION_AUTHORIZED', 'APPLICATION_AUTHORIZED']);
  });
});

describe('moderation metadata on a DM message (the game server, bot token)', () => {
  it("is set through PUT /partner-sdk/dms/{a}/{b}/messages/{id}/moderation-metadata and seen only by that application", async () => {
    const { platform, receiver, game, bot } = await setUp();
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const { client: aliceGame } = await GatewayClient.ready(platform.gatewayUrl, game);
    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token: game, body: { recipient_id: SEED.users.bob } })).body;
    const sent = (await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: game, body: { content: 'gg ez' } })).body;
    await webhookEvent(platform, receiver, 3, 'GAME_DIRECT_MESSAGE_CREATE');
    // Either order of the two users names their DM.
    const path = `/api/v10/partner-sdk/dms/${SEED.users.bob}/${SEED.users.alice}/messages/${sent.id}/moderation-metadata`;
    expect((await api(platform, 'PUT', path, { token: bot, body: { verdict: 'toxic', score: '0.91' } })).status).toBe(204);

    expect((await aliceGame.next(isDispatch(GatewayEvent.MessageUpdate))).d).toMatchObject({ id: sent.id, moderation_metadata: { verdict: 'toxic', score: '0.91' } });
    const toBob = (await bob.next(isDispatch(GatewayEvent.MessageUpdate))).d as PlatformMessage;
    expect(toBob.id).toBe(sent.id);
    expect(toBob.moderation_metadata).toBeUndefined();
    expect(await webhookEvent(platform, receiver, 4, 'GAME_DIRECT_MESSAGE_UPDATE')).toMatchObject({ data: { id: sent.id, moderation_metadata: { verdict: 'toxic', score: '0.91' } } });
    const asGame = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: game });
    expect(asGame.body[0]?.moderation_metadata).toEqual({ verdict: 'toxic', score: '0.91' });
    const asUser = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: platform.loginToken('alice') });
    expect(asUser.body[0]).not.toHaveProperty('moderation_metadata');

    // Another game: it reads the DM without the metadata, and cannot moderate a message its game did not send.
    const other = platform.admin.createApp({ name: 'Other Game' });
    platform.admin.patchApp(other.id, { public_client: true });
    const otherGame = `Bearer ${(await obtainTokens(platform, platform.loginToken('alice'), { client_id: other.id, scope: 'identify sdk.social_layer' })).access_token}`;
    const asOther = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.id}/messages`, { token: otherGame });
    expect(asOther.body[0]).not.toHaveProperty('moderation_metadata');
    const otherBot = `Bot ${platform.admin.apps().find((app) => app.id === other.id)?.bot_token ?? ''}`;
    // A DM its game wrote nothing in is, to its server, no DM at all (issue 25 §1: who writes to whom is not its business).
    expect(await api(platform, 'PUT', path, { token: otherBot, body: { verdict: 'fine' } })).toMatchObject({ status: 404, body: { code: 10003 } });

    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    expect(await api(platform, 'PUT', path, { token: bot, body: six })).toMatchObject({ status: 400, body: { code: 50035 } });
    expect(await api(platform, 'PUT', path, { token: game, body: {} })).toMatchObject({ status: 401 });
    expect((await api(platform, 'PUT', `/api/v10/partner-sdk/dms/${SEED.users.bob}/${SEED.users.carol}/messages/${sent.id}/moderation-metadata`, { token: bot, body: {} })).body).toMatchObject({ code: 10003 });
    expect((await api(platform, 'PUT', `/api/v10/partner-sdk/dms/${SEED.users.bob}/424242/messages/${sent.id}/moderation-metadata`, { token: bot, body: {} })).body).toMatchObject({ code: 10013 });
    bob.close();
    aliceGame.close();
  });
});

describe('editing and deleting a lobby message', () => {
  it('the author edits (others 50005), the author or the game server deletes (another member 50013): LOBBY_MESSAGE_UPDATE/DELETE to the members, signed webhooks', async () => {
    const { platform, receiver, game: alice, bot } = await setUp();
    const bob = `Bearer ${(await obtainTokens(platform, platform.loginToken('bob'), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: alice, body: { secret: 'editable' } })).body;
    await api(platform, 'PUT', '/api/v10/lobbies', { token: bob, body: { secret: 'editable' } });
    const { client: bobGame } = await GatewayClient.ready(platform.gatewayUrl, bob);
    const first = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token: alice, body: { content: 'push mid' } })).body;
    const path = `/api/v10/lobbies/${lobby.id}/messages/${first.id}`;

    expect(await api(platform, 'PATCH', path, { token: bob, body: { content: 'no' } })).toMatchObject({ status: 403, body: { code: 50005 } });
    expect(await api(platform, 'PATCH', path, { token: bot, body: { content: 'no' } })).toMatchObject({ status: 403, body: { code: 50005 } });
    expect(await api(platform, 'PATCH', path, { token: platform.loginToken('alice'), body: { content: 'no' } })).toMatchObject({ status: 401 });
    expect((await api(platform, 'PATCH', path, { token: alice, body: { content: '' } })).body).toMatchObject({ code: 50035 });
    const edited = await api<LobbyMessage>(platform, 'PATCH', path, { token: alice, body: { content: 'push B' } });
    expect(edited.body).toMatchObject({ id: first.id, content: 'push B', lobby_id: lobby.id });
    expect(edited.body.edited_timestamp).toEqual(expect.any(String));
    expect((await bobGame.next(isDispatch(LobbyEvent.MessageUpdate))).d).toMatchObject({ id: first.id, content: 'push B', edited_timestamp: edited.body.edited_timestamp });
    expect(await webhookEvent(platform, receiver, 5, 'LOBBY_MESSAGE_UPDATE')).toMatchObject({ data: { id: first.id, content: 'push B', edited_timestamp: edited.body.edited_timestamp } });

    expect(await api(platform, 'DELETE', path, { token: bob })).toMatchObject({ status: 403, body: { code: 50013 } });
    expect((await api(platform, 'DELETE', path, { token: alice })).status).toBe(204);
    expect((await bobGame.next(isDispatch(LobbyEvent.MessageDelete))).d).toEqual({ id: first.id, lobby_id: lobby.id, channel_id: lobby.id });
    expect((await webhookEvent(platform, receiver, 6, 'LOBBY_MESSAGE_DELETE'))?.data).toEqual({ id: first.id, lobby_id: lobby.id });
    expect(await api(platform, 'DELETE', path, { token: alice })).toMatchObject({ status: 404, body: { code: 10008 } });

    // The game's server deletes any message of its lobbies; another app's server does not see the lobby.
    const second = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token: bob, body: { content: 'spam' } })).body;
    const other = platform.admin.createApp({ name: 'Other Game' });
    const otherBot = `Bot ${platform.admin.apps().find((app) => app.id === other.id)?.bot_token ?? ''}`;
    expect(await api(platform, 'DELETE', `/api/v10/lobbies/${lobby.id}/messages/${second.id}`, { token: otherBot })).toMatchObject({ status: 404, body: { code: 10031 } });
    expect((await api(platform, 'DELETE', `/api/v10/lobbies/${lobby.id}/messages/${second.id}`, { token: bot })).status).toBe(204);
    expect((await bobGame.next(isDispatch(LobbyEvent.MessageDelete))).d).toMatchObject({ id: second.id });
    expect((await api<LobbyMessage[]>(platform, 'GET', `/api/v10/lobbies/${lobby.id}/messages`, { token: bot })).body).toEqual([]);
    bobGame.close();
  });
});
