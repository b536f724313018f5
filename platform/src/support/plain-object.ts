import * as v from 'valibot';

/**
 * Schemas for JSON objects that are objects, not arrays. valibot's `object`, `looseObject` and
 * `record` take any non-null object, arrays included (`[]` passes as `{}` and `["a"]` as
 * `{"0": "a"}`), so each of these checks for a plain JSON object first. Shared by the HTTP
 * bodies (http/body-schemas.ts) and the gateway's payloads (gateway/schemas.ts).
 */

export const OBJECT_EXPECTED = 'Expected an object (a dictionary), not an array or another type';

export function isPlainObject(input: unknown): boolean {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/** A JSON object, not an array: what `v.object(entries)` means for a request body or a nested object. */
export function plainObject<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(v.unknown(), v.check(isPlainObject, OBJECT_EXPECTED), v.object(entries));
}

/** A JSON object, not an array, whose unknown keys are kept: `v.looseObject(entries)` for JSON. */
export function plainLooseObject<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(v.unknown(), v.check(isPlainObject, OBJECT_EXPECTED), v.looseObject(entries));
}

/** A dictionary of string keys to values of `value` (a JSON object, never an array). */
export function dictionaryOf<const S extends v.GenericSchema>(value: S) {
  return v.pipe(v.unknown(), v.check(isPlainObject, OBJECT_EXPECTED), v.record(v.string(), value));
}
