import type { PlatformChannel, PlatformGuild } from '../../../../platform/src/wire/index.js';

/** A guild as GET_GUILDS lists it; a PlatformGuild fits. */
export type SourceGuild = Pick<PlatformGuild, 'id' | 'name' | 'icon'>;

/**
 * A channel as the platform gives it (a PlatformChannel fits). `topic`, `bitrate` and
 * `user_limit` are read when the platform has them; GET_CHANNEL fills defaults otherwise.
 */
export type SourceChannel = Pick<PlatformChannel, 'id' | 'type'> &
  Partial<Pick<PlatformChannel, 'guild_id' | 'name' | 'position'>> & {
    readonly topic?: string | null;
    readonly bitrate?: number;
    readonly user_limit?: number;
  };

/**
 * Where the guild commands read the signed-in user's guilds and channels (the host implements
 * it over the platform HTTP API). null: no such guild or channel for this user. A rejection is a
 * platform failure; an RpcError it throws is passed to the game as it is.
 */
export interface GuildSource {
  guilds(): Promise<readonly SourceGuild[]>;
  guild(id: string): Promise<SourceGuild | null>;
  /** The guild's channels; null when the guild is unknown. */
  channels(guildId: string): Promise<readonly SourceChannel[] | null>;
  channel(id: string): Promise<SourceChannel | null>;
}
