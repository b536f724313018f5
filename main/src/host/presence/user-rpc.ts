import { parseGetUserArgs, RpcError, RpcErrorCode, type RpcServer } from '../../../../rpc/src/index.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import type { KnownUsers } from './known-users.js';
import { rpcUserFrom } from './rpc-user.js';

/** The ERROR text of GET_USER for a user the host does not know (code 4010, the protocol's "Invalid user"). */
export const invalidUserMessage = (id: string): string => `Invalid user: ${id}`;

/**
 * GET_USER `{id}`: the user object the desktop client answers (as READY's user: id, username,
 * discriminator, global_name, avatar, avatar_decoration_data, bot, flags, premium_type) for the
 * signed-in user and every user the host's session has told of (KnownUsers); anyone else is
 * 4010. The host asks the platform for no one: like the desktop client, it answers from what
 * it holds.
 */
export function installGetUser(server: Pick<RpcServer, 'setCommandHandler'>, users: { readonly me: () => PlatformUser | null; readonly known: Pick<KnownUsers, 'get'> }): void {
  server.setCommandHandler('GET_USER', ({ request }) => {
    const { id } = parseGetUserArgs(request.args);
    const me = users.me();
    const user = me?.id === id ? me : users.known.get(id);
    if (user === undefined) throw new RpcError(RpcErrorCode.InvalidUser, invalidUserMessage(id));
    return rpcUserFrom(user);
  });
}
