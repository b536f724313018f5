import { FATAL_GATEWAY_CLOSE_CODES, REIDENTIFY_GATEWAY_CLOSE_CODES } from '../../../../platform/src/wire/index.js';

/** What the client does after the server closed the connection with a code. */
export type CloseAction = 'stop' | 'identify' | 'resume';

export function closeAction(code: number): CloseAction {
  if (FATAL_GATEWAY_CLOSE_CODES.has(code)) return 'stop';
  // A server closing with 1000 has ended the session (what discord.js does too).
  if (code === 1000 || REIDENTIFY_GATEWAY_CLOSE_CODES.has(code)) return 'identify';
  return 'resume';
}

const FATAL_DETAIL: Readonly<Record<number, string>> = {
  4004: 'authentication failed (4004): the token is invalid or expired; sign in again',
  4010: 'invalid shard (4010): the platform refused the connection; Companion will not retry',
  4011: 'sharding required (4011): the platform refused the connection; Companion will not retry',
  4012: 'invalid API version (4012): the platform does not support this version of Companion; update Companion',
  4013: 'invalid intents (4013): the platform refused the connection; Companion will not retry',
  4014: 'disallowed intents (4014): the platform refused the connection; Companion will not retry',
};

/** The status detail shown when a fatal close stops the client. */
export function fatalCloseDetail(code: number): string {
  return FATAL_DETAIL[code] ?? `the platform closed the connection (${code}) and a retry would fail the same way`;
}
