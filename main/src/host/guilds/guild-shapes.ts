import type { SourceChannel, SourceGuild } from './guild-source.js';

/** The CDN the real client names in READY's `cdn_host`. */
export const DEFAULT_CDN_HOST = 'cdn.discordapp.com';

/** The bitrate of a voice channel created with the platform's defaults. */
const DEFAULT_VOICE_BITRATE = 64_000;
const GUILD_VOICE = 2;

export interface RpcGuildSummary {
  readonly id: string;
  readonly name: string;
  readonly icon_url: string | null;
}

export interface RpcGuild extends RpcGuildSummary {
  /** Deprecated by the real service and always empty. */
  readonly members: readonly never[];
}

export interface RpcChannelSummary {
  readonly id: string;
  readonly name: string;
  readonly type: number;
}

export interface RpcChannel extends RpcChannelSummary {
  readonly guild_id: string | null;
  readonly topic: string;
  readonly bitrate: number;
  readonly user_limit: number;
  readonly position: number;
  readonly voice_states: readonly never[];
  readonly messages: readonly never[];
}

export interface GuildStatus {
  readonly guild: RpcGuildSummary;
  /** Deprecated by the real service and always 0. */
  readonly online: 0;
}

/** `https://<cdn>/icons/<guild id>/<icon>.png`, or null for a guild without an icon. */
export function guildIconUrl(cdnHost: string, guild: SourceGuild): string | null {
  if (guild.icon === null || guild.icon === '') return null;
  return `https://${cdnHost}/icons/${encodeURIComponent(guild.id)}/${encodeURIComponent(guild.icon)}.png`;
}

export function guildSummary(cdnHost: string, guild: SourceGuild): RpcGuildSummary {
  return { id: guild.id, name: guild.name, icon_url: guildIconUrl(cdnHost, guild) };
}

export function rpcGuild(cdnHost: string, guild: SourceGuild): RpcGuild {
  return { ...guildSummary(cdnHost, guild), members: [] };
}

export function channelSummary(channel: SourceChannel): RpcChannelSummary {
  return { id: channel.id, name: channel.name ?? '', type: channel.type };
}

export function rpcChannel(channel: SourceChannel): RpcChannel {
  return {
    id: channel.id,
    guild_id: channel.guild_id ?? null,
    name: channel.name ?? '',
    type: channel.type,
    topic: channel.topic ?? '',
    bitrate: channel.bitrate ?? (channel.type === GUILD_VOICE ? DEFAULT_VOICE_BITRATE : 0),
    user_limit: channel.user_limit ?? 0,
    position: channel.position ?? 0,
    voice_states: [],
    messages: [],
  };
}

export function guildStatus(cdnHost: string, guild: SourceGuild): GuildStatus {
  return { guild: guildSummary(cdnHost, guild), online: 0 };
}
