import * as v from 'valibot';
import { obj } from './activity-schema.js';
import { SNOWFLAKE } from './invite-args.js';
import { parseArgs } from './joi-message.js';

/** OPEN_AUTHORIZE_DEVICE_SCREEN (ours; the Social SDK's OpenAuthorizeDeviceScreen): `{client_id, user_code}`; Companion shows its code-entry screen. Replies null. */
export const OpenAuthorizeDeviceScreenArgs = obj({ client_id: SNOWFLAKE, user_code: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(32, 'must be at most 32 characters')) });
export type OpenAuthorizeDeviceScreenArgs = v.InferOutput<typeof OpenAuthorizeDeviceScreenArgs>;
export const parseOpenAuthorizeDeviceScreenArgs = (args: unknown): OpenAuthorizeDeviceScreenArgs => parseArgs(OpenAuthorizeDeviceScreenArgs, args);

/** CLOSE_AUTHORIZE_DEVICE_SCREEN (ours): `{}`; Companion hides its code-entry screen. Replies null. */
export const CloseAuthorizeDeviceScreenArgs = obj({});
export const parseCloseAuthorizeDeviceScreenArgs = (args: unknown): v.InferOutput<typeof CloseAuthorizeDeviceScreenArgs> => parseArgs(CloseAuthorizeDeviceScreenArgs, args ?? {});
