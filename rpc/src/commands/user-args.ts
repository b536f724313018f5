import type * as v from 'valibot';
import { obj } from './activity-schema.js';
import { parseArgs } from './joi-message.js';
import { SNOWFLAKE } from './invite-args.js';

/** GET_USER: `{id}`, the user's id. */
export const GetUserArgs = obj({ id: SNOWFLAKE });

export type GetUserArgs = v.InferOutput<typeof GetUserArgs>;

export const parseGetUserArgs = (args: unknown): GetUserArgs => parseArgs(GetUserArgs, args);
