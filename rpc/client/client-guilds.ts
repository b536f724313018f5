import type { ClientResult } from './client-result.js';
import { listGuildChannels, listUserGuilds, requireGuildId, type GuildChannel, type GuildMinimal } from './guild-api.js';
import { orderGuildChannels } from './guild-channel-order.js';
import { attempt, type BearerCallOptions } from './platform-request.js';

/**
 * The Client's guild calls in the Social SDK's shape (GetUserGuilds, GetGuildChannels): each
 * resolves with its ClientResult and calls the callback when given; none throws. The player's
 * permissions per guild (from the guild list) decide `isLinkable`; getGuildChannels asks for
 * the list when it has not seen the guild yet, and counts no permission when that fails.
 */
export class ClientGuilds {
  private readonly permissions = new Map<string, bigint>();

  constructor(private readonly options: () => BearerCallOptions) {}

  /** Client::GetUserGuilds: the guilds the player is in. */
  async userGuilds(callback?: (result: ClientResult, guilds: readonly GuildMinimal[]) => void): Promise<{ result: ClientResult; guilds: readonly GuildMinimal[] }> {
    const outcome = await attempt(async () => (await this.refreshPermissions()).map((entry) => entry.guild));
    const guilds = outcome.value ?? [];
    callback?.(outcome.result, guilds);
    return { result: outcome.result, guilds };
  }

  /** Client::GetGuildChannels: the guild's channels, sorted as the desktop client lists them. */
  async channels(guildId: string, callback?: (result: ClientResult, channels: readonly GuildChannel[]) => void): Promise<{ result: ClientResult; channels: readonly GuildChannel[] }> {
    const outcome = await attempt(async () => {
      requireGuildId(guildId);
      if (!this.permissions.has(guildId)) await this.refreshPermissions().catch(() => undefined);
      return orderGuildChannels(await listGuildChannels(this.options(), guildId, this.permissions.get(guildId) ?? 0n));
    });
    const channels = outcome.value ?? [];
    callback?.(outcome.result, channels);
    return { result: outcome.result, channels };
  }

  private async refreshPermissions(): Promise<Awaited<ReturnType<typeof listUserGuilds>>> {
    const entries = await listUserGuilds(this.options());
    this.permissions.clear();
    for (const entry of entries) this.permissions.set(entry.guild.id, entry.permissions);
    return entries;
  }
}
