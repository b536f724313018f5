import * as v from 'valibot';
import { obj } from './activity-schema.js';
import { SNOWFLAKE } from './invite-args.js';
import { parseArgs } from './joi-message.js';

const PID = v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be larger than or equal to 0')));

/** OPEN_CONNECTED_GAMES_SETTINGS (ours): `{pid?}`; Companion shows its Authorized apps with the asking game's application. Replies null. */
export const OpenConnectedGamesSettingsArgs = obj({ pid: PID });

/** OPEN_MESSAGE (ours): `{message_id, pid?}`; Companion shows the conversation holding that direct message. Replies null. */
export const OpenMessageArgs = obj({ message_id: SNOWFLAKE, pid: PID });

export type OpenConnectedGamesSettingsArgs = v.InferOutput<typeof OpenConnectedGamesSettingsArgs>;
export type OpenMessageArgs = v.InferOutput<typeof OpenMessageArgs>;

export const parseOpenConnectedGamesSettingsArgs = (args: unknown): OpenConnectedGamesSettingsArgs => parseArgs(OpenConnectedGamesSettingsArgs, args ?? {});
export const parseOpenMessageArgs = (args: unknown): OpenMessageArgs => parseArgs(OpenMessageArgs, args);

/** SET_SHOWING_CHAT (ours; the Social SDK's SetShowingChat): `{showing, pid?}`. Replies null. */
export const SetShowingChatArgs = obj({ showing: v.boolean('must be a boolean'), pid: PID });
export type SetShowingChatArgs = v.InferOutput<typeof SetShowingChatArgs>;
export const parseSetShowingChatArgs = (args: unknown): SetShowingChatArgs => parseArgs(SetShowingChatArgs, args);
