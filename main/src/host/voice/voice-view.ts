import type { UserView, VoiceView } from '../../../../preload/src/contract.js';
import type { VoiceSettings } from '../../../../rpc/src/index.js';
import type { VoiceChannelBook } from './voice-channel-book.js';
import type { PlayerVoice } from './player-voice.js';

function userView(id: string, book: VoiceChannelBook): UserView {
  const user = book.userOf(id);
  return { id, username: user?.username ?? id, discriminator: user?.discriminator ?? '0', global_name: user?.global_name ?? null, avatar: user?.avatar ?? null };
}

/** The player's voice as Companion shows it: their channel, who is in it and speaks, their mute and deafen. */
export function playerVoiceView(player: PlayerVoice, book: VoiceChannelBook, settings: VoiceSettings): VoiceView {
  const state = player.state;
  const base = { mute: settings.mute, deaf: settings.deaf, connection: player.status.state, audio: false as const };
  if (state === undefined) return { channel: null, members: [], ...base };
  const members = book.inChannel(state.channel_id).map((member) => ({
    user: userView(member.user_id, book),
    self_mute: member.self_mute,
    self_deaf: member.self_deaf,
    speaking: book.speaking(member.user_id),
    me: member.user_id === state.user_id,
  }));
  return { channel: { id: state.channel_id, guild_id: state.guild_id, name: book.channelName(state.channel_id) }, members, ...base };
}
