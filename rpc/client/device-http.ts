import * as v from 'valibot';
import { toU64String } from './authorization-args.js';
import { ClientResult, ClientResultError } from './client-result.js';
import { parseTokenResponse, secretsOf, type CommonOptions, type TokenResponse } from './oauth-http.js';
import { answerOf, platformCall } from './platform-request.js';

/**
 * The OAuth2 device authorization grant (RFC 8628) of a game on a console or TV, against the
 * platform: `POST <base>/api/v10/oauth2/device/authorize` for the codes, then polls of `POST
 * <base>/api/v10/oauth2/token` with the `device_code` grant until the player answers. The
 * device code is a secret (never in a message); the user code is shown to the player.
 */

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const DeviceAnswerSchema = v.object({
  device_code: v.pipe(v.string(), v.minLength(1)),
  user_code: v.pipe(v.string(), v.minLength(1)),
  verification_uri: v.string(),
  verification_uri_complete: v.exactOptional(v.string()),
  expires_in: v.pipe(v.number(), v.finite(), v.minValue(1)),
  interval: v.exactOptional(v.pipe(v.number(), v.finite(), v.minValue(0))),
});

/** What the player is shown: the code to enter and where. */
export interface DeviceCode {
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
  /** Seconds. */
  readonly expiresIn: number;
}

export interface DeviceTokenOptions extends CommonOptions {
  /** Space-separated. */
  readonly scopes: string;
  /** GetTokenFromDeviceProvisionalMerge: the provisional account of this identity is merged into the approving account. */
  readonly externalAuth?: { readonly type: string; readonly token: string };
  /** Told the codes once the platform gave them. */
  readonly onCode?: (code: DeviceCode) => void;
  /** Waits between polls (tests shorten it); resolves early with false when aborted. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
}

function post(options: CommonOptions, path: string, form: URLSearchParams, secrets: readonly (string | undefined)[]): Promise<unknown> {
  form.set('client_id', toU64String(options.applicationId, 'applicationId'));
  if (options.clientSecret !== undefined) form.set('client_secret', options.clientSecret);
  const init: RequestInit = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: form.toString() };
  return platformCall(options, path, init, secretsOf(options, secrets));
}

export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve(false);
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(answer);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Client::GetTokenFromDevice's network part: the codes, then polls (at the interval, slower after slow_down) until tokens or a refusal. */
export async function getTokenFromDevice(options: DeviceTokenOptions): Promise<TokenResponse> {
  if (typeof options.scopes !== 'string' || options.scopes.trim().length === 0) throw new TypeError('scopes must be a non-empty space-separated string');
  const answer = answerOf(DeviceAnswerSchema, await post(options, '/api/v10/oauth2/device/authorize', new URLSearchParams({ scope: options.scopes }), []), 'device authorization');
  const secrets = [answer.device_code, options.externalAuth?.token];
  options.onCode?.({
    userCode: answer.user_code,
    verificationUri: answer.verification_uri,
    verificationUriComplete: answer.verification_uri_complete ?? answer.verification_uri,
    expiresIn: answer.expires_in,
  });
  const sleep = options.sleep ?? abortableSleep;
  let intervalMs = (answer.interval ?? 5) * 1000;
  for (;;) {
    if (!(await sleep(intervalMs, options.signal))) throw new ClientResultError(ClientResult.aborted());
    const form = new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: answer.device_code });
    if (options.externalAuth !== undefined) {
      form.set('external_auth_type', options.externalAuth.type);
      form.set('external_auth_token', options.externalAuth.token);
    }
    try {
      return parseTokenResponse(await post(options, '/api/v10/oauth2/token', form, secrets), secretsOf(options, secrets));
    } catch (error) {
      const oauthError = error instanceof ClientResultError ? error.result.oauthError : undefined;
      if (oauthError === 'slow_down') intervalMs += 5000;
      else if (oauthError !== 'authorization_pending') throw error;
    }
  }
}
