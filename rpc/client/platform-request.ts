import type * as v from 'valibot';
import { deadline } from '../../common/src/deadline.js';
import { describeFormErrors } from './api-error-detail.js';
import { ClientResult, ClientResultError, toClientResult } from './client-result.js';
import { trimBase } from './redirects.js';
import { check } from './wire/check.js';
import { ApiErrorBodySchema, OAuthErrorBodySchema, RetryAfterBodySchema } from './wire/http.js';

/**
 * One HTTP call of the SDK to the platform (`<base><path>`), and what its answer means: the
 * parsed JSON of a success, or a {@link ClientResultError} (network, timeout, abort, an OAuth2
 * error, an HTTP error with the API's code and `retryAfter`). Every secret given is cut out of
 * whatever the server or the network said before it can reach a message. A success's answer is
 * checked against its schema (wire/http.ts) with {@link answerOf} before the SDK reads it.
 */

export interface PlatformCallOptions {
  /** `http://127.0.0.1:PORT` (no `/api`). */
  readonly platformBase: string;
  /** The whole request, answer included (the Client's `setHttpRequestTimeout`). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
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

export function fail(result: ClientResult): never {
  throw new ClientResultError(result);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  const body = check(RetryAfterBodySchema, json);
  return body.ok ? body.value.retry_after : 0;
}

/** `fetch failed (ECONNREFUSED)` and the like: the error's message and its cause's code. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : cause instanceof Error ? cause.message : undefined;
  return code !== undefined ? `${error.message} (${code})` : error.message;
}

/** The failure an HTTP answer that is not a success stands for. */
function failureOf(response: Response, json: unknown, scrub: (text: string) => string): ClientResult {
  const status = response.status;
  const retryAfter = retryAfterOf(response, json);
  const oauth = check(OAuthErrorBodySchema, json);
  if (oauth.ok) {
    const description = oauth.value.error_description === undefined ? undefined : scrub(oauth.value.error_description);
    return ClientResult.fromOAuthError(oauth.value.error, description, status, retryAfter);
  }
  const api = check(ApiErrorBodySchema, json);
  const apiCode = api.ok ? (api.value.code ?? 0) : 0;
  const apiMessage = api.ok && api.value.message !== undefined ? scrub(api.value.message) : response.statusText;
  // A 50035 names the refused field and why: `HTTP 400: Invalid Form Body (activity: ... not joinable)`.
  const detail = api.ok ? scrub(describeFormErrors(api.value.errors)) : '';
  const said = `${apiMessage}${detail.length > 0 ? ` (${detail})` : ''}`;
  return ClientResult.failure(status >= 500 ? 'ServerError' : 'HttpError', `HTTP ${status}${said.length > 0 ? `: ${said}` : ''}`, {
    status,
    errorCode: apiCode,
    retryable: status === 429 || status >= 500,
    retryAfter,
  });
}

/** Sends the request and answers its JSON (undefined for an empty body), or rejects with the result. */
export async function platformCall(options: PlatformCallOptions, path: string, init: RequestInit, secrets: readonly string[]): Promise<unknown> {
  const { timeoutMs } = options;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number of milliseconds');
  const scrub = (text: string): string => scrubSecrets(text, secrets);
  if (options.signal?.aborted === true) fail(ClientResult.aborted());
  const timer = deadline(timeoutMs, options.signal);
  const whyAborted = (): ClientResult => (timer.timedOut() ? ClientResult.timeout(timeoutMs) : ClientResult.aborted());

  let response: Response;
  let text: string;
  try {
    response = await fetch(`${trimBase(options.platformBase)}${path}`, { ...init, signal: timer.signal, redirect: 'error' });
    text = await response.text();
  } catch (error) {
    if (timer.signal.aborted) fail(whyAborted());
    fail(ClientResult.networkError(scrub(`the platform could not be reached: ${describeFetchError(error)}`)));
  } finally {
    timer.end();
  }
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (response.ok) return json;
  fail(failureOf(response, json, scrub));
}

/** A success's answer as `schema` has it; an answer that does not match is a `ServerError` naming what was wrong (never its values). */
export function answerOf<S extends v.GenericSchema>(schema: S, json: unknown, what: string): v.InferOutput<S> {
  const checked = check(schema, json);
  return checked.ok ? checked.value : fail(ClientResult.failure('ServerError', `malformed ${what} answer: ${checked.problem}`));
}

/** What a call with the game's own token needs: where, how long, and the token (from updateToken). */
export interface BearerCallOptions extends PlatformCallOptions {
  readonly token: string;
}

/** `<method> /api/v10<path>` with the game's Bearer token and a JSON body; the token never reaches a message. */
export function bearerCall(options: BearerCallOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  if (typeof options.token !== 'string' || options.token.length === 0) throw new TypeError('no access token: call updateToken first');
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return platformCall(options, `/api/v10${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, [options.token]);
}

/** The outcome of `work` as a result and its value (null on failure): the SDK's calls never throw. */
export async function attempt<T>(work: () => Promise<T>): Promise<{ result: ClientResult; value: T | null }> {
  try {
    return { result: ClientResult.ok(200), value: await work() };
  } catch (error) {
    return { result: toClientResult(error), value: null };
  }
}
