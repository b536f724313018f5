import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PlatformChannel, PlatformMessage } from '../src/wire/index.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { api, captureLogger, startTestPlatform, stopTestPlatform } from './support/harness.js';

describe('logs', () => {
  it('never contain a user token, the admin token or a join secret, at debug level', async () => {
    const { logger, lines } = captureLogger();
    const platform = await startTestPlatform({ logger, limits: { reconnectCloseAfterMs: 20 } });
    const joinSecret = 'join-secret-for-the-log-test-91c2';
    const aliceToken = platform.loginToken('alice');
    const bobToken = (await api<{ token: string }>(platform, 'POST', '/api/auth/login', { body: { login: 'bob' } })).body.token;
    const presence = {
      since: null,
      activities: [{ name: 'Game', type: 0, application_id: SEED.appId, party: { id: 'p1', size: [1, 2] as [number, number] }, secrets: { join: joinSecret } }],
      status: 'online' as const,
      afk: false,
    };
    const alice = await GatewayClient.ready(platform.gatewayUrl, aliceToken, presence);
    const bob = await GatewayClient.ready(platform.gatewayUrl, bobToken);
    const dm = await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token: aliceToken, body: { recipient_id: SEED.users.bob } });
    const sent = await api<PlatformMessage>(platform, 'POST', `/api/channels/${dm.body.id}/messages`, {
      token: aliceToken,
      body: { activity: { type: 1, party_id: 'p1' }, application_id: SEED.appId },
    });
    const joined = await api(platform, 'POST', `/api/users/${SEED.users.alice}/activities/${SEED.appId}/join`, { token: bobToken, body: { message_id: sent.body.id } });
    expect(joined.body).toEqual({ secret: joinSecret });
    await api(platform, 'GET', '/_emulator/sessions', { admin: true });
    await api(platform, 'GET', '/api/users/@me', { token: 'a-wrong-token-value' });
    // Resume with the token, a bad identify, a reconnect and a failed resume.
    bob.client.terminate();
    const resumed = await GatewayClient.connect(platform.gatewayUrl);
    resumed.send(6, { token: bobToken, session_id: bob.ready.session_id, seq: bob.client.seq });
    await resumed.next(isDispatch('RESUMED'));
    const bad = await GatewayClient.connect(platform.gatewayUrl);
    bad.send(2, { token: 'a-wrong-token-value', properties: { os: 'l', browser: 'b', device: 'd' } });
    await bad.closed;
    await api(platform, 'POST', '/_emulator/gateway/reconnect', { admin: true });
    await alice.client.next(isOp(7));
    await alice.client.closed;
    await stopTestPlatform(platform);

    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((line) => line.includes('"level":"debug"'))).toBe(true);
    const all = lines.join('\n');
    for (const secret of [aliceToken, bobToken, platform.adminToken, joinSecret, 'a-wrong-token-value']) expect(all).not.toContain(secret);
  });
});
