import { describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, AUTHORIZE_OUTCOMES, TIMED_OUT_MESSAGE, authorizeError } from '../../src/protocol/authorize-outcomes.js';
import { ClientResult, ClientResultError, authorizeResultFromRpcError, oauthErrorType, toClientResult } from '../../client/client-result.js';

describe('ClientResult', () => {
  it('has the fields and static helpers', () => {
    const ok = ClientResult.ok(200);
    expect(ok).toMatchObject({ successful: true, type: 'None', error: '', errorCode: 0, status: 200, retryable: false, retryAfter: 0 });
    expect(ok.oauthError).toBeUndefined();
    expect(ClientResult.timeout(30000)).toMatchObject({ successful: false, type: 'Timeout', retryable: true });
    expect(ClientResult.networkError('down')).toMatchObject({ type: 'NetworkError', retryable: true });
    expect(ClientResult.aborted().type).toBe('Aborted');
    expect(ClientResult.fromOAuthError('invalid_grant', 'Invalid "code" in request.', 400)).toMatchObject({
      type: 'AuthorizationFailed',
      status: 400,
      oauthError: 'invalid_grant',
      error: 'invalid_grant: Invalid "code" in request.',
    });
    expect(Object.isFrozen(ok)).toBe(true);
    expect(String(ClientResult.timeout(5))).toBe('ClientResult(Timeout: no answer within 5 ms)');
  });

  it('maps OAuth2 error names', () => {
    expect(oauthErrorType('access_denied')).toBe('UserCancelled');
    expect(oauthErrorType('server_error')).toBe('ServerError');
    expect(oauthErrorType('temporarily_unavailable')).toBe('ServerError');
    for (const name of ['invalid_request', 'invalid_scope', 'unsupported_grant_type', 'unsupported_response_type']) expect(oauthErrorType(name)).toBe('InvalidRequest');
    for (const name of ['invalid_grant', 'invalid_client', 'unauthorized_client', 'something_new']) expect(oauthErrorType(name)).toBe('AuthorizationFailed');
    expect(oauthErrorType('something_new', 503)).toBe('ServerError');
  });

  it('toClientResult unwraps ClientResultError and classifies the rest', () => {
    const result = ClientResult.networkError('x');
    expect(toClientResult(new ClientResultError(result))).toBe(result);
    expect(toClientResult(new RangeError('bad')).type).toBe('ValidationError');
    expect(toClientResult(new Error('bug')).type).toBe('Unknown');
  });
});

describe('authorizeResultFromRpcError', () => {
  it('tells a user cancellation from a server error with the outcome table', () => {
    const expected: Record<string, string> = {
      denied: 'UserCancelled',
      dismissed: 'UserCancelled',
      'timed-out': 'UserCancelled',
      'server-error': 'ServerError',
      'invalid-scope': 'InvalidRequest',
      'invalid-request': 'InvalidRequest',
      'redirect-refused': 'InvalidRequest',
    };
    for (const row of AUTHORIZE_OUTCOMES) {
      if (row.kind === 'approved') continue;
      const [codeText, ...rest] = row.reply.split(' ');
      const message = rest.join(' ').replace('<description>', 'something went wrong');
      const result = authorizeResultFromRpcError(Number(codeText), message);
      expect(result.type, row.kind).toBe(expected[row.kind]);
      expect(result.type === 'UserCancelled').toBe(row.userCancelled);
      expect(result.errorCode).toBe(5000);
      expect(result.error).toBe(message);
    }
  });

  it('reads the exact messages of the host', () => {
    expect(authorizeResultFromRpcError(5000, ACCESS_DENIED_MESSAGE)).toMatchObject({ type: 'UserCancelled', oauthError: 'access_denied', retryable: false });
    expect(authorizeResultFromRpcError(5000, TIMED_OUT_MESSAGE).type).toBe('UserCancelled');
    const server = authorizeError('server_error', 'the platform could not be reached');
    expect(authorizeResultFromRpcError(server.code, server.message)).toMatchObject({ type: 'ServerError', oauthError: 'server_error', retryable: true });
    const scope = authorizeError('invalid_scope', 'The scope "x" is not a valid scope');
    expect(authorizeResultFromRpcError(scope.code, scope.message)).toMatchObject({ type: 'InvalidRequest', oauthError: 'invalid_scope' });
  });

  it('makes other OAuth2 errors AuthorizationFailed and other codes RpcError', () => {
    expect(authorizeResultFromRpcError(5000, 'OAuth2 Error: invalid_client: Unknown application').type).toBe('AuthorizationFailed');
    expect(authorizeResultFromRpcError(5000, 'not in the usual form').type).toBe('AuthorizationFailed');
    expect(authorizeResultFromRpcError(4000, 'Invalid payload')).toMatchObject({ type: 'RpcError', errorCode: 4000 });
    expect(authorizeResultFromRpcError(4000, ACCESS_DENIED_MESSAGE).type).toBe('RpcError');
  });
});
