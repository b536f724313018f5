import type { RpcServer, RpcSpeaking, RpcVoiceChannelSelect, RpcVoiceConnectionStatus } from '../../../../rpc/src/index.js';
import type { VoiceChannelBook, VoiceChannelChange } from './voice-channel-book.js';
import type { PlayerVoice } from './player-voice.js';
import { rpcVoiceState } from './voice-shapes.js';

const STATE_EVENTS = { create: 'VOICE_STATE_CREATE', update: 'VOICE_STATE_UPDATE', delete: 'VOICE_STATE_DELETE' } as const;

/**
 * The desktop client's voice events to the games subscribed to them: VOICE_STATE_CREATE /
 * UPDATE / DELETE and SPEAKING_START / STOP to the subscriptions of that `channel_id` (only
 * channels of the player's servers reach the book, so never one the player cannot see), and
 * VOICE_CHANNEL_SELECT and VOICE_CONNECTION_STATUS for the player's own voice. The RPC core
 * checked each subscription's scope when it was made. Returns a function that stops them.
 */
export function installVoiceEvents(server: Pick<RpcServer, 'dispatch'>, book: VoiceChannelBook, player: PlayerVoice): () => void {
  const onChange = (change: VoiceChannelChange): void => {
    const args = { channel_id: change.channelId };
    if (change.kind === 'speaking') {
      const data: RpcSpeaking = { user_id: change.userId, channel_id: change.channelId };
      server.dispatch(change.speaking ? 'SPEAKING_START' : 'SPEAKING_STOP', data, { args });
      return;
    }
    server.dispatch(STATE_EVENTS[change.kind], rpcVoiceState(change.state, book.userOf(change.state.user_id)), { args });
  };
  const onSelected = (selected: RpcVoiceChannelSelect): void => {
    server.dispatch('VOICE_CHANNEL_SELECT', selected);
  };
  const onStatus = (status: RpcVoiceConnectionStatus): void => {
    server.dispatch('VOICE_CONNECTION_STATUS', status);
  };
  book.on('change', onChange);
  player.on('selected', onSelected);
  player.on('status', onStatus);
  return () => {
    book.off('change', onChange);
    player.off('selected', onSelected);
    player.off('status', onStatus);
  };
}
