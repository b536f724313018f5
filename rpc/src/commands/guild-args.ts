import * as v from 'valibot';
import { obj } from './activity-schema.js';
import { parseArgs } from './joi-message.js';
import { SNOWFLAKE } from './invite-args.js';

/** A guild or channel id: a string of digits. */

/** The longest GET_GUILD may wait for the guild, in seconds (the real client allows 60 s at most). */
export const GET_GUILD_MAX_TIMEOUT_S = 60;

/** GET_GUILD: `{guild_id, timeout?}`; `timeout` in seconds, 0 to 60. */
export const GetGuildArgs = obj({
  guild_id: SNOWFLAKE,
  timeout: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must be larger than or equal to 0'),
      v.maxValue(GET_GUILD_MAX_TIMEOUT_S, `must be less than or equal to ${GET_GUILD_MAX_TIMEOUT_S}`),
    ),
  ),
});

/** GET_GUILDS: `{}` (unknown keys are ignored, as everywhere). */
export const GetGuildsArgs = obj({});

/** GET_CHANNEL: `{channel_id}`. */
export const GetChannelArgs = obj({ channel_id: SNOWFLAKE });

/** GET_CHANNELS: `{guild_id}`. */
export const GetChannelsArgs = obj({ guild_id: SNOWFLAKE });

export type GetGuildArgs = v.InferOutput<typeof GetGuildArgs>;
export type GetGuildsArgs = v.InferOutput<typeof GetGuildsArgs>;
export type GetChannelArgs = v.InferOutput<typeof GetChannelArgs>;
export type GetChannelsArgs = v.InferOutput<typeof GetChannelsArgs>;

export const parseGetGuildArgs = (args: unknown): GetGuildArgs => parseArgs(GetGuildArgs, args);
export const parseGetGuildsArgs = (args: unknown): GetGuildsArgs => parseArgs(GetGuildsArgs, args);
export const parseGetChannelArgs = (args: unknown): GetChannelArgs => parseArgs(GetChannelArgs, args);
export const parseGetChannelsArgs = (args: unknown): GetChannelsArgs => parseArgs(GetChannelsArgs, args);
