import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import type { PlatformChannel, VoiceState } from '../src/wire/index.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';

const { voice, party, general } = SEED.channels;
const join = (channelId: string | null, extra: { self_mute?: boolean; self_deaf?: boolean; guild_id?: string | null } = {}): object => ({
  guild_id: SEED.guildId,
  channel_id: channelId,
  self_mute: false,
  self_deaf: false,
  ...extra,
});

/** A user outside the seeded guild (another guild's member, for all the seeded one knows). */
async function outsider(platform: PlatformServer): Promise<string> {
  await api(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'eve' } });
  return platform.loginToken('eve');
}

async function ready(platform: PlatformServer, token: string): Promise<GatewayClient> {
  return (await GatewayClient.ready(platform.gatewayUrl, token)).client;
}

const stateOf = (message: { d: unknown }): VoiceState => message.d as VoiceState;

describe('issue 29 §1: voice states in a server (op 4, VOICE_STATE_UPDATE)', () => {
  it('joining, muting, moving and leaving a voice channel reach every member with the full voice state', async () => {
    const platform = await startTestPlatform();
    const alice = await ready(platform, platform.loginToken('alice'));
    const bob = await ready(platform, platform.loginToken('bob'));
    alice.send(4, join(voice));
    const joined = stateOf(await bob.next(isDispatch('VOICE_STATE_UPDATE')));
    expect(joined).toMatchObject({
      guild_id: SEED.guildId,
      channel_id: voice,
      user_id: SEED.users.alice,
      member: { user: { id: SEED.users.alice }, roles: [], deaf: false, mute: false },
      deaf: false,
      mute: false,
      self_deaf: false,
      self_mute: false,
      self_stream: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
    });
    expect(typeof joined.session_id).toBe('string');
    expect(stateOf(await alice.next(isDispatch('VOICE_STATE_UPDATE'))).channel_id).toBe(voice);

    alice.send(4, join(voice, { self_mute: true, self_deaf: true }));
    expect(stateOf(await bob.next(isDispatch('VOICE_STATE_UPDATE')))).toMatchObject({ channel_id: voice, self_mute: true, self_deaf: true });
    alice.send(4, join(party));
    expect(stateOf(await bob.next(isDispatch('VOICE_STATE_UPDATE')))).toMatchObject({ channel_id: party, self_mute: false });
    alice.send(4, join(null));
    expect(stateOf(await bob.next(isDispatch('VOICE_STATE_UPDATE')))).toMatchObject({ channel_id: null, user_id: SEED.users.alice });
    const listed = await api<VoiceState[]>(platform, 'GET', `/_emulator/voice-states?guild_id=${SEED.guildId}`, { admin: true });
    expect(listed.body).toEqual([]);
  });

  it('a text channel, a guild the user is not in, and another guild member never see or make a voice state', async () => {
    const platform = await startTestPlatform();
    const eve = await ready(platform, await outsider(platform));
    const bob = await ready(platform, platform.loginToken('bob'));
    // An outsider's op 4 for the guild is ignored; a text channel is not a voice channel.
    eve.send(4, join(voice));
    bob.send(4, join(general));
    await eve.barrier();
    await bob.barrier();
    expect(bob.dispatches('VOICE_STATE_UPDATE')).toEqual([]);
    expect((await api<VoiceState[]>(platform, 'GET', '/_emulator/voice-states', { admin: true })).body).toEqual([]);
    // A member's join is never sent outside the guild.
    bob.send(4, join(voice));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    await eve.barrier();
    expect(eve.dispatches('VOICE_STATE_UPDATE')).toEqual([]);
    expect(eve.dispatches('VOICE_CHANNEL_START_TIME_UPDATE')).toEqual([]);
    // A payload of the wrong shape closes the sender's connection only.
    eve.send(4, { guild_id: SEED.guildId, channel_id: voice, self_mute: 'yes', self_deaf: false });
    expect((await eve.closed).code).toBe(4001);
    await bob.barrier();
  });

  it('one voice state per user: a second session takes it over, and only the holding session closing removes it', async () => {
    const platform = await startTestPlatform();
    const carol = await ready(platform, platform.loginToken('carol'));
    const first = await ready(platform, platform.loginToken('bob'));
    const second = await ready(platform, platform.loginToken('bob'));
    first.send(4, join(voice));
    const a = stateOf(await carol.next(isDispatch('VOICE_STATE_UPDATE')));
    second.send(4, join(party));
    const b = stateOf(await carol.next(isDispatch('VOICE_STATE_UPDATE')));
    expect(b.channel_id).toBe(party);
    expect(b.session_id).not.toBe(a.session_id);
    const all = await api<VoiceState[]>(platform, 'GET', '/_emulator/voice-states', { admin: true });
    expect(all.body.map((state) => [state.user_id, state.channel_id])).toEqual([[SEED.users.bob, party]]);

    first.close(1000);
    await first.closed;
    await carol.barrier();
    expect(carol.dispatches('VOICE_STATE_UPDATE')).toHaveLength(2);
    second.close(1000);
    const left = stateOf(await carol.next(isDispatch('VOICE_STATE_UPDATE')));
    expect(left).toMatchObject({ channel_id: null, user_id: SEED.users.bob, session_id: b.session_id });
  });

  it('a dropped connection keeps its voice state while the session may resume, and the session expiring removes it', async () => {
    const platform = await startTestPlatform({ limits: { resumeWindowMs: 3000 } });
    const carol = await ready(platform, platform.loginToken('carol'));
    const bob = await ready(platform, platform.loginToken('bob'));
    bob.send(4, join(voice));
    await carol.next(isDispatch('VOICE_STATE_UPDATE'));
    bob.terminate();
    await bob.closed;
    await carol.barrier();
    expect(carol.dispatches('VOICE_STATE_UPDATE')).toHaveLength(1);
    expect((await api<VoiceState[]>(platform, 'GET', '/_emulator/voice-states', { admin: true })).body).toHaveLength(1);
    expect(stateOf(await carol.next(isDispatch('VOICE_STATE_UPDATE')))).toMatchObject({ user_id: SEED.users.bob, channel_id: null });
    expect((await api<VoiceState[]>(platform, 'GET', '/_emulator/voice-states', { admin: true })).body).toEqual([]);
  });

  it('READY guilds carry voice_states', async () => {
    const platform = await startTestPlatform();
    const bob = await ready(platform, platform.loginToken('bob'));
    bob.send(4, join(voice, { self_mute: true }));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    const { ready: aliceReady } = await GatewayClient.ready(platform.gatewayUrl, platform.loginToken('alice'));
    const guild = aliceReady.guilds.find((entry) => entry.id === SEED.guildId);
    expect(guild?.voice_states).toEqual([expect.objectContaining({ channel_id: voice, user_id: SEED.users.bob, self_mute: true })]);
    expect(guild?.voice_states?.[0]).not.toHaveProperty('guild_id');
  });
});

describe('issue 29 §1: Get Current User Voice State / Get User Voice State', () => {
  it('answers the state, 10065 when there is none, and refuses a user outside the guild', async () => {
    const platform = await startTestPlatform();
    const bob = await ready(platform, platform.loginToken('bob'));
    const base = `/api/v10/guilds/${SEED.guildId}/voice-states`;
    expect((await api(platform, 'GET', `${base}/@me`, { token: platform.loginToken('bob') })).body).toMatchObject({ code: 10065 });
    bob.send(4, join(voice));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    const mine = await api<VoiceState>(platform, 'GET', `${base}/@me`, { token: platform.loginToken('bob') });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ guild_id: SEED.guildId, channel_id: voice, user_id: SEED.users.bob });
    const seen = await api<VoiceState>(platform, 'GET', `${base}/${SEED.users.bob}`, { token: platform.loginToken('carol') });
    expect(seen.body).toEqual(mine.body);
    const none = await api(platform, 'GET', `${base}/${SEED.users.dave}`, { token: platform.loginToken('carol') });
    expect([none.status, none.body]).toEqual([404, { code: 10065, message: 'Unknown Voice State' }]);
    // Another guild's member (not in this one) learns nothing of it.
    const eve = await outsider(platform);
    const refused = await api(platform, 'GET', `${base}/${SEED.users.bob}`, { token: eve });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 50001 });
    const unknownGuild = await api(platform, 'GET', '/api/v10/guilds/123456789012345678/voice-states/@me', { token: platform.loginToken('bob') });
    expect([unknownGuild.status, (unknownGuild.body as { code: number }).code]).toEqual([404, 10004]);
  });
});

describe('issue 29 §1: PUT /channels/{id}/voice-status', () => {
  it('a connected member sets it and the guild hears VOICE_CHANNEL_STATUS_UPDATE; op 43 and GET /channels show it', async () => {
    const platform = await startTestPlatform();
    const bob = await ready(platform, platform.loginToken('bob'));
    const carol = await ready(platform, platform.loginToken('carol'));
    const eve = await ready(platform, await outsider(platform));
    bob.send(4, join(voice));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    const put = await api(platform, 'PUT', `/api/v10/channels/${voice}/voice-status`, { token: platform.loginToken('bob'), body: { status: 'raid night' } });
    expect(put.status).toBe(204);
    expect((await carol.next(isDispatch('VOICE_CHANNEL_STATUS_UPDATE'))).d).toEqual({ id: voice, guild_id: SEED.guildId, status: 'raid night' });
    carol.send(43, { guild_id: SEED.guildId, fields: ['status'] });
    expect((await carol.next(isDispatch('CHANNEL_INFO'))).d).toEqual({ guild_id: SEED.guildId, channels: [{ id: voice, status: 'raid night' }, { id: party, status: null }] });
    expect((await api<PlatformChannel>(platform, 'GET', `/api/v10/channels/${voice}`, { token: platform.loginToken('carol') })).body).toMatchObject({ status: 'raid night' });
    await eve.barrier();
    expect(eve.dispatches('VOICE_CHANNEL_STATUS_UPDATE')).toEqual([]);
    // Empty clears it.
    await api(platform, 'PUT', `/api/v10/channels/${voice}/voice-status`, { token: platform.loginToken('bob'), body: { status: '' } });
    expect((await carol.next(isDispatch('VOICE_CHANNEL_STATUS_UPDATE'))).d).toEqual({ id: voice, guild_id: SEED.guildId, status: null });
  });

  it('refuses a member not connected (no MANAGE_CHANNELS), a user outside the guild, a text channel and 501 characters', async () => {
    const platform = await startTestPlatform();
    const carol = await ready(platform, platform.loginToken('carol'));
    const put = (token: string, channel: string, status: unknown) => api(platform, 'PUT', `/api/v10/channels/${channel}/voice-status`, { token, body: { status } });
    const notConnected = await put(platform.loginToken('bob'), voice, 'hello');
    expect([notConnected.status, notConnected.body]).toEqual([403, { code: 50013, message: 'Missing Permissions' }]);
    const outside = await put(await outsider(platform), voice, 'hello');
    expect([outside.status, (outside.body as { code: number }).code]).toEqual([403, 50001]);
    expect((await put(platform.loginToken('alice'), general, 'hello')).body).toMatchObject({ code: 50024 });
    const tooLong = await put(platform.loginToken('alice'), voice, 'x'.repeat(501));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 50035, errors: { status: {} } });
    await carol.barrier();
    expect(carol.dispatches('VOICE_CHANNEL_STATUS_UPDATE')).toEqual([]);
    // The owner holds MANAGE_CHANNELS: may set it without being connected.
    expect((await put(platform.loginToken('alice'), voice, 'x'.repeat(500))).status).toBe(204);
  });
});

describe('issue 29 §1: Request Channel Info (op 43) voice_start_time and its event', () => {
  it('the first one in starts the call, the last one out ends it and clears the status', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 28, 12, 0, 0));
    const platform = await startTestPlatform({ clock });
    const bob = await ready(platform, platform.loginToken('bob'));
    const carol = await ready(platform, platform.loginToken('carol'));
    const started = Math.floor(clock.time / 1000);
    bob.send(4, join(voice));
    expect((await carol.next(isDispatch('VOICE_CHANNEL_START_TIME_UPDATE'))).d).toEqual({ id: voice, guild_id: SEED.guildId, voice_start_time: started });
    clock.advance(60_000);
    carol.send(4, join(voice));
    await carol.next(isDispatch('VOICE_STATE_UPDATE'));
    carol.send(43, { guild_id: SEED.guildId, fields: ['status', 'voice_start_time'] });
    expect((await carol.next(isDispatch('CHANNEL_INFO'))).d).toEqual({
      guild_id: SEED.guildId,
      channels: [
        { id: voice, status: null, voice_start_time: started },
        { id: party, status: null, voice_start_time: null },
      ],
    });
    await api(platform, 'PUT', `/api/v10/channels/${voice}/voice-status`, { token: platform.loginToken('bob'), body: { status: 'ranked' } });
    await carol.next(isDispatch('VOICE_CHANNEL_STATUS_UPDATE'));
    bob.send(4, join(null));
    carol.send(4, join(null));
    expect((await carol.next(isDispatch('VOICE_CHANNEL_START_TIME_UPDATE'))).d).toEqual({ id: voice, guild_id: SEED.guildId, voice_start_time: null });
    expect((await carol.next(isDispatch('VOICE_CHANNEL_STATUS_UPDATE'))).d).toEqual({ id: voice, guild_id: SEED.guildId, status: null });
    carol.send(43, { guild_id: SEED.guildId, fields: ['voice_start_time'] });
    expect((await carol.next(isDispatch('CHANNEL_INFO'))).d).toMatchObject({ channels: [{ id: voice, voice_start_time: null }, { id: party, voice_start_time: null }] });
    // An outsider's op 43 is not answered.
    const eve = await ready(platform, await outsider(platform));
    eve.send(43, { guild_id: SEED.guildId, fields: ['status'] });
    await eve.barrier();
    expect(eve.dispatches('CHANNEL_INFO')).toEqual([]);
  });
});

describe('issue 29 §1: admin listing of voice states', () => {
  it('lists by guild and by channel', async () => {
    const platform = await startTestPlatform();
    const bob = await ready(platform, platform.loginToken('bob'));
    const carol = await ready(platform, platform.loginToken('carol'));
    bob.send(4, join(voice));
    carol.send(4, join(party));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    await bob.next(isDispatch('VOICE_STATE_UPDATE'));
    const byChannel = await api<VoiceState[]>(platform, 'GET', `/_emulator/voice-states?channel_id=${party}`, { admin: true });
    expect(byChannel.body.map((state) => state.user_id)).toEqual([SEED.users.carol]);
    const byGuild = await api<VoiceState[]>(platform, 'GET', `/_emulator/voice-states?guild_id=${SEED.guildId}`, { admin: true });
    expect(byGuild.body.map((state) => state.user_id).sort()).toEqual([SEED.users.bob, SEED.users.carol].sort());
    expect((await api(platform, 'GET', '/_emulator/voice-states')).status).toBe(401);
  });
});
