import { isPlainObject, isUri } from './activity-schema.js';
import type { SetActivityArgs } from './activity-schema.js';

/*
 * A hand-written check of SET_ACTIVITY args that answers one question fast: does the valibot
 * schema in activity-schema.ts accept this input? The schema stays the specification and the
 * only source of error messages: when this says no, the caller runs the schema to learn why.
 * A differential property test (activity-fast-check.test.ts) keeps the two in agreement.
 *
 * It stays for what it measurably saves on the hot path. Measured 2026-11-25 (2 cores, Node
 * 20.20.2, shared with other work), one Node process over the built modules in
 * out/rpc/src/commands: args JSON.parse'd from the bench's activity (bench/src/shared.ts
 * ACTIVITY, pid 4242), 200,000 calls a block, 21 blocks alternating the two ways, median per
 * call (two runs): this check then normalizeActivity 0.79 / 0.64 us; parseArgs with the schema
 * then normalizeActivity 7.95 / 8.39 us; the checks alone 0.44 / 0.52 us against 7.32 / 8.31 us.
 * The schema alone would cost about 7.5 us more per SET_ACTIVITY, beside the 13.9 us of server
 * CPU per request (100 clients) that `npm run bench` reports with this check in place.
 */

function text(value: unknown, min: number, max: number): boolean {
  return value === undefined || (typeof value === 'string' && value.length >= min && value.length <= max);
}

function uri(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'string' && value.length >= 1 && value.length <= max && isUri(value));
}

function numberAtLeast(value: unknown, min: number): boolean {
  return value === undefined || (typeof value === 'number' && value >= min);
}

function oneOf(value: unknown, options: readonly number[]): boolean {
  return value === undefined || (typeof value === 'number' && options.includes(value));
}

function timestamps(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  return numberAtLeast(value.start, 1) && numberAtLeast(value.end, 1);
}

function assets(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  return (
    text(value.large_image, 1, 300) &&
    text(value.large_text, 2, 128) &&
    uri(value.large_url, 256) &&
    text(value.small_image, 1, 300) &&
    text(value.small_text, 2, 128) &&
    uri(value.small_url, 256) &&
    text(value.invite_cover_image, 1, 300)
  );
}

function party(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  const size = value.size;
  if (size !== undefined) {
    if (!Array.isArray(size) || size.length !== 2) return false;
    const [current, max] = size as unknown[];
    // Written as !(x >= min) so that NaN, which valibot's number() refuses, fails too.
    if (typeof current !== 'number' || typeof max !== 'number' || !(current >= 1) || !(max >= 0)) return false;
  }
  return text(value.id, 2, 128) && oneOf(value.privacy, [0, 1]);
}

function secrets(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  return text(value.match, 2, 128) && text(value.join, 2, 128) && text(value.spectate, 2, 128);
}

function buttons(value: unknown): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) return false;
  for (const button of value as unknown[]) {
    if (!isPlainObject(button) || button.label === undefined || button.url === undefined) return false;
    if (!text(button.label, 1, 32) || !uri(button.url, 512)) return false;
  }
  return true;
}

function platforms(value: unknown): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value) || value.length < 1 || value.length > 10) return false;
  for (const platform of value as unknown[]) if (!(typeof platform === 'string' && text(platform, 1, 32))) return false;
  return true;
}

function activity(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!isPlainObject(value)) return false;
  return (
    text(value.name, 1, 128) &&
    oneOf(value.type, [0, 2, 3, 5]) &&
    oneOf(value.status_display_type, [0, 1, 2]) &&
    text(value.state, 2, 128) &&
    uri(value.state_url, 256) &&
    text(value.details, 2, 128) &&
    uri(value.details_url, 256) &&
    timestamps(value.timestamps) &&
    assets(value.assets) &&
    party(value.party) &&
    secrets(value.secrets) &&
    buttons(value.buttons) &&
    (value.instance === undefined || typeof value.instance === 'boolean') &&
    platforms(value.supported_platforms)
  );
}

/** True exactly when SetActivityArgsSchema accepts `args`. */
export function isValidSetActivityArgs(args: unknown): args is SetActivityArgs {
  return isPlainObject(args) && numberAtLeast(args.pid, 0) && activity(args.activity);
}
