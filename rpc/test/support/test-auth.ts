import { RpcError, RpcErrorCode, type RpcServer } from '../../src/index.js';

/**
 * A test-only AUTHENTICATE: the access token is `test:<application id>:<space-separated
 * scopes>`, and the connection is marked authenticated with those scopes, as the host's
 * AUTHENTICATE does after validating a real token. Anything else answers 4009.
 */
export function installTestAuthenticate(server: RpcServer): void {
  server.setCommandHandler('AUTHENTICATE', ({ connection, request }) => {
    const token = request.args['access_token'];
    const match = typeof token === 'string' ? /^test:([0-9]+):(.*)$/.exec(token) : null;
    if (match === null) throw new RpcError(RpcErrorCode.InvalidToken, 'Invalid token');
    const applicationId = match[1] as string;
    const scopes = (match[2] as string).split(' ').filter((scope) => scope !== '');
    connection.authenticated = true;
    connection.scopes = new Set(scopes);
    connection.authenticatedApplicationId = applicationId;
    return { scopes, application: { id: applicationId }, access_token: token };
  });
}

export function testToken(applicationId: string, scopes: readonly string[]): string {
  return `test:${applicationId}:${scopes.join(' ')}`;
}
