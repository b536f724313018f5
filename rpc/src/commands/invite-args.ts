import * as v from 'valibot';
import { obj } from './activity-schema.js';
import { parseArgs } from './joi-message.js';

/** A user, message or channel id: a string of digits. */
/** An id as the protocol sends it: a string of 1 to 20 digits. */
export const SNOWFLAKE = v.pipe(v.string('must be a string'), v.regex(/^[0-9]{1,20}$/, 'must be a snowflake (a string of digits)'));
const PID = v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be larger than or equal to 0')));

/** SEND_ACTIVITY_JOIN_INVITE and CLOSE_ACTIVITY_(JOIN_)REQUEST: `{user_id, pid?}`. */
export const UserIdArgs = obj({ user_id: SNOWFLAKE, pid: PID });

/**
 * ACTIVITY_INVITE_USER (ours: the real client documents no shape): `{user_id, type?, content?,
 * pid?}`. `type` is the message activity type; only 1 (JOIN) can be sent. `content` is the
 * invite's text, at most 1024 characters as the Social SDK's SendActivityInvite allows.
 */
export const InviteUserArgs = obj({
  user_id: SNOWFLAKE,
  type: v.optional(v.literal(1, 'must be one of [1]')),
  content: v.optional(v.pipe(v.string('must be a string'), v.maxLength(1024, 'length must be less than or equal to 1024 characters long'))),
  pid: PID,
});

/** ACCEPT_ACTIVITY_INVITE (ours): `{message_id, channel_id?, user_id?, pid?}`; replies `{secret}`. */
export const AcceptInviteArgs = obj({ message_id: SNOWFLAKE, channel_id: v.optional(SNOWFLAKE), user_id: v.optional(SNOWFLAKE), pid: PID });

export type UserIdArgs = v.InferOutput<typeof UserIdArgs>;
export type InviteUserArgs = v.InferOutput<typeof InviteUserArgs>;
export type AcceptInviteArgs = v.InferOutput<typeof AcceptInviteArgs>;

export const parseUserIdArgs = (args: unknown): UserIdArgs => parseArgs(UserIdArgs, args);
export const parseInviteUserArgs = (args: unknown): InviteUserArgs => parseArgs(InviteUserArgs, args);
export const parseAcceptInviteArgs = (args: unknown): AcceptInviteArgs => parseArgs(AcceptInviteArgs, args);
