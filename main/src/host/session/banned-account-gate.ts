import { authorizeError, RpcError, RpcErrorCode, type RpcServer } from '../../../../rpc/src/index.js';

/** The commands whose work is done on the platform with the host's account (presence, invites, join requests). */
export const PLATFORM_RELAYED_COMMANDS = ['SET_ACTIVITY', 'SEND_ACTIVITY_JOIN_INVITE', 'CLOSE_ACTIVITY_REQUEST', 'CLOSE_ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE_USER', 'ACCEPT_ACTIVITY_INVITE'] as const;

/** The ERROR text of a platform command while the host's account is banned. */
export function bannedAccountMessage(cmd: string): string {
  return `Invalid user: the Companion account is banned on the platform; ${cmd} is not relayed until the ban is lifted`;
}

/** AUTHORIZE's refusal while the host's account is banned: the OAuth2 form, `server_error`, saying why. */
export const BANNED_AUTHORIZE_DESCRIPTION = 'the Companion account is banned on the platform; authorize again once the ban is lifted';

/**
 * While the platform refuses the host's account for a ban, the commands it would relay to the
 * platform answer ERROR 4010 (the protocol's "Invalid user") instead of an `ok` that nothing
 * backs **(ours)**, and AUTHORIZE answers `server_error` saying the account is banned (not only
 * that Companion is not signed in). Installed after every other handler of these commands,
 * which it wraps.
 */
export function refusePlatformCommandsWhileBanned(server: RpcServer, banned: () => boolean): void {
  for (const cmd of PLATFORM_RELAYED_COMMANDS) {
    const handler = server.commandHandler(cmd);
    if (handler === undefined) continue;
    server.setCommandHandler(cmd, (context) => {
      if (banned()) throw new RpcError(RpcErrorCode.InvalidUser, bannedAccountMessage(cmd));
      return handler(context);
    });
  }
  // AUTHORIZE would otherwise say only that Companion is not signed in.
  const authorize = server.commandHandler('AUTHORIZE');
  if (authorize === undefined) return;
  server.setCommandHandler('AUTHORIZE', (context) => {
    if (banned()) {
      const { code, message } = authorizeError('server_error', BANNED_AUTHORIZE_DESCRIPTION);
      throw new RpcError(code, message);
    }
    return authorize(context);
  });
}
