import type { AuthCommandsOptions } from './auth-ports.js';
import { AuthenticateCommand } from './authenticate-command.js';
import { AuthorizeCommand } from './authorize-command.js';
import { capInFlight, MAX_AUTHORIZE_IN_FLIGHT } from './in-flight-cap.js';

export type { AuthCommandsOptions, AuthGrant, AuthPlatform, ConsentPort } from './auth-ports.js';
export { MAX_AUTHORIZE_IN_FLIGHT } from './in-flight-cap.js';

/**
 * AUTHORIZE and AUTHENTICATE, for the host:
 * - AUTHORIZE checks the args (rpc/), asks the platform what the request means, asks the player
 *   through the consent broker, and on approval obtains a code from the platform (authorize-command.ts).
 *   At most MAX_AUTHORIZE_IN_FLIGHT (4) run at once per connection; one more is ERROR 5000 at
 *   once (in-flight-cap.ts).
 * - AUTHENTICATE asks the platform what the access token stands for; it must be the signed-in
 *   user's, else 4009. The connection then holds the token's scopes (authenticate-command.ts).
 */
export function installAuthCommands(options: AuthCommandsOptions): void {
  options.server.setCommandHandler('AUTHORIZE', capInFlight(new AuthorizeCommand(options).handler, MAX_AUTHORIZE_IN_FLIGHT));
  options.server.setCommandHandler('AUTHENTICATE', new AuthenticateCommand(options).handler);
}
