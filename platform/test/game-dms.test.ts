import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { GatewayEvent, type PlatformChannel, type PlatformMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens } from './support/oauth.js';

describe("direct messages with a game's own token", () => {
  it('sdk.social_layer opens a DM, sends (marked with the game) and reads; the friend gets MESSAGE_CREATE; relationships too', async () => {
    const platform = await startTestPlatform();
    const game = (await obtainTokens(platform, platform.loginToken('alice'), { client_id: SEED.appId, scope: 'identify sdk.social_layer' })).access_token;
    const bearer = `Bearer ${game}`;
    const { client: bob } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
    const friends = await api<{ user: { username: string } }[]>(platform, 'GET', '/api/v10/users/@me/relationships', { token: bearer });
    expect(friends.status).toBe(200);
    expect(friends.body.map((r) => r.user.username).sort()).toEqual(['bob', 'carol', 'dave']);
    const dm = await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token: bearer, body: { recipient_id: SEED.users.bob } });
    expect(dm.status).toBe(200);
    const sent = await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.body.id}/messages`, { token: bearer, body: { content: 'ready?' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ content: 'ready?', application_id: SEED.appId, author: { id: SEED.users.alice } });
    expect((await bob.next(isDispatch(GatewayEvent.MessageCreate))).d).toMatchObject({ content: 'ready?', application_id: SEED.appId });
    const read = await api<PlatformMessage[]>(platform, 'GET', `/api/v10/channels/${dm.body.id}/messages`, { token: bearer });
    expect(read.body.map((m) => m.content)).toEqual(['ready?']);
    bob.close();
  });

  it('a token without those scopes is refused (403 50026); a message from the user token names no game', async () => {
    const platform = await startTestPlatform();
    const identify = (await obtainTokens(platform, platform.loginToken('alice'), { client_id: SEED.appId, scope: 'identify' })).access_token;
    expect(await api(platform, 'GET', '/api/v10/users/@me/relationships', { token: `Bearer ${identify}` })).toMatchObject({ status: 403, body: { code: 50026 } });
    expect(await api(platform, 'POST', '/api/v10/users/@me/channels', { token: `Bearer ${identify}`, body: { recipient_id: SEED.users.bob } })).toMatchObject({ status: 403, body: { code: 50026 } });
    const token = platform.loginToken('alice');
    const dm = await api<PlatformChannel>(platform, 'POST', '/api/v10/users/@me/channels', { token, body: { recipient_id: SEED.users.bob } });
    const plain = await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${dm.body.id}/messages`, { token, body: { content: 'hi' } });
    expect(plain.body.application_id).toBeUndefined();
  });
});
