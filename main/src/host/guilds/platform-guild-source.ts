import { RpcError, RpcErrorCode } from '../../../../rpc/src/index.js';
import type { PlatformApi } from '../gateway/platform-api.js';
import type { GuildSource, SourceChannel, SourceGuild } from './guild-source.js';

/** The guild commands' data, read with the signed-in user's token from the platform's HTTP API. */
export function platformGuildSource(api: () => PlatformApi | null): GuildSource {
  const client = (): PlatformApi => {
    const current = api();
    if (current === null) throw new RpcError(RpcErrorCode.ServiceUnavailable, 'Companion is not signed in to the platform');
    return current;
  };
  return {
    guilds: async (): Promise<readonly SourceGuild[]> => client().guilds(),
    guild: async (id) => client().guild(id),
    channels: async (guildId): Promise<readonly SourceChannel[] | null> => client().guildChannels(guildId),
    channel: async (id) => client().channel(id),
  };
}
