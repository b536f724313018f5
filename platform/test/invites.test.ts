import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import type { ActivityInviteAcceptedEvent, PlatformChannel, PlatformMessage, PresenceUpdateCommand, WireActivity } from '../src/wire/index.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';

const JOIN_SECRET = 'join-secret-do-not-leak-7f3a';

function hosting(partyId: string, options: { privacy?: number; size?: [number, number]; secret?: string; cover?: string } = {}): PresenceUpdateCommand {
  const activity: WireActivity = {
    name: 'Companion Demo Game',
    type: 0,
    application_id: SEED.appId,
    state: 'In a party',
    party: { id: partyId, size: options.size ?? [1, 4], ...(options.privacy !== undefined ? { privacy: options.privacy } : {}) },
    secrets: { join: options.secret ?? JOIN_SECRET },
    ...(options.cover !== undefined ? { assets: { invite_cover_image: options.cover } } : {}),
  };
  return { since: null, activities: [activity], status: 'online', afk: false };
}

/** alice hosts a party; bob and carol are online; alice and bob have a DM. */
async function setup(clock?: FakeClock, presence = hosting('party-1')) {
  const platform = await startTestPlatform(clock !== undefined ? { clock } : {});
  const alice = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'), presence);
  const bob1 = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
  const bob2 = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('bob'));
  await alice.client.barrier();
  const dm = await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token: platform.loginToken('alice'), body: { recipient_id: SEED.users.bob } });
  return { platform, alice, bob1, bob2, dm: dm.body };
}

function invite(platform: PlatformServer, channelId: string, partyId: string, from = 'alice') {
  return api<PlatformMessage>(platform, 'POST', `/api/channels/${channelId}/messages`, {
    token: platform.loginToken(from),
    body: { content: 'come play', activity: { type: 1, party_id: partyId }, application_id: SEED.appId },
  });
}

function join(platform: PlatformServer, as: string, body: { message_id?: string; session_id?: string } = {}) {
  return api<{ secret?: string; code?: number }>(platform, 'POST', `/api/users/${SEED.users.alice}/activities/${SEED.appId}/join`, { token: platform.loginToken(as), body });
}

describe('invites', () => {
  it('invite → the recipient gets the join secret; ACTIVITY_INVITE_ACCEPTED reaches their other session only', async () => {
    const { platform, bob1, bob2, dm } = await setup();
    const sent = await invite(platform, dm.id, 'party-1');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      activity: { type: 1, party_id: 'party-1' },
      application_id: SEED.appId,
      application: { id: SEED.appId, name: 'Companion Demo Game', cover_image: SEED.assets.cover },
      invite_activity: { name: 'Companion Demo Game', party: { id: 'party-1', size: [1, 4] } },
    });
    expect(sent.body.invite_activity?.secrets).toBeUndefined();
    const created = (await bob1.client.next(isDispatch('MESSAGE_CREATE'))).d as PlatformMessage;
    expect(created.id).toBe(sent.body.id);

    const accepted = await join(platform, 'bob', { message_id: sent.body.id, session_id: bob1.ready.session_id });
    expect(accepted).toMatchObject({ status: 200, body: { secret: JOIN_SECRET } });
    const event = (await bob2.client.next(isDispatch('ACTIVITY_INVITE_ACCEPTED'))).d as ActivityInviteAcceptedEvent;
    expect(event).toEqual({
      message_id: sent.body.id,
      channel_id: dm.id,
      application_id: SEED.appId,
      sender_id: SEED.users.alice,
      party_id: 'party-1',
      session_id: bob1.ready.session_id,
    });
    await bob1.client.barrier();
    expect(bob1.client.dispatches('ACTIVITY_INVITE_ACCEPTED')).toEqual([]);
    // Holding a valid invite also works without naming it.
    expect((await join(platform, 'bob')).body).toEqual({ secret: JOIN_SECRET });
  });

  it('uses the activity invite cover image when given', async () => {
    const { platform, dm } = await setup(undefined, hosting('party-1', { cover: 'party_banner' }));
    expect((await invite(platform, dm.id, 'party-1')).body.application?.cover_image).toBe('party_banner');
  });

  it('refuses an invite for a party the inviter is not in, or an activity that is not joinable (400 50035)', async () => {
    const { platform, dm } = await setup(undefined, hosting('party-1', { size: [4, 4] }));
    expect((await invite(platform, dm.id, 'party-1')).body).toMatchObject({ code: 50035 });
    const bobDm = await api<PlatformChannel>(platform, 'POST', '/api/users/@me/channels', { token: platform.loginToken('bob'), body: { recipient_id: SEED.users.alice } });
    expect((await invite(platform, bobDm.body.id, 'party-1', 'bob')).status).toBe(400);
  });

  it('without an invite a private party is 403 50001; unknown host 404 10013', async () => {
    const { platform } = await setup();
    expect(await join(platform, 'carol')).toMatchObject({ status: 403, body: { code: 50001 } });
    const unknown = await api(platform, 'POST', `/api/users/123456789012345678/activities/${SEED.appId}/join`, { token: platform.loginToken('carol'), body: {} });
    expect(unknown).toMatchObject({ status: 404, body: { code: 10013 } });
  });

  it('a public party lets friends join without an invite, not strangers', async () => {
    const { platform } = await setup(undefined, hosting('party-1', { privacy: 1 }));
    expect((await join(platform, 'carol')).body).toEqual({ secret: JOIN_SECRET });
    platform.admin.createUser('erin');
    expect((await join(platform, 'erin')).status).toBe(403);
  });

  it('join request, then decline → MESSAGE_UPDATE with activity.declined to both', async () => {
    const { platform, alice, bob1, dm } = await setup();
    const request = await api<PlatformMessage>(platform, 'POST', `/api/channels/${dm.id}/messages`, {
      token: platform.loginToken('bob'),
      body: { activity: { type: 5 }, application_id: SEED.appId },
    });
    expect(request.body).toMatchObject({ activity: { type: 5, party_id: 'party-1' }, author: { id: SEED.users.bob } });
    expect(((await alice.client.next(isDispatch('MESSAGE_CREATE'))).d as PlatformMessage).activity?.type).toBe(5);
    // The requester cannot decline their own request.
    expect((await api(platform, 'POST', `/api/channels/${dm.id}/messages/${request.body.id}/decline-activity-request`, { token: platform.loginToken('bob') })).status).toBe(403);
    const declined = await api(platform, 'POST', `/api/channels/${dm.id}/messages/${request.body.id}/decline-activity-request`, { token: platform.loginToken('alice') });
    expect(declined.status).toBe(204);
    for (const client of [alice.client, bob1.client]) {
      const update = (await client.next(isDispatch('MESSAGE_UPDATE'))).d as PlatformMessage;
      expect(update).toMatchObject({ id: request.body.id, activity: { type: 5, party_id: 'party-1', declined: true } });
    }
    // A join request does not let the requester join.
    expect((await join(platform, 'bob')).status).toBe(403);
  });

  it('refuses a join request to a host whose activity is not joinable', async () => {
    const { platform, dm } = await setup(undefined, hosting('party-1', { secret: '' }));
    const request = await api(platform, 'POST', `/api/channels/${dm.id}/messages`, { token: platform.loginToken('bob'), body: { activity: { type: 5 }, application_id: SEED.appId } });
    expect(request).toMatchObject({ status: 400, body: { code: 50035 } });
  });

  it('an invite stops being valid when the sender changes party', async () => {
    const { platform, alice, dm } = await setup();
    const sent = await invite(platform, dm.id, 'party-1');
    alice.client.setPresence(hosting('party-2'));
    await alice.client.barrier();
    expect(await join(platform, 'bob', { message_id: sent.body.id })).toMatchObject({ status: 403, body: { code: 50001 } });
    expect((await join(platform, 'bob')).status).toBe(403);
    // Back in the same party, the invite is good again.
    alice.client.setPresence(hosting('party-1'));
    await alice.client.barrier();
    expect((await join(platform, 'bob', { message_id: sent.body.id })).status).toBe(200);
  });

  it('an invite is valid for 6 h (fake clock)', async () => {
    const clock = new FakeClock();
    const { platform, dm } = await setup(clock);
    const sent = await invite(platform, dm.id, 'party-1');
    clock.advance(6 * 60 * 60 * 1000 - 1);
    expect((await join(platform, 'bob', { message_id: sent.body.id })).status).toBe(200);
    clock.advance(1);
    expect((await join(platform, 'bob', { message_id: sent.body.id })).status).toBe(403);
  });

  it('never puts the join secret in PRESENCE_UPDATE, READY or messages', async () => {
    const { platform, alice, bob1, bob2, dm } = await setup();
    const carol = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('carol'));
    const sent = await invite(platform, dm.id, 'party-1');
    await join(platform, 'bob', { message_id: sent.body.id, session_id: bob1.ready.session_id });
    const list = await api(platform, 'GET', `/api/channels/${dm.id}/messages`, { token: platform.loginToken('bob') });
    for (const client of [alice.client, bob1.client, bob2.client, carol.client]) await client.barrier();
    expect(carol.ready.presences.some((p) => p.user.id === SEED.users.alice)).toBe(true);
    expect(bob1.client.dispatches('PRESENCE_UPDATE').length + bob1.ready.presences.length).toBeGreaterThan(0);
    const everything = JSON.stringify([alice.client.messages, bob1.client.messages, bob2.client.messages, carol.client.messages, carol.ready, sent.body, list.body]);
    expect(everything).not.toContain(JOIN_SECRET);
  });
});
