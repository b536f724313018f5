import { describe, expect, it } from 'vitest';
import { parseAuthorizeArgs, REDIRECT_OVER_RPC_MESSAGE, RpcError } from '../../src/index.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function refusal(args: unknown): { code: number; message: string } {
  try {
    parseAuthorizeArgs(args);
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseAuthorizeArgs', () => {
  it('takes scopes as an array, a space-separated string, or under "scope"; drops duplicates', () => {
    expect(parseAuthorizeArgs({ scopes: ['identify', 'rpc', 'identify'] }).scopes).toEqual(['identify', 'rpc']);
    expect(parseAuthorizeArgs({ scopes: 'openid  sdk.social_layer_presence' }).scopes).toEqual(['openid', 'sdk.social_layer_presence']);
    expect(parseAuthorizeArgs({ scope: 'identify guilds' }).scopes).toEqual(['identify', 'guilds']);
  });

  it('keeps the optional fields and leaves client_id to the connection when absent', () => {
    const args = parseAuthorizeArgs({
      client_id: '123456789012345678',
      scopes: ['identify'],
      state: 's-1',
      nonce: 'n-1',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      integration_type: 1,
      prompt: 'none',
      pid: 4242,
      response_type: 'code',
    });
    expect(args).toEqual({
      clientId: '123456789012345678',
      scopes: ['identify'],
      state: 's-1',
      nonce: 'n-1',
      codeChallenge: CHALLENGE,
      codeChallengeMethod: 'S256',
      integrationType: 1,
      prompt: 'none',
    });
    expect(parseAuthorizeArgs({ scopes: ['identify'] }).clientId).toBeUndefined();
    expect(parseAuthorizeArgs({ client_id: 1234567, scopes: ['identify'] }).clientId).toBe('1234567');
  });

  it.each([
    [{}, 'OAuth2 Error: invalid_scope: No scopes were requested; ask for at least one (e.g. "identify")'],
    [{ scopes: [] }, 'OAuth2 Error: invalid_scope: No scopes were requested; ask for at least one (e.g. "identify")'],
    [{ scopes: '   ' }, 'OAuth2 Error: invalid_scope: No scopes were requested; ask for at least one (e.g. "identify")'],
    [{ scopes: ['identify', 7] }, 'OAuth2 Error: invalid_scope: 7 is not a valid scope'],
    [{ scopes: 5 }, 'OAuth2 Error: invalid_scope: "scopes" must be an array of scopes or a space-separated string'],
    [{ scopes: ['identify'], redirect_uri: 'http://127.0.0.1/callback' }, REDIRECT_OVER_RPC_MESSAGE],
    [{ scopes: ['identify'], rpc_token: 'x' }, 'OAuth2 Error: invalid_request: rpc_token is no longer supported (the RPC token flow was removed); authorize with scopes and redeem the code at /oauth2/token'],
    [{ scopes: ['identify'], username: 'guest' }, 'OAuth2 Error: invalid_request: username (guest accounts) is not supported; authorize with scopes'],
    [{ scopes: ['identify'], code_challenge: CHALLENGE, code_challenge_method: 'plain' }, 'OAuth2 Error: invalid_request: "code_challenge_method" must be "S256"'],
    [{ scopes: ['identify'], code_challenge: CHALLENGE }, 'OAuth2 Error: invalid_request: "code_challenge_method" is required with "code_challenge" (S256)'],
    [{ scopes: ['identify'], code_challenge: 'short', code_challenge_method: 'S256' }, 'OAuth2 Error: invalid_request: "code_challenge" must be a base64url SHA-256 digest (43 characters)'],
    [{ scopes: ['identify'], integration_type: 2 }, 'OAuth2 Error: invalid_request: "integration_type" must be 0 (guild install) or 1 (user install)'],
    [{ scopes: ['identify'], prompt: 'always' }, 'OAuth2 Error: invalid_request: "prompt" must be "consent" or "none"'],
    [{ scopes: ['identify'], client_id: 'my-game' }, 'OAuth2 Error: invalid_request: "client_id" must be an application id (a snowflake)'],
    [{ scopes: ['identify'], state: 5 }, 'OAuth2 Error: invalid_request: "state" must be a string'],
    [[], 'OAuth2 Error: invalid_request: "args" must be an object'],
  ])('refuses %j with ERROR 5000 "%s"', (args, message) => {
    expect(refusal(args)).toEqual({ code: 5000, message });
  });
});
