import type { RpcVoiceState } from '../../../../rpc/src/index.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { rpcChannel, type RpcChannel } from '../guilds/guild-shapes.js';
import type { SourceChannel } from '../guilds/guild-source.js';
import { rpcUserFrom } from '../presence/rpc-user.js';
import type { ChannelVoiceState } from './voice-channel-book.js';

/** A user the host was told nothing of but the id (a partial state of READY): a bare user object. */
function bareUser(id: string): PlatformUser {
  return { id, username: id, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 };
}

/**
 * A voice state as the desktop client's RPC gives it: the server and self mute/deaf flags, the
 * user, the name shown (`nick`: no nicknames on the emulator, so the display name), and the
 * player's local volume, mute and pan for that user (the defaults: nothing sets them here).
 */
export function rpcVoiceState(state: ChannelVoiceState, user: PlatformUser | undefined): RpcVoiceState {
  const known = user ?? bareUser(state.user_id);
  return {
    voice_state: { mute: state.mute, deaf: state.deaf, self_mute: state.self_mute, self_deaf: state.self_deaf, suppress: state.suppress },
    user: rpcUserFrom(known),
    nick: known.global_name ?? known.username,
    volume: 100,
    mute: false,
    pan: { left: 1, right: 1 },
  };
}

/** A voice channel as GET_SELECTED_VOICE_CHANNEL and SELECT_VOICE_CHANNEL answer it: GET_CHANNEL's shape with who is in it. */
export function rpcVoiceChannel(channel: SourceChannel, voiceStates: readonly RpcVoiceState[]): Omit<RpcChannel, 'voice_states'> & { readonly voice_states: readonly RpcVoiceState[] } {
  return { ...rpcChannel(channel), voice_states: voiceStates };
}
