import * as v from 'valibot';

import { dictionaryOf } from '../support/plain-object.js';

/**
 * The shapes JSON bodies are checked against, shared by the routes (see parseBody: a mismatch
 * is 400 50035 with `errors` at the field's path). Every object here is checked to be a plain
 * JSON object first (support/plain-object.ts: valibot's `object` and `record` take arrays).
 */

export { dictionaryOf, plainObject } from '../support/plain-object.js';

/** A dictionary of string keys to string values: metadata. */
export const StringMap = dictionaryOf(v.string());

/** Metadata that `null` clears. */
export const NullableStringMap = v.nullable(StringMap);

/** A snowflake id as a string of 1-20 digits. */
export const Snowflake = v.pipe(v.string(), v.regex(/^\d{1,20}$/));

/**
 * A lobby member's flags: a bitfield (the docs define CanLinkLobby, 1 << 0), as a whole number
 * from 0 to 2^31 - 1 **(ours: the docs give no range; a 32-bit signed bitfield's)**.
 */
export const MAX_LOBBY_MEMBER_FLAGS = 2 ** 31 - 1;
export const LobbyMemberFlags = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_LOBBY_MEMBER_FLAGS));
