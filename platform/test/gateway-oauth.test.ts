import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import { GatewayClose, LobbyEvent, type Lobby } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { obtainTokens, postForm } from './support/oauth.js';

const APP = SEED.appId;

describe("the gateway with a game's own OAuth2 token", () => {
  it('identifies with the token (with or without "Bearer "), gets READY and the dispatches its scopes allow, only those', async () => {
    const platform = await startTestPlatform();
    const social = (await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' })).access_token;
    const { client: game, ready } = await GatewayClient.ready(platform.gatewayUrl, `Bearer ${social}`);
    expect(ready.user.id).toBe(SEED.users.alice);
    // sdk.social_layer covers relationships and DMs: READY lists alice's friends.
    expect(ready.relationships.length).toBeGreaterThan(0);
    const { client: presenceOnly, ready: narrowReady } = await GatewayClient.ready(
      platform.gatewayUrl,
      (await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify gateway.connect' })).access_token,
    );
    expect(narrowReady.relationships).toEqual([]);
    expect(narrowReady.private_channels).toEqual([]);

    // A lobby event reaches the token with lobbies.write, not the narrow one.
    const created = await api<Lobby>(platform, 'PUT', '/api/v10/lobbies', { token: `Bearer ${social}`, body: { secret: 'gw' } });
    expect((await game.next(isDispatch(LobbyEvent.Create))).d).toMatchObject({ id: created.body.id });
    await presenceOnly.barrier();
    expect(presenceOnly.dispatches(LobbyEvent.Create)).toEqual([]);
    game.close();
    presenceOnly.close();
  });

  it('refuses a token without a gateway scope, and an unknown one (4004); a revoked grant ends the game session (4004)', async () => {
    const platform = await startTestPlatform();
    const identifyOnly = (await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' })).access_token;
    const refused = await GatewayClient.connect(platform.gatewayUrl);
    refused.send(2, { token: identifyOnly, properties: { os: 'linux', browser: 'test', device: 'test' } });
    expect((await refused.closed).code).toBe(GatewayClose.AuthenticationFailed);
    const unknown = await GatewayClient.connect(platform.gatewayUrl);
    unknown.send(2, { token: 'Bearer nope', properties: { os: 'linux', browser: 'test', device: 'test' } });
    expect((await unknown.closed).code).toBe(GatewayClose.AuthenticationFailed);

    const tokens = await obtainTokens(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify sdk.social_layer' });
    const { client: game } = await GatewayClient.ready(platform.gatewayUrl, tokens.access_token);
    // alice's own (user-token) session stays.
    const { client: host } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    expect((await postForm(platform, '/api/v10/oauth2/token/revoke', { token: tokens.access_token, client_id: APP })).status).toBe(200);
    expect((await game.closed).code).toBe(GatewayClose.AuthenticationFailed);
    await host.barrier();
    host.close();
  });
});
