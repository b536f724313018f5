/* eslint-disable @typescript-eslint/no-explicit-any -- admin answers are checked by the expectations */
/**
 * The QA admin routes: token endpoint errors on demand (`/_emulator/oauth/token-errors`) and
 * the simulated friend (`/_emulator/simulated-friend/...`), seen by a real gateway client of
 * the other user.
 */
import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { PlatformMessage, PresenceUpdateEvent } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, startTestPlatform } from './support/harness.js';
import { authorizeCode, postForm } from './support/oauth.js';

const TOKEN = '/api/v10/oauth2/token';
const APP = SEED.appId;
const PARTY = { name: 'Companion Demo Game', type: 0, application_id: APP, state: 'Raid', party: { id: 'raid-1', size: [1, 4] }, secrets: { join: 'raid-secret' } };

describe('admin: token errors on demand', () => {
  it('answers the next matching token request with the armed error, once (or count times), then normally', async () => {
    const platform = await startTestPlatform();
    const token = platform.loginToken('alice');
    const armed = await api<any>(platform, 'POST', '/_emulator/oauth/token-errors', { admin: true, body: { error: 'invalid_grant', error_description: 'QA says no', count: 2 } });
    expect(armed.status).toBe(201);
    expect(armed.body).toEqual({ armed: { error: 'invalid_grant', error_description: 'QA says no', status: 400, application_id: null, grant_type: null, remaining: 2 }, pending: 1 });

    const code = await authorizeCode(platform, token, { client_id: APP, scope: 'identify' });
    const exchange = () => postForm(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP });
    for (let i = 0; i < 2; i += 1) {
      const refused = await exchange();
      expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'QA says no' } });
      expect(refused.headers.get('cache-control')).toBe('no-store');
    }
    expect((await exchange()).status).toBe(200);
    expect((await api<any>(platform, 'GET', '/_emulator/oauth/token-errors', { admin: true })).body).toEqual({ armed: [] });
  });

  it('matches the application (form or Basic client id) and grant type; default statuses; clear; bad input named', async () => {
    const platform = await startTestPlatform();
    await api(platform, 'POST', '/_emulator/oauth/token-errors', { admin: true, body: { error: 'server_error', application_id: '111111111111111111' } });
    await api(platform, 'POST', '/_emulator/oauth/token-errors', { admin: true, body: { error: 'invalid_client', grant_type: 'refresh_token' } });
    const code = await authorizeCode(platform, platform.loginToken('alice'), { client_id: APP, scope: 'identify' });
    const tokens = await postForm<any>(platform, TOKEN, { grant_type: 'authorization_code', code, client_id: APP });
    expect(tokens.status).toBe(200);
    const refresh = await postForm(platform, TOKEN, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { basic: { id: APP, secret: 'x' } });
    expect(refresh).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    expect((await api<any>(platform, 'DELETE', '/_emulator/oauth/token-errors', { admin: true })).body).toEqual({ cleared: 1 });
    const bad = await api<any>(platform, 'POST', '/_emulator/oauth/token-errors', { admin: true, body: { error: 'Bad Code' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.error._errors[0].message).toContain('OAuth2 error code');
    expect((await api(platform, 'POST', '/_emulator/oauth/token-errors', { body: { error: 'invalid_grant' } })).status).toBe(401);
  });
});

describe('admin: the simulated friend', () => {
  it("bob's presence, set without a client, reaches alice's gateway session without its secrets", async () => {
    const platform = await startTestPlatform();
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const set = await api<any>(platform, 'POST', '/_emulator/simulated-friend/presence', { admin: true, body: { as: 'bob', activity: PARTY } });
    expect(set.status).toBe(200);
    expect(set.body.presence).toMatchObject({ user: { id: SEED.users.bob }, status: 'online', activities: [{ state: 'Raid', party: { id: 'raid-1' } }] });
    const update = (await alice.next(isDispatch('PRESENCE_UPDATE'))).d as PresenceUpdateEvent;
    expect(update.user.id).toBe(SEED.users.bob);
    expect(update.activities[0]).toMatchObject({ name: 'Companion Demo Game', party: { id: 'raid-1', size: [1, 4] }, flags: 2 });
    expect(update.activities[0]?.secrets).toBeUndefined();

    await api(platform, 'POST', '/_emulator/simulated-friend/presence', { admin: true, body: { as: 'bob', status: 'offline', activity: null } });
    const gone = (await alice.next((message) => isDispatch('PRESENCE_UPDATE')(message) && (message.d as PresenceUpdateEvent).status === 'offline')).d as PresenceUpdateEvent;
    expect(gone.user.id).toBe(SEED.users.bob);
  });

  it('ask-to-join and invite are DM messages to the other user; accept answers a request with an invite', async () => {
    const platform = await startTestPlatform();
    const { client: alice } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'), { since: null, activities: [{ ...PARTY, party: { id: 'alice-party', size: [1, 4] }, secrets: { join: 'alice-secret' } }], status: 'online', afk: false });
    await alice.barrier();

    const asked = await api<PlatformMessage>(platform, 'POST', '/_emulator/simulated-friend/ask-to-join', { admin: true, body: { as: 'bob', to: 'alice' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ author: { username: 'bob' }, activity: { type: 5, party_id: 'alice-party' }, application_id: APP });
    const request = (await alice.next((message) => isDispatch('MESSAGE_CREATE')(message) && (message.d as PlatformMessage).id === asked.body.id)).d as PlatformMessage;
    expect(request.activity?.type).toBe(5);

    // bob has no party yet: inviting starts one.
    const invite = await api<PlatformMessage>(platform, 'POST', '/_emulator/simulated-friend/invite', { admin: true, body: { as: 'bob', to: 'alice', application_id: APP } });
    expect(invite.status).toBe(200);
    expect(invite.body).toMatchObject({ activity: { type: 1 }, invite_activity: { party: { size: [1, 4] } } });
    expect(invite.body.invite_activity?.secrets).toBeUndefined();

    // alice asks bob to join; bob accepts with an invite to his party.
    const channel = await api<{ id: string }>(platform, 'POST', '/api/v10/users/@me/channels', { token: platform.loginToken('alice'), body: { recipient_id: SEED.users.bob } });
    const mine = await api<PlatformMessage>(platform, 'POST', `/api/v10/channels/${channel.body.id}/messages`, { token: platform.loginToken('alice'), body: { activity: { type: 5 }, application_id: APP } });
    expect(mine.status).toBe(200);
    const accepted = await api<any>(platform, 'POST', '/_emulator/simulated-friend/accept', { admin: true, body: { as: 'bob', to: 'alice' } });
    expect(accepted.body).toEqual({ accepted: 'join-request', message_id: mine.body.id, application_id: APP, invite_message_id: expect.any(String) });
    const secret = await api<any>(platform, 'POST', `/api/v10/users/${SEED.users.bob}/activities/${APP}/join`, { token: platform.loginToken('alice'), body: { message_id: accepted.body.invite_message_id } });
    expect(secret).toMatchObject({ status: 200, body: { secret: expect.stringMatching(/^sim-join-/) } });
    // Answered once: nothing open is left.
    expect((await api<any>(platform, 'POST', '/_emulator/simulated-friend/accept', { admin: true, body: { as: 'bob', to: 'alice' } })).status).toBe(404);
  });

  it('refuses strangers, unknown users and an unjoinable target, naming the field', async () => {
    const platform = await startTestPlatform();
    platform.admin.createUser('mallory');
    const strangers = await api<any>(platform, 'POST', '/_emulator/simulated-friend/invite', { admin: true, body: { as: 'mallory', to: 'alice', application_id: APP } });
    expect(strangers.status).toBe(400);
    expect(strangers.body.errors.to._errors[0].message).toContain('mallory and alice are not friends');
    expect((await api<any>(platform, 'POST', '/_emulator/simulated-friend/ask-to-join', { admin: true, body: { as: 'nobody', to: 'alice' } })).status).toBe(404);
    const unjoinable = await api<any>(platform, 'POST', '/_emulator/simulated-friend/ask-to-join', { admin: true, body: { as: 'bob', to: 'alice', application_id: APP } });
    expect(unjoinable.status).toBe(400);
    expect(JSON.stringify(unjoinable.body)).toContain('not joinable');
  });
});
