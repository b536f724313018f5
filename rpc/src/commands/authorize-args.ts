import { RpcError } from '../protocol/codes.js';
import { authorizeError, REDIRECT_OVER_RPC_MESSAGE } from '../protocol/authorize-outcomes.js';
import { normalizeClientId } from '../protocol/handshake.js';

/** AUTHORIZE arguments after checking, in the names the platform's authorize route takes. */
export interface AuthorizeArgs {
  /** Absent: the application of the connection's handshake (as ClientId falls back to SetApplicationId). */
  readonly clientId: string | undefined;
  /** As requested, in order, without duplicates; umbrellas (sdk.social_layer...) not expanded yet. */
  readonly scopes: readonly string[];
  readonly state: string | undefined;
  readonly nonce: string | undefined;
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: 'S256' | undefined;
  /** 0 guild install, 1 user install. */
  readonly integrationType: 0 | 1 | undefined;
  readonly prompt: 'consent' | 'none' | undefined;
}

/** The message the real client gives for a redirect_uri over IPC. */
export { REDIRECT_OVER_RPC_MESSAGE };

function invalidRequest(description: string): RpcError {
  const { code, message } = authorizeError('invalid_request', description);
  return new RpcError(code, message);
}

function invalidScope(description: string): RpcError {
  const { code, message } = authorizeError('invalid_scope', description);
  return new RpcError(code, message);
}

function optionalString(args: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`"${key}" must be a string`);
  if (value.length > max) throw invalidRequest(`"${key}" must be at most ${max} characters`);
  return value;
}

/**
 * Checks AUTHORIZE args the way the real client does, every refusal an
 * ERROR 5000 `OAuth2 Error: ...` (the redirect refusal keeps the real client's own text):
 * - `scopes` as an array or a space-separated string, also under `scope` (the Embedded App
 *   SDK's name); missing or empty is invalid_scope; a scope that is not a word is invalid_scope;
 *   whether a scope exists and the app may ask for it is the platform's answer;
 * - `client_id` a snowflake (string or safe integer) when given;
 * - `code_challenge_method` S256 only, and only together with `code_challenge`;
 * - `integration_type` 0 or 1; `prompt` consent or none;
 * - `rpc_token` and `username` (the removed RPC-token and guest flows) are refused with a
 *   clear invalid_request rather than ignored, so a game learns why it gets no token;
 * - `redirect_uri` is refused over IPC, as by the real client.
 * Other keys (`pid`, `response_type: "code"`, `permissions`, ...) are accepted and ignored.
 */
export function parseAuthorizeArgs(raw: unknown): AuthorizeArgs {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidRequest('"args" must be an object');
  const args = raw as Record<string, unknown>;

  if (args['redirect_uri'] !== undefined && args['redirect_uri'] !== null) throw new RpcError(5000, REDIRECT_OVER_RPC_MESSAGE);
  if (args['rpc_token'] !== undefined && args['rpc_token'] !== null) {
    throw invalidRequest('rpc_token is no longer supported (the RPC token flow was removed); authorize with scopes and redeem the code at /oauth2/token');
  }
  if (args['username'] !== undefined && args['username'] !== null) {
    throw invalidRequest('username (guest accounts) is not supported; authorize with scopes');
  }
  const responseType = args['response_type'];
  if (responseType !== undefined && responseType !== 'code') throw invalidRequest('"response_type" must be "code"');

  let clientId: string | undefined;
  if (args['client_id'] !== undefined && args['client_id'] !== null && args['client_id'] !== '') {
    clientId = normalizeClientId(args['client_id']);
    if (clientId === undefined) throw invalidRequest('"client_id" must be an application id (a snowflake)');
  }

  // `scopes` first; an absent or empty one falls through to the Embedded App SDK's `scope`.
  const primary = args['scopes'];
  const emptyPrimary = primary === undefined || primary === null || (Array.isArray(primary) && primary.length === 0) || primary === '';
  const scopes = parseScopes(emptyPrimary && args['scope'] !== undefined ? args['scope'] : primary);

  const codeChallenge = optionalString(args, 'code_challenge', 128);
  const method = args['code_challenge_method'];
  let codeChallengeMethod: 'S256' | undefined;
  if (method !== undefined && method !== null) {
    if (method !== 'S256') throw invalidRequest('"code_challenge_method" must be "S256"');
    codeChallengeMethod = 'S256';
  }
  if (codeChallenge !== undefined && codeChallengeMethod === undefined) throw invalidRequest('"code_challenge_method" is required with "code_challenge" (S256)');
  if (codeChallenge === undefined && codeChallengeMethod !== undefined) throw invalidRequest('"code_challenge" is required with "code_challenge_method"');
  if (codeChallenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    throw invalidRequest('"code_challenge" must be a base64url SHA-256 digest (43 characters)');
  }

  const integration = args['integration_type'];
  if (integration !== undefined && integration !== null && integration !== 0 && integration !== 1) {
    throw invalidRequest('"integration_type" must be 0 (guild install) or 1 (user install)');
  }
  const prompt = args['prompt'];
  if (prompt !== undefined && prompt !== null && prompt !== 'consent' && prompt !== 'none') {
    throw invalidRequest('"prompt" must be "consent" or "none"');
  }

  return {
    clientId,
    scopes,
    state: optionalString(args, 'state', 1024),
    nonce: optionalString(args, 'nonce', 1024),
    codeChallenge,
    codeChallengeMethod,
    integrationType: integration === 0 || integration === 1 ? integration : undefined,
    prompt: prompt === 'consent' || prompt === 'none' ? prompt : undefined,
  };
}

const SCOPE_WORD = /^[a-z0-9_.]{1,64}$/;

function parseScopes(value: unknown): string[] {
  let list: unknown[];
  if (value === undefined || value === null) list = [];
  else if (typeof value === 'string') list = value.split(/\s+/).filter((part) => part !== '');
  else if (Array.isArray(value)) list = value;
  else throw invalidScope('"scopes" must be an array of scopes or a space-separated string');
  const scopes: string[] = [];
  for (const scope of list) {
    if (typeof scope !== 'string' || !SCOPE_WORD.test(scope)) throw invalidScope(`${JSON.stringify(scope)} is not a valid scope`);
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  if (scopes.length === 0) throw invalidScope('No scopes were requested; ask for at least one (e.g. "identify")');
  if (scopes.length > 64) throw invalidScope('Too many scopes');
  return scopes;
}
