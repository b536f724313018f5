import type { AuthCommandsOptions } from './auth-ports.js';
import { AuthenticateCommand } from './authenticate-command.js';
import { AuthorizeCommand } from './authorize-command.js';

export type { AuthCommandsOptions, AuthGrant, AuthPlatform, ConsentPort } from './auth-ports.js';

/**
 * AUTHORIZE and AUTHENTICATE, for the host:
 * - AUTHORIZE checks the args (rpc/), asks the platform what the request means, asks the player
 *   through the consent broker, and on approval obtains a code from the platform (authorize-command.ts).
 * - AUTHENTICATE asks the platform what the access token stands for; it must be the signed-in
 *   user's, else 4009. The connection then holds the token's scopes (authenticate-command.ts).
 */
export function installAuthCommands(options: AuthCommandsOptions): void {
  options.server.setCommandHandler('AUTHORIZE', new AuthorizeCommand(options).handler);
  options.server.setCommandHandler('AUTHENTICATE', new AuthenticateCommand(options).handler);
}
