import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';
import { GuildChannelListSchema, GuildListSchema, type WireGuildChannel } from './wire/http.js';

/**
 * The player's guilds and a guild's channels, with the game's own Bearer token (`guilds` and
 * `guilds.channels.read`, both in `sdk.social_layer`): `GET /api/v10/users/@me/guilds` and
 * `GET /api/v10/guilds/{id}/channels`, checked against their schemas (wire/http.ts), in the
 * Social SDK's shapes. Failures reject with a
 * ClientResultError; the token never reaches a message.
 */

/** discordpp::ChannelType. */
export const ChannelType = {
  GuildText: 0,
  Dm: 1,
  GuildVoice: 2,
  GroupDm: 3,
  GuildCategory: 4,
  GuildNews: 5,
  GuildStore: 6,
  GuildNewsThread: 10,
  GuildPublicThread: 11,
  GuildPrivateThread: 12,
  GuildStageVoice: 13,
  GuildDirectory: 14,
  GuildForum: 15,
  GuildMedia: 16,
  Lobby: 17,
  EphemeralDm: 18,
} as const;

/** discordpp::GuildMinimal. */
export interface GuildMinimal {
  readonly id: string;
  readonly name: string;
}

/** discordpp::LinkedLobby: the lobby a channel is linked to. */
export interface LinkedLobby {
  readonly applicationId: string;
  readonly lobbyId: string;
}

/** discordpp::GuildChannel. */
export interface GuildChannel {
  readonly id: string;
  readonly name: string;
  /** ChannelType. */
  readonly type: number;
  /** Its position in the guild's channel list (within its category). */
  readonly position: number;
  /** The category it is in, null when none. */
  readonly parentId: string | null;
  /** The player may link it to a lobby: a text channel, not NSFW, not linked yet, and the player may manage channels (or is an administrator). */
  readonly isLinkable: boolean;
  /** Every member may view it and send messages in it (a text channel no @everyone overwrite closes). */
  readonly isViewableAndWriteableByAllMembers: boolean;
  /** The lobby it is linked to, null when none. */
  readonly linkedLobby: LinkedLobby | null;
}

/** A guild of the player with the player's permissions there (a decimal bit set on the wire). */
export interface GuildEntry {
  readonly guild: GuildMinimal;
  readonly permissions: bigint;
}

const ADMINISTRATOR = 1n << 3n;
const MANAGE_CHANNELS = 1n << 4n;
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const MESSAGE_CHANNELS: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildNews]);

export function requireGuildId(guildId: string): string {
  if (typeof guildId !== 'string' || !/^\d{1,20}$/.test(guildId)) throw new TypeError('guildId must be a guild id (a snowflake)');
  return guildId;
}

function permissionsOf(value: string | undefined): bigint {
  try {
    return value !== undefined && /^\d+$/.test(value) ? BigInt(value) : 0n;
  } catch {
    return 0n;
  }
}

/** The player's guilds (Client::GetUserGuilds) with their permissions. */
export async function listUserGuilds(options: BearerCallOptions): Promise<GuildEntry[]> {
  const guilds = answerOf(GuildListSchema, await bearerCall(options, 'GET', '/users/@me/guilds'), 'guilds');
  return guilds.map((guild) => ({ guild: { id: guild.id, name: guild.name ?? '' }, permissions: permissionsOf(guild.permissions) }));
}

function linkedLobbyOf(value: WireGuildChannel['linked_lobby']): LinkedLobby | null {
  return value === undefined || value === null ? null : { applicationId: value.application_id, lobbyId: value.lobby_id };
}

/** No permission overwrite of the @everyone role (its id is the guild's) takes VIEW_CHANNEL or SEND_MESSAGES away. */
function openToEveryone(channel: WireGuildChannel, guildId: string): boolean {
  const overwrites = channel.permission_overwrites ?? [];
  return !overwrites.some((overwrite) => overwrite.id === guildId && (permissionsOf(overwrite.deny) & (VIEW_CHANNEL | SEND_MESSAGES)) !== 0n);
}

/** A channel of the answer as a GuildChannel; `permissions` are the player's in the guild. */
export function toGuildChannel(channel: WireGuildChannel, guildId: string, permissions: bigint): GuildChannel {
  const linkedLobby = linkedLobbyOf(channel.linked_lobby);
  const mayLink = (permissions & ADMINISTRATOR) !== 0n || (permissions & (MANAGE_CHANNELS | VIEW_CHANNEL | SEND_MESSAGES)) === (MANAGE_CHANNELS | VIEW_CHANNEL | SEND_MESSAGES);
  return {
    id: channel.id,
    name: channel.name ?? '',
    type: channel.type,
    position: channel.position ?? 0,
    parentId: channel.parent_id ?? null,
    isLinkable: channel.type === ChannelType.GuildText && channel.nsfw !== true && linkedLobby === null && mayLink,
    isViewableAndWriteableByAllMembers: MESSAGE_CHANNELS.has(channel.type) && openToEveryone(channel, guildId),
    linkedLobby,
  };
}

/** The guild's channels (`GET /guilds/{id}/channels`), in the answer's order. */
export async function listGuildChannels(options: BearerCallOptions, guildId: string, permissions: bigint): Promise<GuildChannel[]> {
  const json = await bearerCall(options, 'GET', `/guilds/${encodeURIComponent(requireGuildId(guildId))}/channels`);
  return answerOf(GuildChannelListSchema, json, 'channels').map((channel) => toGuildChannel(channel, guildId, permissions));
}
