import { describe, expect, it } from 'vitest';
import { SEED, type PlatformServer } from '../src/index.js';
import type { VoiceSpeakingEvent } from '../src/wire/index.js';
import { api, startTestPlatform } from './support/harness.js';
import { GatewayClient, isDispatch } from './support/gateway-client.js';

/** A VOICE_STATE_UPDATE about `userId` that says `fields`. */
const stateOfUser =
  (userId: string, fields: Record<string, unknown>) =>
  (message: { op: number; t?: string | null; d?: unknown }): boolean => {
    if (!isDispatch('VOICE_STATE_UPDATE')(message as never)) return false;
    const d = message.d as Record<string, unknown>;
    return d['user_id'] === userId && Object.entries(fields).every(([key, value]) => d[key] === value);
  };

const { voice, party } = SEED.channels;
const join = (channelId: string | null): object => ({ guild_id: SEED.guildId, channel_id: channelId, self_mute: false, self_deaf: false });

async function ready(platform: PlatformServer, token: string): Promise<GatewayClient> {
  return (await GatewayClient.ready(platform.gatewayUrl, token)).client;
}

function friendVoice(platform: PlatformServer, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  return api<Record<string, unknown>>(platform, 'POST', '/_emulator/simulated-friend/voice', { admin: true, body });
}

describe('issue 29 §1 QA: the simulated friend speaks in a server voice channel (VOICE_SPEAKING_UPDATE, ours)', () => {
  it("reaches the users connected to that channel only; a mute, a move or a leave stops it first; a muted friend does not start", async () => {
    const platform = await startTestPlatform();
    const alice = await ready(platform, platform.loginToken('alice'));
    const carol = await ready(platform, platform.loginToken('carol'));
    alice.send(4, join(voice));
    carol.send(4, join(party));
    await alice.next(isDispatch('VOICE_STATE_UPDATE'));

    expect((await friendVoice(platform, { as: 'bob', action: 'join', channel: 'Voice' })).status).toBe(200);
    const spoke = await friendVoice(platform, { as: 'bob', action: 'speak', duration_ms: 60_000 });
    expect(spoke.body).toMatchObject({ user_id: SEED.users.bob, speaking: true, voice_state: { channel_id: voice, speaking: true } });
    const start = (await alice.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent;
    expect(start).toEqual({ guild_id: SEED.guildId, channel_id: voice, user_id: SEED.users.bob, speaking: true });
    // carol is in the guild, in another channel: she hears nothing of who speaks in Voice.
    await carol.barrier();
    expect(carol.dispatches('VOICE_SPEAKING_UPDATE')).toEqual([]);

    // Muting stops the speaking first, then the state says muted.
    await friendVoice(platform, { as: 'bob', action: 'mute' });
    expect(((await alice.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent).speaking).toBe(false);
    expect((await alice.next(stateOfUser(SEED.users.bob, { self_mute: true }))).d).toMatchObject({ channel_id: voice });
    const refused = await friendVoice(platform, { as: 'bob', action: 'speak' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('muted');

    // Speaking, then moving to Party: Voice hears the stop, Party hears nothing until he speaks there.
    await friendVoice(platform, { as: 'bob', action: 'unmute' });
    await friendVoice(platform, { as: 'bob', action: 'speak', duration_ms: 60_000 });
    expect(((await alice.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent).speaking).toBe(true);
    await friendVoice(platform, { as: 'bob', action: 'join', channel: party });
    expect(((await alice.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent)).toMatchObject({ channel_id: voice, speaking: false });
    await carol.barrier();
    expect(carol.dispatches('VOICE_SPEAKING_UPDATE')).toEqual([]);

    // The listing says who speaks; leaving ends the friend's voice session and state.
    await friendVoice(platform, { as: 'bob', action: 'speak', duration_ms: 60_000 });
    expect(((await carol.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent)).toMatchObject({ channel_id: party, speaking: true });
    const listed = await api<{ user_id: string; speaking: boolean }[]>(platform, 'GET', `/_emulator/voice-states?channel_id=${party}`, { admin: true });
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: SEED.users.bob, speaking: true }), expect.objectContaining({ user_id: SEED.users.carol, speaking: false })]));
    expect((await friendVoice(platform, { as: 'bob', action: 'leave' })).body).toMatchObject({ voice_state: null, speaking: false });
    expect(((await carol.next(isDispatch('VOICE_SPEAKING_UPDATE'))).d as VoiceSpeakingEvent).speaking).toBe(false);
    expect((await carol.next(stateOfUser(SEED.users.bob, { channel_id: null }))).d).toMatchObject({ guild_id: SEED.guildId });
  });

  it('refuses what it cannot do: an unknown user or channel, a channel of a guild the friend is not in, a bad body', async () => {
    const platform = await startTestPlatform();
    expect((await friendVoice(platform, { as: 'nobody', action: 'join', channel: 'Voice' })).status).toBe(404);
    expect((await friendVoice(platform, { as: 'bob', action: 'join', channel: 'No Such Channel' })).status).toBe(404);
    await api(platform, 'POST', '/_emulator/users', { admin: true, body: { username: 'eve' } });
    expect((await friendVoice(platform, { as: 'eve', action: 'join', channel: voice })).status).toBe(404);
    const bad = await friendVoice(platform, { as: 'bob', action: 'shout' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 50035, errors: { action: expect.anything() } });
    expect((await friendVoice(platform, { as: 'bob', action: 'speak', duration_ms: 0 })).status).toBe(400);
    expect((await friendVoice(platform, { as: 'bob', action: 'leave' })).status).toBe(200);
  });
});
