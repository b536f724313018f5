import * as v from 'valibot';
import { RpcError, RpcErrorCode } from '../protocol/codes.js';
import { obj } from './activity-schema.js';
import { SNOWFLAKE } from './invite-args.js';
import { parseArgs } from './joi-message.js';

/** The longest SELECT_VOICE_CHANNEL may wait for the join, in seconds (as GET_GUILD's timeout). */
export const SELECT_VOICE_CHANNEL_MAX_TIMEOUT_S = 60;

/** SELECT_VOICE_CHANNEL: `{channel_id: id or null, timeout?, force?, navigate?}`. */
export const SelectVoiceChannelArgs = obj({
  channel_id: v.nullable(SNOWFLAKE),
  timeout: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must be larger than or equal to 0'),
      v.maxValue(SELECT_VOICE_CHANNEL_MAX_TIMEOUT_S, `must be less than or equal to ${SELECT_VOICE_CHANNEL_MAX_TIMEOUT_S}`),
    ),
  ),
  force: v.optional(v.boolean('must be a boolean')),
  navigate: v.optional(v.boolean('must be a boolean')),
});

export type SelectVoiceChannelArgs = v.InferOutput<typeof SelectVoiceChannelArgs>;

export const parseSelectVoiceChannelArgs = (args: unknown): SelectVoiceChannelArgs => parseArgs(SelectVoiceChannelArgs, args);

/** The ERROR text of SELECT_VOICE_CHANNEL with a channel on an RPC server without a platform session (the host installs the real one). */
export const NO_VOICE_CHANNELS_MESSAGE = 'This RPC server has no platform session to join voice channels with; only leaving, with channel_id null, is answered';

/**
 * GET_SELECTED_VOICE_CHANNEL and SELECT_VOICE_CHANNEL of an RPC server on its own (no platform
 * session; the host replaces them, host/voice/): null, and null for a leave; joining one is
 * ERROR 1000 saying so.
 */
export const noVoiceChannel = {
  selected(): null {
    return null;
  },
  select(args: unknown): null {
    const parsed = parseSelectVoiceChannelArgs(args);
    if (parsed.channel_id === null) return null;
    throw new RpcError(RpcErrorCode.UnknownError, NO_VOICE_CHANNELS_MESSAGE);
  },
};

/** ERROR 5003 of SELECT_VOICE_CHANNEL without `force` while in another voice channel (ours: the desktop client's text is not on record). */
export const SELECT_VOICE_FORCE_REQUIRED_MESSAGE = 'Already in a voice channel: SELECT_VOICE_CHANNEL needs force: true to move to another';
/** ERROR 5001 when the platform has not confirmed the join within `timeout` (ours, after the code's name). */
export const SELECT_CHANNEL_TIMED_OUT_MESSAGE = 'Select channel timed out';
