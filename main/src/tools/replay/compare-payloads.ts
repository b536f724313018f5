import { REDACTED } from '../../host/record/redact-secrets.js';

/** Shown for a value on one side only. */
export const ABSENT = Symbol('absent');

export interface Difference {
  /** Where in the payload: `$`, `$.data.activity.state`, `$.data.scopes[1]`. */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * What legitimately differs between a recording and its replay against a fresh host, and is
 * therefore compared by kind only (the value must be there, with the same JSON type: string,
 * number, boolean, null, array or object):
 * - ids the host or platform issues: `id` and every `..._id` key (user, session, message,
 *   guild, invite ids), except `client_id` and `application_id`, which name the game's own
 *   application and come from the recording;
 * - times: `timestamp`, `expires`, and every `..._at` or `..._timestamp` key;
 * - values issued anew for each run: an AUTHORIZE reply's `code`, `access_token`,
 *   `refresh_token`, `id_token`;
 * - whatever the recording holds as `[redacted]` (its value, a string, was never written
 *   down): any string matches.
 * And in every string, a loopback address's port (`127.0.0.1:PORT`, `localhost:PORT`,
 * `[::1]:PORT`): the platform and probes listen on new ports each run.
 * Nonces are not in the list: replay sends the recorded ones, so replies carry them back.
 * Everything else is compared by value; object keys on one side only, and array items past
 * the other side's length, are differences.
 */
const ISSUED_KEYS: ReadonlySet<string> = new Set(['code', 'access_token', 'refresh_token', 'id_token', 'timestamp', 'expires']);
const STABLE_ID_KEYS: ReadonlySet<string> = new Set(['client_id', 'application_id']);

function variesByRun(key: string): boolean {
  if (ISSUED_KEYS.has(key)) return true;
  if (key === 'id' || key.endsWith('_id')) return !STABLE_ID_KEYS.has(key);
  return key.endsWith('_at') || key.endsWith('_timestamp');
}

const LOOPBACK_PORT = /(127\.0\.0\.1|localhost|\[::1\]):\d+/g;

function normaliseString(value: string): string {
  return value.replace(LOOPBACK_PORT, '$1:PORT');
}

/** The JSON kind of a value, for comparisons by kind. */
export function kindOf(value: unknown): string {
  if (value === ABSENT) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Every difference between a recorded payload and the replayed one, under the rules above. */
export function comparePayloads(expected: unknown, actual: unknown, path = '$', out: Difference[] = []): Difference[] {
  // Redaction replaces strings only (an object under a secret key keeps its shape): any string matches.
  if (expected === REDACTED) {
    if (kindOf(actual) !== 'string') out.push({ path, expected, actual });
    return out;
  }
  if (isMap(expected) && isMap(actual)) {
    for (const key of Object.keys(expected)) {
      const sub = childPath(path, key);
      if (!(key in actual)) {
        out.push({ path: sub, expected: expected[key], actual: ABSENT });
        continue;
      }
      if (variesByRun(key)) {
        if (kindOf(expected[key]) !== kindOf(actual[key])) out.push({ path: sub, expected: expected[key], actual: actual[key] });
        continue;
      }
      comparePayloads(expected[key], actual[key], sub, out);
    }
    for (const key of Object.keys(actual)) {
      if (!(key in expected)) out.push({ path: childPath(path, key), expected: ABSENT, actual: actual[key] });
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i += 1) {
      const sub = `${path}[${i}]`;
      if (i >= actual.length) out.push({ path: sub, expected: expected[i], actual: ABSENT });
      else if (i >= expected.length) out.push({ path: sub, expected: ABSENT, actual: actual[i] });
      else comparePayloads(expected[i], actual[i], sub, out);
    }
    return out;
  }
  if (typeof expected === 'string' && typeof actual === 'string') {
    if (normaliseString(expected) !== normaliseString(actual)) out.push({ path, expected, actual });
    return out;
  }
  if (!Object.is(expected, actual)) out.push({ path, expected, actual });
  return out;
}
