import {
  parseSelectVoiceChannelArgs,
  RpcError,
  RpcErrorCode,
  SELECT_VOICE_FORCE_REQUIRED_MESSAGE,
  type CommandHandler,
  type RpcServer,
} from '../../../../rpc/src/index.js';
import type { GuildSource, SourceChannel } from '../guilds/guild-source.js';
import { INVALID_CHANNEL_MESSAGE } from '../guilds/guild-commands.js';
import type { VoiceChannelBook } from './voice-channel-book.js';
import { DEFAULT_SELECT_TIMEOUT_MS, type PlayerVoice } from './player-voice.js';
import { rpcVoiceChannel, rpcVoiceState } from './voice-shapes.js';

const GUILD_VOICE = 2;

export interface VoiceChannelCommandsDeps {
  readonly player: PlayerVoice;
  readonly book: VoiceChannelBook;
  readonly channels: Pick<GuildSource, 'channel'>;
  /** A game asked with `navigate: true`: Companion shows the channel. */
  readonly navigate: (request: { readonly channelId: string; readonly applicationId: string; readonly connectionId: string }) => void;
}

/**
 * SELECT_VOICE_CHANNEL and GET_SELECTED_VOICE_CHANNEL over the player's voice (PlayerVoice):
 * - SELECT with a channel the player can see joins it (op 4 on the host's gateway session) and
 *   answers the channel with its voice states once the platform confirms; already in another
 *   channel without `force`: 5003; the platform silent past `timeout` (s; 10 s by default,
 *   ours): 5001; a channel the player cannot see or not a voice channel: 4005 "Invalid channel".
 *   `navigate: true` also shows the channel in Companion. `channel_id: null` leaves; null.
 * - GET_SELECTED answers the channel the player is in with its voice states, or null.
 * - GET_CHANNEL (installed before, guilds/) of a voice channel carries its voice states too, as
 *   the desktop client's does (overlays read who is in a channel from it).
 */
export function installVoiceChannelCommands(server: Pick<RpcServer, 'setCommandHandler' | 'commandHandler'>, deps: VoiceChannelCommandsDeps): void {
  const { player, book, channels } = deps;

  const channelView = (channel: SourceChannel): ReturnType<typeof rpcVoiceChannel> =>
    rpcVoiceChannel(
      channel,
      book.inChannel(channel.id).map((state) => rpcVoiceState(state, book.userOf(state.user_id))),
    );

  const voiceChannel = async (channelId: string): Promise<SourceChannel & { readonly guild_id: string }> => {
    const channel = await channels.channel(channelId);
    if (channel === null || channel.type !== GUILD_VOICE || channel.guild_id === undefined) throw new RpcError(RpcErrorCode.InvalidChannel, INVALID_CHANNEL_MESSAGE);
    return channel as SourceChannel & { readonly guild_id: string };
  };

  const select: CommandHandler = async ({ connection, request, signal }) => {
    const args = parseSelectVoiceChannelArgs(request.args);
    const timeoutMs = args.timeout === undefined || args.timeout === 0 ? DEFAULT_SELECT_TIMEOUT_MS : args.timeout * 1000;
    if (args.channel_id === null) {
      await player.leave(timeoutMs, signal);
      return null;
    }
    const channel = await voiceChannel(args.channel_id);
    const current = player.state;
    if (current !== undefined && current.channel_id !== channel.id && args.force !== true) {
      throw new RpcError(RpcErrorCode.SelectVoiceForceRequired, SELECT_VOICE_FORCE_REQUIRED_MESSAGE);
    }
    await player.join(channel.guild_id, channel.id, timeoutMs, signal);
    if (args.navigate === true) deps.navigate({ channelId: channel.id, applicationId: connection.clientId ?? '', connectionId: connection.id });
    return channelView(channel);
  };

  const selected: CommandHandler = async () => {
    const state = player.state;
    if (state === undefined) return null;
    const channel = await channels.channel(state.channel_id);
    return channel === null ? null : channelView(channel);
  };

  server.setCommandHandler('SELECT_VOICE_CHANNEL', select);
  server.setCommandHandler('GET_SELECTED_VOICE_CHANNEL', selected);
  const getChannel = server.commandHandler('GET_CHANNEL');
  if (getChannel !== undefined) {
    server.setCommandHandler('GET_CHANNEL', async (context) => {
      const channel = (await getChannel(context)) as { readonly id: string; readonly type: number } | null;
      if (channel === null || channel.type !== GUILD_VOICE) return channel;
      return { ...channel, voice_states: book.inChannel(channel.id).map((state) => rpcVoiceState(state, book.userOf(state.user_id))) };
    });
  }
}
