import { REDACTED, SECRET_KEY } from '../../base/logger.js';

export { REDACTED };

/**
 * Keys whose value is a secret in a recording, at any depth: the same rule as the logs
 * (`scrubSecrets`) and the inspector (`redactPayload`): an AUTHENTICATE `access_token`, an
 * AUTHORIZE reply's `code`, an activity's `secrets`, ACTIVITY_JOIN's `secret`, refresh and ID
 * tokens, client secrets, PKCE verifiers, passwords, cookies, and a nested OpenID `nonce`.
 * The RPC `nonce` at the top of a payload pairs a command with its reply and is kept.
 * `SECRET_KEY` is the logger's own rule, so the two cannot drift apart.
 */

/** Numbers and booleans under a secret key stay (an ERROR's `code: 4000`, a CLOSE code). */
export function isSecretValue(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'object' && value !== null);
}

/**
 * `value` with every secret replaced by `[redacted]` (under a secret key holding an object,
 * each string inside it). Copy on write: a payload without
 * secrets is returned as it is (no allocation on the common path), so recording a busy host
 * costs a walk of each payload, not a copy.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return redactArray(value);
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = record[key];
    // The top-level RPC nonce is kept; a nested one (AUTHORIZE's OpenID nonce) is not.
    const next = key === 'nonce' ? item : redactEntry(key, item);
    if (next !== item) setOwn((out ??= { ...record }), key, next);
  }
  return out ?? record;
}

/**
 * True when redactSecrets(payload) would change anything, or cannot be told without it (a
 * `toJSON` value, nesting deeper than `maxDepth`). A walk of the keys that writes nothing: a
 * payload without secrets can then be recorded as the JSON it came in.
 */
export function holdsSecret(payload: unknown, maxDepth = 64): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  if (Array.isArray(payload)) return arrayHoldsSecret(payload, 1, maxDepth);
  if (typeof (payload as { toJSON?: unknown }).toJSON === 'function') return true;
  const record = payload as Record<string, unknown>;
  for (const key in record) {
    // The top-level RPC nonce is kept whatever it holds.
    if (key === 'nonce' || !Object.prototype.hasOwnProperty.call(record, key)) continue;
    if (entryHoldsSecret(key, record[key], 1, maxDepth)) return true;
  }
  return false;
}

function entryHoldsSecret(key: string, item: unknown, depth: number, maxDepth: number): boolean {
  if (typeof item === 'string') return isSecretKey(key);
  if (typeof item !== 'object' || item === null) return false;
  return isSecretKey(key) || nestedHoldsSecret(item, depth + 1, maxDepth);
}

function nestedHoldsSecret(value: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) return arrayHoldsSecret(value, depth, maxDepth);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (Object.prototype.hasOwnProperty.call(record, key) && entryHoldsSecret(key, record[key], depth, maxDepth)) return true;
  }
  return false;
}

function arrayHoldsSecret(items: readonly unknown[], depth: number, maxDepth: number): boolean {
  for (const item of items) {
    if (typeof item === 'object' && item !== null && nestedHoldsSecret(item, depth + 1, maxDepth)) return true;
  }
  return false;
}

/** Verdicts per key: payloads use few distinct keys, and a Map lookup is cheaper than the regex. */
const verdicts = new Map<string, boolean>();
const MAX_CACHED_KEYS = 4096;

export function isSecretKey(key: string): boolean {
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = SECRET_KEY.test(key);
    if (verdicts.size < MAX_CACHED_KEYS) verdicts.set(key, verdict);
  }
  return verdict;
}

function redactEntry(key: string, item: unknown): unknown {
  if (isSecretKey(key) && isSecretValue(item)) return typeof item === 'string' ? REDACTED : redactLeaves(item);
  if (typeof item !== 'object' || item === null) return item;
  return Array.isArray(item) ? redactArray(item) : redactNested(item as Record<string, unknown>);
}

/**
 * Everything under a secret key (an activity's `secrets: {join, spectate, match}`): every
 * string replaced, the shape kept, so a replay still sends a valid object.
 */
function redactLeaves(value: unknown): unknown {
  if (typeof value === 'string') return REDACTED;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(redactLeaves);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, key, redactLeaves(item));
  return out;
}

/** `record[key] = value` as an own property, even for `__proto__` (JSON.parse makes such keys). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

function redactNested(record: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const next = redactEntry(key, item);
    if (next !== item) setOwn((out ??= { ...record }), key, next);
  }
  return out ?? record;
}

function redactArray(items: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    const next = typeof item === 'object' && item !== null ? (Array.isArray(item) ? redactArray(item) : redactNested(item as Record<string, unknown>)) : item;
    if (next !== item) (out ??= [...items])[i] = next;
  }
  return out ?? items;
}
