import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import { verifyWebhook } from '../src/webhooks/signer.js';
import { LobbyEvent, type Lobby, type LobbyMessage, type PlatformChannel, type WebhookEnvelope } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens, startWebhookReceiver, type ReceivedWebhook } from './support/oauth.js';

const APP = SEED.appId;

function verified(platform: PlatformServer, request: ReceivedWebhook): WebhookEnvelope {
  const app = platform.admin.apps().find((candidate) => candidate.id === APP);
  expect(verifyWebhook(app?.public_key ?? '', request.body, request.headers['x-signature-ed25519'] as string, request.headers['x-signature-timestamp'] as string)).toBe(true);
  return JSON.parse(request.body) as WebhookEnvelope;
}

describe('the Social SDK webhook events and message moderation', () => {
  it('a lobby message and a game DM reach the game server signed; its moderation metadata goes to the members and back to the webhook', async () => {
    const platform = await startTestPlatform();
    const receiver = await startWebhookReceiver();
    await api(platform, 'PATCH', `/_emulator/apps/${APP}`, { admin: true, body: { webhook_events_url: receiver.url } });
    await receiver.waitFor(1); // the PING
    const token = `Bearer ${(await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token}`;
    await receiver.waitFor(2); // APPLICATION_AUTHORIZED
    // Alice's game session (the lobby's application's): the moderation metadata is the game's.
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, token);
    const lobby = (await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token, body: { secret: 'moderated' } })).body;
    const message = (await api<LobbyMessage>(platform, 'POST', `/api/v10/lobbies/${lobby.id}/messages`, { token, body: { content: 'gg ez' } })).body;
    const created = verified(platform, (await receiver.waitFor(3))[2] as ReceivedWebhook);
    expect(created).toMatchObject({ application_id: APP, type: 1, event: { type: 'LOBBY_MESSAGE_CREATE', data: { id: message.id, content: 'gg ez', lobby_id: lobby.id } } });

    const bot = `Bot ${platform.admin.apps().find((app) => app.id === APP)?.bot_token ?? ''}`;
    const moderated = await api(platform, 'PUT', `/api/v10/lobbies/${lobby.id}/messages/${message.id}/moderation-metadata`, { token: bot, body: { verdict: 'toxic', score: '0.91' } });
    expect(moderated.status).toBe(204);
    expect((await alice.next(isDispatch(LobbyEvent.MessageUpdate))).d).toMatchObject({ id: message.id, moderation_metadata: { verdict: 'toxic', score: '0.91' } });
    expect(verified(platform, (await receiver.waitFor(4))[3] as ReceivedWebhook)).toMatchObject({ event: { type: 'LOBBY_MESSAGE_UPDATE', data: { moderation_metadata: { verdict: 'toxic' } } } });
    const read = await api<LobbyMessage[]>(platform, 'GET', `/api/v10/lobbies/${lobby.id}/messages`, { token });
    expect(read.body[0]?.moderation_metadata).toEqual({ verdict: 'toxic', score: '0.91' });
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    expect((await api(platform, 'PUT', `/api/v10/lobbies/${lobby.id}/messages/${message.id}/moderation-metadata`, { token: bot, body: six })).status).toBe(400);
    expect((await api(platform, 'PUT', `/api/v10/lobbies/${lobby.id}/messages/424242/moderation-metadata`, { token: bot, body: {} })).body).toMatchObject({ code: 10008 });

    const dm = (await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } })).body;
    await api(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token, body: { content: 'from the game' } });
    expect(verified(platform, (await receiver.waitFor(5))[4] as ReceivedWebhook)).toMatchObject({ event: { type: 'GAME_DIRECT_MESSAGE_CREATE', data: { content: 'from the game', application_id: APP } } });
    // A message the player typed (user token) is no game's: no webhook.
    await api(platform, 'POST', `/api/v10/channels/${dm.id}/messages`, { token: platform.loginToken('alice'), body: { content: 'typed' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(5);
    alice.close();
  });
});
