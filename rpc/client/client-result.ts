import { AUTHORIZE_OUTCOMES, type AuthorizeOutcomeKind } from '../src/protocol/authorize-outcomes.js';
import { RpcErrorCode } from '../src/protocol/codes.js';

/**
 * What kind of failure a {@link ClientResult} reports (the Social SDK's `ErrorType`, plus the
 * authorization outcomes a game must tell apart).
 *
 * - `None`: success.
 * - `NetworkError`: the request never got an HTTP answer (refused, reset, DNS). Retryable.
 * - `HttpError`: an HTTP answer that is neither a success nor an OAuth2 error (e.g. 404, 429).
 * - `Timeout`: no answer within the caller's time limit (the Client's `setHttpRequestTimeout`,
 *   or the browser flow's wait). Retryable.
 * - `Aborted`: the caller's `AbortSignal` fired.
 * - `AuthorizationFailed`: the authorization server refused credentials or a grant
 *   (`invalid_grant`, `invalid_client`, `unauthorized_client`, any OAuth2 error not in the
 *   outcome table), or the browser flow's answer was forged (state mismatch) or incomplete.
 *   Re-authorizing is the fix.
 * - `UserCancelled`: the player denied or dismissed the prompt, or let it time out
 *   (`access_denied`; every `userCancelled: true` row of the outcome table).
 * - `ServerError`: the platform failed (`server_error`, `temporarily_unavailable`, HTTP 5xx).
 *   Retryable.
 * - `InvalidRequest`: the game's request is wrong (`invalid_request`, `invalid_scope`,
 *   `unsupported_grant_type`, `unsupported_response_type`): fix the arguments.
 * - `ValidationError`: an argument was rejected before anything was sent.
 * - `RpcError`: an RPC ERROR reply other than an OAuth2 error (`errorCode` is its code).
 * - `ClientNotReady`, `ClientDestroyed`, `Disabled`: for the `Client` (not connected yet,
 *   destroyed, feature disabled).
 * - `Unknown`: an unexpected internal failure (a bug).
 */
export type ClientResultType =
  | 'None'
  | 'NetworkError'
  | 'HttpError'
  | 'Timeout'
  | 'Aborted'
  | 'AuthorizationFailed'
  | 'UserCancelled'
  | 'ServerError'
  | 'InvalidRequest'
  | 'ValidationError'
  | 'RpcError'
  | 'ClientNotReady'
  | 'ClientDestroyed'
  | 'Disabled'
  | 'Unknown';

export interface ClientResultInit {
  readonly type: ClientResultType;
  readonly error?: string;
  readonly errorCode?: number;
  readonly status?: number;
  readonly retryable?: boolean;
  readonly retryAfter?: number;
  readonly oauthError?: string;
}

/**
 * The outcome of an SDK operation (the Social SDK's `ClientResult`). `successful` is true
 * exactly when `type` is `None`. `error` is for people and logs: it never contains a token,
 * code, client secret or code verifier. `errorCode` is the RPC ERROR code or the JSON API
 * error `code` (0 when there is none); `status` the HTTP status (0 when there was no HTTP
 * answer); `retryAfter` seconds to wait before a retry (0 when not said); `oauthError` the
 * RFC 6749 error name (`invalid_grant`, `access_denied`, ...) when the failure is one.
 */
export class ClientResult {
  readonly successful: boolean;
  readonly type: ClientResultType;
  readonly error: string;
  readonly errorCode: number;
  readonly status: number;
  readonly retryable: boolean;
  readonly retryAfter: number;
  readonly oauthError?: string;

  constructor(init: ClientResultInit) {
    this.type = init.type;
    this.successful = init.type === 'None';
    this.error = init.error ?? '';
    this.errorCode = init.errorCode ?? 0;
    this.status = init.status ?? 0;
    this.retryable = init.retryable ?? false;
    this.retryAfter = init.retryAfter ?? 0;
    if (init.oauthError !== undefined) this.oauthError = init.oauthError;
    Object.freeze(this);
  }

  /** Success (`status` is the HTTP status when there was one). */
  static ok(status = 0): ClientResult {
    return new ClientResult({ type: 'None', status });
  }

  static failure(type: Exclude<ClientResultType, 'None'>, error: string, extra: Omit<ClientResultInit, 'type' | 'error'> = {}): ClientResult {
    return new ClientResult({ ...extra, type, error });
  }

  static networkError(error: string): ClientResult {
    return ClientResult.failure('NetworkError', error, { retryable: true });
  }

  static timeout(ms: number): ClientResult {
    return ClientResult.failure('Timeout', `no answer within ${ms} ms`, { retryable: true });
  }

  static aborted(): ClientResult {
    return ClientResult.failure('Aborted', 'the operation was aborted');
  }

  static validation(error: string): ClientResult {
    return ClientResult.failure('ValidationError', error);
  }

  /**
   * An RFC 6749 error (`{error, error_description}` from the token endpoint, or `error=` on a
   * redirect). See {@link oauthErrorType} for the mapping.
   */
  static fromOAuthError(oauthError: string, description: string | undefined, status = 0, retryAfter = 0): ClientResult {
    const type = oauthErrorType(oauthError, status);
    const error = description !== undefined && description.length > 0 ? `${oauthError}: ${description}` : oauthError;
    return new ClientResult({ type, error, status, oauthError, retryable: type === 'ServerError', retryAfter });
  }

  toString(): string {
    return this.successful ? 'ClientResult(None)' : `ClientResult(${this.type}${this.status !== 0 ? ` ${this.status}` : ''}: ${this.error})`;
  }
}

/**
 * The OAuth2 error names, mapped to a result type:
 * `access_denied` → UserCancelled; `server_error`, `temporarily_unavailable` → ServerError;
 * `invalid_request`, `invalid_scope`, `unsupported_grant_type`, `unsupported_response_type` →
 * InvalidRequest; `invalid_grant`, `invalid_client`, `unauthorized_client` and any other name →
 * AuthorizationFailed (a 5xx status without a known name → ServerError).
 */
export function oauthErrorType(oauthError: string, status = 0): Exclude<ClientResultType, 'None'> {
  switch (oauthError) {
    case 'access_denied':
      return 'UserCancelled';
    case 'server_error':
    case 'temporarily_unavailable':
      return 'ServerError';
    case 'invalid_request':
    case 'invalid_scope':
    case 'unsupported_grant_type':
    case 'unsupported_response_type':
      return 'InvalidRequest';
    default:
      return status >= 500 ? 'ServerError' : 'AuthorizationFailed';
  }
}

const OAUTH_MESSAGE = /^OAuth2 Error: ([a-z_]+)(?:: ([\s\S]*))?$/;

interface OutcomeRef {
  readonly kind: AuthorizeOutcomeKind;
  readonly userCancelled: boolean;
}

/**
 * The refusal rows of the outcome table, by OAuth2 error name (`OAuth2 Error: <name>: ...`;
 * the first row wins, so access_denied → denied) and, for rows whose message has no OAuth2
 * prefix (redirect-refused), by their exact message.
 */
const OUTCOMES = (() => {
  const byError = new Map<string, OutcomeRef>();
  const byMessage = new Map<string, OutcomeRef>();
  for (const row of AUTHORIZE_OUTCOMES) {
    const reply = /^(\d+) ([\s\S]*)$/.exec(row.reply);
    const message = reply?.[2];
    if (message === undefined) continue; // approved: `{code}`
    const name = OAUTH_MESSAGE.exec(message)?.[1];
    const ref = { kind: row.kind, userCancelled: row.userCancelled };
    if (name !== undefined) {
      if (!byError.has(name)) byError.set(name, ref);
    } else {
      byMessage.set(message, ref);
    }
  }
  return { byError, byMessage };
})();

function typeOfOutcome(ref: OutcomeRef): Exclude<ClientResultType, 'None'> {
  if (ref.userCancelled) return 'UserCancelled';
  if (ref.kind === 'server-error') return 'ServerError';
  return 'InvalidRequest';
}

/**
 * The result of an AUTHORIZE that the host refused with an ERROR `{code, message}`, read
 * with the outcome table (`rpc/src/protocol/authorize-outcomes.ts`), rows by their error name:
 *
 * - code 5000 `OAuth2 Error: access_denied: ...` (rows denied, dismissed, timed-out: every
 *   `userCancelled` row) → `UserCancelled`;
 * - `server_error` (row server-error) → `ServerError` (retryable);
 * - `invalid_scope` and `invalid_request` (rows invalid-scope, invalid-request) and the
 *   redirect-refused row's message → `InvalidRequest`: the game's arguments are wrong;
 * - any other 5000 message (`invalid_client`, `invalid_grant`, an unknown text) →
 *   `AuthorizationFailed`;
 * - an ERROR with another code (4000 invalid payload, 4007 invalid client id, ...) →
 *   `RpcError` with that code.
 *
 * `errorCode` is the RPC code, `status` 0, `oauthError` the error name when there is one, and
 * `error` the host's message.
 */
export function authorizeResultFromRpcError(code: number, message: string): ClientResult {
  if (code !== RpcErrorCode.OAuth2Error) return new ClientResult({ type: 'RpcError', error: message, errorCode: code });
  const name = OAUTH_MESSAGE.exec(message)?.[1];
  const ref = name !== undefined ? OUTCOMES.byError.get(name) : OUTCOMES.byMessage.get(message);
  const type = ref !== undefined ? typeOfOutcome(ref) : 'AuthorizationFailed';
  return new ClientResult({ type, error: message, errorCode: code, retryable: type === 'ServerError', ...(name !== undefined ? { oauthError: name } : {}) });
}

/**
 * The `Error` the promise-based helpers (getToken, refreshToken, revokeToken) reject with:
 * `result` says what failed; `message` is `result.error` (no secrets).
 */
export class ClientResultError extends Error {
  override readonly name = 'ClientResultError';
  constructor(readonly result: ClientResult) {
    super(result.error);
  }
}

/**
 * Any rejection of the SDK's helpers as a result: a {@link ClientResultError}'s result; a
 * TypeError or RangeError (a bad argument) → `ValidationError`; anything else (a bug) →
 * `Unknown` with the error's message.
 */
export function toClientResult(error: unknown): ClientResult {
  if (error instanceof ClientResultError) return error.result;
  if (error instanceof TypeError || error instanceof RangeError) return ClientResult.validation(error.message);
  return ClientResult.failure('Unknown', error instanceof Error ? error.message : String(error));
}
