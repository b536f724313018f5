import { toU64String } from './authorization-args.js';
import { ClientResult } from './client-result.js';
import { fail, platformCall, scrubSecrets } from './platform-request.js';
import { check } from './wire/check.js';
import { TokenAnswerSchema } from './wire/http.js';

export { scrubSecrets };

/**
 * The OAuth2 token calls of a public client against the platform: `POST
 * <base>/api/v10/oauth2/token` (authorization_code, refresh_token) and `POST
 * <base>/api/v10/oauth2/token/revoke`, form-encoded, client id in the body (plus the secret
 * when one is given). Each call resolves with its answer or rejects with a
 * {@link ClientResultError} whose `result` says what failed; a bad argument is a TypeError or
 * RangeError. No message ever holds the code, verifier, secret or a token: they are cut out
 * of whatever the server or the network said.
 */

/** Client::SetHttpRequestTimeout's default. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

export interface TokenResponse {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** `Bearer`. */
  readonly tokenType: string;
  /** Seconds. */
  readonly expiresIn: number;
  /** Space-separated (the platform answers with the expanded scopes). */
  readonly scope: string;
  /** With the `openid` scope: the RS256 ID token. */
  readonly idToken?: string;
}

export interface CommonOptions {
  /** `http://127.0.0.1:PORT` (no `/api`). */
  readonly platformBase: string;
  readonly applicationId: string | bigint;
  /** Confidential clients only; public clients (games) leave it out. */
  readonly clientSecret?: string;
  /** The whole request, answer included (the Client's `setHttpRequestTimeout`). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface GetTokenOptions extends CommonOptions {
  readonly code: string;
  /** GetTokenFromProvisionalMerge: the provisional account of this identity is merged into the code's account. */
  readonly externalAuth?: { readonly type: string; readonly token: string };
  /** The PKCE verifier whose challenge went into the authorize request. */
  readonly codeVerifier?: string;
  /** Required for browser-flow codes whose request named it; ignored for RPC codes. */
  readonly redirectUri?: string;
}

export interface RefreshTokenOptions extends CommonOptions {
  readonly refreshToken: string;
}

export interface RevokeTokenOptions extends CommonOptions {
  /** An access or refresh token: revoking either revokes every token of that user and app. */
  readonly token: string;
  readonly tokenTypeHint?: 'access_token' | 'refresh_token';
}

/** Client::GetToken: exchanges an authorization code (with its PKCE verifier) for tokens. */
export async function getToken(options: GetTokenOptions): Promise<TokenResponse> {
  requireString(options.code, 'code');
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: options.code });
  if (options.codeVerifier !== undefined) form.set('code_verifier', requireString(options.codeVerifier, 'codeVerifier'));
  if (options.redirectUri !== undefined) form.set('redirect_uri', requireString(options.redirectUri, 'redirectUri'));
  if (options.externalAuth !== undefined) {
    form.set('external_auth_type', requireString(options.externalAuth.type, 'externalAuthType'));
    form.set('external_auth_token', requireString(options.externalAuth.token, 'externalAuthToken'));
  }
  const secrets = [options.code, options.codeVerifier, options.externalAuth?.token];
  const body = await post(options, '/api/v10/oauth2/token', form, secrets);
  return parseTokenResponse(body, secretsOf(options, secrets));
}

/** Client::RefreshToken: a new pair for a refresh token (the old pair stops working). */
export async function refreshToken(options: RefreshTokenOptions): Promise<TokenResponse> {
  requireString(options.refreshToken, 'refreshToken');
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: options.refreshToken });
  const body = await post(options, '/api/v10/oauth2/token', form, [options.refreshToken]);
  return parseTokenResponse(body, secretsOf(options, [options.refreshToken]));
}

/** Client::RevokeToken: revokes every token of the user for this app (200 even for an unknown token). */
export async function revokeToken(options: RevokeTokenOptions): Promise<void> {
  requireString(options.token, 'token');
  const form = new URLSearchParams({ token: options.token });
  if (options.tokenTypeHint !== undefined) form.set('token_type_hint', options.tokenTypeHint);
  await post(options, '/api/v10/oauth2/token/revoke', form, [options.token]);
}

// ---- internals

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

export function secretsOf(options: CommonOptions, extra: readonly (string | undefined)[]): string[] {
  return [...extra, options.clientSecret].filter((s): s is string => s !== undefined && s.length > 0);
}

async function post(options: CommonOptions, path: string, form: URLSearchParams, requestSecrets: readonly (string | undefined)[]): Promise<unknown> {
  form.set('client_id', toU64String(options.applicationId, 'applicationId'));
  if (options.clientSecret !== undefined) form.set('client_secret', requireString(options.clientSecret, 'clientSecret'));
  const init: RequestInit = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: form.toString() };
  return platformCall(options, path, init, secretsOf(options, requestSecrets));
}

/** The token endpoints' answer, checked against its schema (wire/http.ts); a malformed one is a `ServerError` (no secret in its message). */
export function parseTokenResponse(json: unknown, secrets: readonly string[]): TokenResponse {
  const checked = check(TokenAnswerSchema, json);
  if (!checked.ok) return fail(ClientResult.failure('ServerError', scrubSecrets(`malformed token response: ${checked.problem}`, secrets)));
  const answer = checked.value;
  return {
    accessToken: answer.access_token,
    // Provisional accounts and child tokens have none: an empty string, as the Social SDK gives.
    refreshToken: answer.refresh_token ?? '',
    tokenType: answer.token_type,
    expiresIn: answer.expires_in,
    scope: answer.scope ?? '',
    ...(answer.id_token === undefined ? {} : { idToken: answer.id_token }),
  };
}
