import type { ReadyIdentity, RpcUser } from '../../../../rpc/src/index.js';
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

/**
 * READY's config. `api_endpoint` points at the platform the host uses (the embedded emulator
 * by default), written protocol-relative as the real client does (`//discord.com/api`).
 * `cdn_host` and `environment` keep the real client's values: the emulator serves no CDN, and
 * no library we know reads `environment`.
 */
export function readyConfigFor(platformUrl: string): ReadyIdentity['config'] {
  const url = new URL(platformUrl);
  return { cdn_host: 'cdn.discordapp.com', api_endpoint: `//${url.host}/api`, environment: 'production' };
}
