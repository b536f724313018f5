import { RpcErrorCode } from './codes.js';

/**
 * How an AUTHORIZE ends, one table for the host, the UI and the game-side SDK. Every refusal
 * is ERROR 5000 with an `OAuth2 Error: <error>: <description>` message; `access_denied` is
 * how a client tells the player's cancellation from a server or request error.
 */
export type AuthorizeOutcomeKind =
  | 'approved'
  | 'denied'
  | 'dismissed'
  | 'timed-out'
  | 'server-error'
  | 'invalid-scope'
  | 'invalid-request'
  | 'redirect-refused';

export interface AuthorizeOutcomeRow {
  readonly kind: AuthorizeOutcomeKind;
  /** When it happens, in words for docs and the UI. */
  readonly when: string;
  /** The reply: `{code}` for approved, else the ERROR's code and message (`<description>` filled in). */
  readonly reply: string;
  /** The player cancelled (as opposed to an error of the request or the platform). */
  readonly userCancelled: boolean;
}

/** A redirect_uri over IPC: the real client's own text, without the OAuth2 prefix. */
export const REDIRECT_OVER_RPC_MESSAGE = 'Redirect URI cannot be used in the RPC OAuth2 Authorization flow';
export const ACCESS_DENIED_MESSAGE = 'OAuth2 Error: access_denied: The resource owner or authorization server denied the request';
export const TIMED_OUT_MESSAGE = 'OAuth2 Error: access_denied: the authorization request timed out';

export const AUTHORIZE_OUTCOMES: readonly AuthorizeOutcomeRow[] = [
  { kind: 'approved', when: 'The player approves (or a remembered grant covers the request)', reply: '{code}', userCancelled: false },
  { kind: 'denied', when: 'The player denies', reply: `5000 ${ACCESS_DENIED_MESSAGE}`, userCancelled: true },
  { kind: 'dismissed', when: 'The prompt is dismissed, or the game disconnects while it is shown', reply: `5000 ${ACCESS_DENIED_MESSAGE}`, userCancelled: true },
  { kind: 'timed-out', when: 'No answer within the time limit (default 5 minutes)', reply: `5000 ${TIMED_OUT_MESSAGE}`, userCancelled: true },
  { kind: 'server-error', when: 'The platform fails or cannot be reached', reply: '5000 OAuth2 Error: server_error: <description>', userCancelled: false },
  { kind: 'invalid-scope', when: 'No scopes, an unknown scope, or one the app is not approved for', reply: '5000 OAuth2 Error: invalid_scope: <description>', userCancelled: false },
  { kind: 'invalid-request', when: 'A malformed request: a code challenge method other than S256, the legacy rpc_token or username, a client_id other than the connection\'s application, or a fifth AUTHORIZE in flight on one connection (at most 4)', reply: '5000 OAuth2 Error: invalid_request: <description>', userCancelled: false },
  { kind: 'redirect-refused', when: 'A redirect_uri over IPC (the real client\'s own text, without the OAuth2 prefix)', reply: `5000 ${REDIRECT_OVER_RPC_MESSAGE}`, userCancelled: false },
];

/** The ERROR data of a refusal: `{code: 5000, message}`. */
export function authorizeError(error: 'access_denied' | 'server_error' | 'invalid_scope' | 'invalid_request', description: string): { code: number; message: string } {
  return { code: RpcErrorCode.OAuth2Error, message: `OAuth2 Error: ${error}: ${description}` };
}
