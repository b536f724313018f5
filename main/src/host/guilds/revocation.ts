import { CloseCode, type RpcServer } from '../../../../rpc/src/index.js';

/** The CLOSE message for a revoked grant (close code 4003, the real client's "Token revoked"). */
export const TOKEN_REVOKED_MESSAGE = 'Token revoked';

/**
 * Closes the connections that authenticated with a token of this application (its grant was
 * revoked) with CLOSE 4003 "Token revoked"; returns how many. Connections of the same app that
 * never sent AUTHENTICATE keep running: Rich Presence needs no token.
 */
export function closeRevoked(server: RpcServer, applicationId: string): number {
  let closed = 0;
  for (const connection of [...server.connections()]) {
    if (!connection.authenticated || connection.authenticatedApplicationId !== applicationId) continue;
    if (connection.state === 'closing' || connection.state === 'closed') continue;
    connection.close(CloseCode.TokenRevoked, TOKEN_REVOKED_MESSAGE, 'token-revoked');
    closed += 1;
  }
  return closed;
}
