import { CloseCode } from './codes.js';
import type { CommandReply } from './envelope.js';

export type HandshakeResult =
  | { readonly ok: true; readonly clientId: string }
  | {
      readonly ok: false;
      readonly code: number;
      /** Sent to the client; may quote what it sent. */
      readonly message: string;
      /** Safe to log: never contains client data. */
      readonly reason: 'no client id' | 'invalid client id' | 'invalid version' | 'unknown application' | 'logged out';
    };

export type HandshakeRefusal = Extract<HandshakeResult, { readonly ok: false }>;

/** The server's decision: a refusal, or the app's display name and the READY to send. */
export type HandshakeOutcome =
  | HandshakeRefusal
  | { readonly ok: true; readonly clientId: string; readonly applicationName: string; readonly ready: CommandReply };

const U64_MAX = 18446744073709551615n;
const CLIENT_ID = /^[0-9]{17,20}$/;

/**
 * Validates the HANDSHAKE payload `{v, client_id}` the way the real client does, with the
 * CLOSE codes and messages clients match on (pypresence raises InvalidID on the exact text
 * "Invalid Client ID").
 *
 * - `v` may be 1 or "1" (arRPC learnt that some client sends a string). A missing `v` is
 *   accepted: the real client computes `+v`, and NaN passes its `> 1` / `< 1` checks.
 *   Anything else, null included, is 4004 "Invalid Version: <v>".
 * - `client_id` missing or empty is 4000 "No Client ID Specified". A string must be a
 *   snowflake (17-20 digits, at most 2^64-1); a number is accepted only when it is a safe
 *   positive integer, because a larger one has already lost digits in JSON parsing. Anything
 *   else is 4000 "Invalid Client ID".
 */
export function validateHandshake(payload: unknown): HandshakeResult {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, code: CloseCode.InvalidClientId, message: 'No Client ID Specified', reason: 'no client id' };
  }
  const { v, client_id: clientId } = payload as { v?: unknown; client_id?: unknown };

  if (v !== undefined && v !== 1 && v !== '1') {
    return { ok: false, code: CloseCode.InvalidVersion, message: `Invalid Version: ${describe(v)}`, reason: 'invalid version' };
  }
  if (clientId === undefined || clientId === null || clientId === '') {
    return { ok: false, code: CloseCode.InvalidClientId, message: 'No Client ID Specified', reason: 'no client id' };
  }
  const normalized = normalizeClientId(clientId);
  if (normalized === undefined) {
    return { ok: false, code: CloseCode.InvalidClientId, message: 'Invalid Client ID', reason: 'invalid client id' };
  }
  return { ok: true, clientId: normalized };
}

export function normalizeClientId(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (!CLIENT_ID.test(value) || BigInt(value) > U64_MAX) return undefined;
    return value;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
