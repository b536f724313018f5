import { describe, expect, it } from 'vitest';
import type { PlatformUser, VoiceState } from '../../../../platform/src/wire/index.js';
import { VoiceChannelBook, type VoiceChannelChange } from '../../../src/host/voice/voice-channel-book.js';

const GUILD = '10';
const VOICE = '21';
const PARTY = '22';
const bob: PlatformUser = { id: '2', username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null, bot: false, flags: 0, premium_type: 0 };

function state(userId: string, channelId: string | null, extra: Partial<VoiceState> = {}): VoiceState {
  return { guild_id: GUILD, channel_id: channelId, user_id: userId, session_id: `s-${userId}`, deaf: false, mute: false, self_deaf: false, self_mute: false, self_stream: false, self_video: false, suppress: false, request_to_speak_timestamp: null, ...extra };
}

function ready(voiceStates: object[]): unknown {
  return {
    guilds: [
      {
        id: GUILD,
        channels: [
          { id: '20', type: 0, name: 'general' },
          { id: VOICE, type: 2, name: 'Voice' },
          { id: PARTY, type: 2, name: 'Party' },
        ],
        voice_states: voiceStates,
      },
    ],
  };
}

function book(): { book: VoiceChannelBook; changes: string[] } {
  const voiceBook = new VoiceChannelBook((id) => (id === bob.id ? bob : undefined));
  const changes: string[] = [];
  voiceBook.on('change', (change: VoiceChannelChange) => {
    changes.push(change.kind === 'speaking' ? `${change.speaking ? 'start' : 'stop'} ${change.userId}@${change.channelId}` : `${change.kind} ${change.state.user_id}@${change.channelId}`);
  });
  return { book: voiceBook, changes };
}

describe('issue 29 §3: the voice states the host keeps for the voice events (VoiceChannelBook)', () => {
  it("reads READY's partial states and channel names, then follows VOICE_STATE_UPDATE as create, update and delete per channel; a move stops speaking first", () => {
    const { book: voices, changes } = book();
    const { guild_id: _guild, ...partial } = state(bob.id, VOICE);
    voices.dispatch('READY', ready([partial]));
    expect(changes).toEqual([`create 2@${VOICE}`]);
    expect(voices.channelName(VOICE)).toBe('Voice');
    expect(voices.userOf(bob.id)).toEqual(bob);
    expect(voices.inChannel(VOICE).map((entry) => entry.user_id)).toEqual([bob.id]);

    voices.dispatch('VOICE_SPEAKING_UPDATE', { guild_id: GUILD, channel_id: VOICE, user_id: bob.id, speaking: true });
    // A speaking update for a channel the user is not in, or a repeat, changes nothing.
    voices.dispatch('VOICE_SPEAKING_UPDATE', { guild_id: GUILD, channel_id: PARTY, user_id: bob.id, speaking: true });
    voices.dispatch('VOICE_SPEAKING_UPDATE', { guild_id: GUILD, channel_id: VOICE, user_id: bob.id, speaking: true });
    expect(voices.speaking(bob.id)).toBe(true);
    voices.dispatch('VOICE_STATE_UPDATE', state(bob.id, PARTY));
    expect(changes).toEqual([`create 2@${VOICE}`, `start 2@${VOICE}`, `stop 2@${VOICE}`, `delete 2@${VOICE}`, `create 2@${PARTY}`]);
    voices.dispatch('VOICE_STATE_UPDATE', state(bob.id, PARTY, { self_mute: true }));
    voices.dispatch('VOICE_STATE_UPDATE', state(bob.id, null));
    expect(changes.slice(5)).toEqual([`update 2@${PARTY}`, `delete 2@${PARTY}`]);
    expect(voices.stateOf(bob.id)).toBeUndefined();
  });

  it('a new READY ends the states it no longer lists; malformed dispatches are ignored; clear() forgets everything', () => {
    const { book: voices, changes } = book();
    voices.dispatch('VOICE_STATE_UPDATE', state('3', VOICE));
    voices.dispatch('VOICE_STATE_UPDATE', { guild_id: GUILD, user_id: 7 });
    voices.dispatch('VOICE_STATE_UPDATE', null);
    voices.dispatch('VOICE_SPEAKING_UPDATE', { user_id: '3', speaking: 'yes' });
    voices.dispatch('READY', ready([]));
    expect(changes).toEqual([`create 3@${VOICE}`, `delete 3@${VOICE}`]);
    voices.dispatch('VOICE_STATE_UPDATE', state('3', VOICE));
    voices.clear();
    expect(voices.inChannel(VOICE)).toEqual([]);
    expect(voices.channelName(VOICE)).toBeNull();
  });
});
