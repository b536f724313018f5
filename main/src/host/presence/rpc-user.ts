import type { RpcUser } from '../../../../rpc/src/index.js';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';

/** The READY user of the RPC protocol, from the platform's user object. */
export function rpcUserFrom(user: PlatformUser): RpcUser {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.global_name,
    avatar: user.avatar,
    avatar_decoration_data: null,
    bot: user.bot,
    flags: user.flags,
    premium_type: user.premium_type,
  };
}
