import { toU64String } from './authorization-args.js';
import { ClientResult, ClientResultError } from './client-result.js';
import { trimBase } from './redirects.js';

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

interface CommonOptions {
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
  const body = await post(options, '/api/v10/oauth2/token', form, [options.code, options.codeVerifier]);
  return parseTokenResponse(body, secretsOf(options, [options.code, options.codeVerifier]));
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

function secretsOf(options: CommonOptions, extra: readonly (string | undefined)[]): string[] {
  return [...extra, options.clientSecret].filter((s): s is string => s !== undefined && s.length > 0);
}

/** `text` with every secret (raw, percent-encoded and form-encoded) replaced by `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  }
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('[redacted]');
  return out;
}

function fail(result: ClientResult): never {
  throw new ClientResultError(result);
}

/** Seconds from a Retry-After header or a JSON `retry_after`; 0 when neither says. */
function retryAfterOf(response: Response, json: unknown): number {
  const header = response.headers.get('retry-after');
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  if (isRecord(json) && typeof json.retry_after === 'number' && json.retry_after >= 0) return json.retry_after;
  return 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function post(options: CommonOptions, path: string, form: URLSearchParams, requestSecrets: readonly (string | undefined)[]): Promise<unknown> {
  const { timeoutMs } = options;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number of milliseconds');
  form.set('client_id', toU64String(options.applicationId, 'applicationId'));
  if (options.clientSecret !== undefined) form.set('client_secret', requireString(options.clientSecret, 'clientSecret'));
  const secrets = secretsOf(options, requestSecrets);
  const scrub = (text: string): string => scrubSecrets(text, secrets);

  if (options.signal?.aborted === true) fail(ClientResult.aborted());
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal !== undefined ? AbortSignal.any([options.signal, timeout]) : timeout;
  const whyAborted = (): ClientResult => (options.signal?.aborted === true ? ClientResult.aborted() : ClientResult.timeout(timeoutMs));

  let response: Response;
  let text: string;
  try {
    response = await fetch(`${trimBase(options.platformBase)}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
      signal,
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) fail(whyAborted());
    fail(ClientResult.networkError(scrub(`the platform could not be reached: ${describeFetchError(error)}`)));
  }

  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (response.ok) return json;

  const status = response.status;
  const retryAfter = retryAfterOf(response, json);
  if (isRecord(json) && typeof json.error === 'string') {
    const description = typeof json.error_description === 'string' ? scrub(json.error_description) : undefined;
    fail(ClientResult.fromOAuthError(json.error, description, status, retryAfter));
  }
  const apiCode = isRecord(json) && typeof json.code === 'number' ? json.code : 0;
  const apiMessage = isRecord(json) && typeof json.message === 'string' ? scrub(json.message) : response.statusText;
  const retryable = status === 429 || status >= 500;
  fail(
    ClientResult.failure(status >= 500 ? 'ServerError' : 'HttpError', `HTTP ${status}${apiMessage.length > 0 ? `: ${apiMessage}` : ''}`, {
      status,
      errorCode: apiCode,
      retryable,
      retryAfter,
    }),
  );
}

/** `fetch failed (ECONNREFUSED)` and the like: the error's message and its cause's code. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : cause instanceof Error ? cause.message : undefined;
  return code !== undefined ? `${error.message} (${code})` : error.message;
}

function parseTokenResponse(json: unknown, secrets: readonly string[]): TokenResponse {
  const malformed = (what: string): never => fail(ClientResult.failure('ServerError', scrubSecrets(`malformed token response: ${what}`, secrets)));
  if (!isRecord(json)) return malformed('not a JSON object');
  const str = (key: string): string => {
    const value = json[key];
    return typeof value === 'string' && value.length > 0 ? value : malformed(`missing ${key}`);
  };
  const expiresIn = json.expires_in;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn)) return malformed('missing expires_in');
  const token: TokenResponse = {
    accessToken: str('access_token'),
    refreshToken: str('refresh_token'),
    tokenType: str('token_type'),
    expiresIn,
    scope: typeof json.scope === 'string' ? json.scope : '',
    ...(typeof json.id_token === 'string' ? { idToken: json.id_token } : {}),
  };
  return token;
}
