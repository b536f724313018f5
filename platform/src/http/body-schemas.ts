import * as v from 'valibot';

/**
 * The shapes JSON bodies are checked against, shared by the routes (see parseBody: a mismatch
 * is 400 50035 with `errors` at the field's path). valibot's `object` and `record` take any
 * non-null object, arrays included (`[]` passes as `{}` and `["a"]` as `{"0": "a"}`), so every
 * object here is checked to be a plain JSON object first.
 */

const OBJECT_EXPECTED = 'Expected an object (a dictionary), not an array or another type';

function isPlainObject(input: unknown): boolean {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** A JSON object, not an array: what `v.object(entries)` means for a request body or a nested object. */
export function plainObject<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(v.unknown(), v.check(isPlainObject, OBJECT_EXPECTED), v.object(entries));
}

/** A dictionary of string keys to values of `value` (a JSON object, never an array). */
export function dictionaryOf<const S extends v.GenericSchema>(value: S) {
  return v.pipe(v.unknown(), v.check(isPlainObject, OBJECT_EXPECTED), v.record(v.string(), value));
}

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
