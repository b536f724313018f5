import * as v from 'valibot';
import type { GuildRecord } from '../state/model.js';

/** A guild as `GET /users/@me/guilds` answers it (the public docs' partial guild). */
export interface PartialGuild {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  readonly banner: string | null;
  readonly owner: boolean;
  /** The user's permissions in the guild, a decimal bit set. */
  readonly permissions: string;
  readonly features: readonly string[];
  /** Only with `with_counts=true`. */
  readonly approximate_member_count?: number;
  readonly approximate_presence_count?: number;
}

const bit = (n: number): bigint => 1n << BigInt(n);

/** Every permission bit up to BYPASS_SLOWMODE (1 << 52): what the owner holds. */
export const OWNER_PERMISSIONS = bit(53) - 1n;

/**
 * What a member who is not the owner holds **(ours: the emulator has no roles; this is a new
 * guild's usual @everyone set)**: CREATE_INSTANT_INVITE, ADD_REACTIONS, STREAM, VIEW_CHANNEL,
 * SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, USE_EXTERNAL_EMOJIS, CONNECT,
 * SPEAK, USE_VAD, CHANGE_NICKNAME, USE_APPLICATION_COMMANDS, CREATE_PUBLIC_THREADS,
 * SEND_MESSAGES_IN_THREADS, USE_EMBEDDED_ACTIVITIES, SET_VOICE_CHANNEL_STATUS, USE_EXTERNAL_APPS
 * (on by default). Not MANAGE_CHANNELS: a member cannot link a channel to a lobby, nor set the
 * status of a voice channel they are not connected to.
 */
export const MEMBER_PERMISSIONS = [0, 6, 9, 10, 11, 14, 15, 16, 18, 20, 21, 25, 26, 31, 35, 38, 39, 48, 50].reduce((all, n) => all | bit(n), 0n);

/** The user's permissions in the guild (the emulator has no roles: the owner's or a member's set). */
export function guildPermissions(guild: GuildRecord, userId: string): bigint {
  return guild.owner_id === userId ? OWNER_PERMISSIONS : MEMBER_PERMISSIONS;
}

const SNOWFLAKE = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/, 'Value is not snowflake.'));

/** The route's query: `before`, `after` (guild ids), `limit` 1-200 (default 200), `with_counts`. */
export const GuildListQuery = v.object({
  before: v.optional(SNOWFLAKE),
  after: v.optional(SNOWFLAKE),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,3}$/, 'Value is not int.'), v.transform(Number), v.minValue(1, 'int value should be greater than or equal to 1.'), v.maxValue(200, 'int value should be less than or equal to 200.')), '200'),
  with_counts: v.optional(v.pipe(v.picklist(['true', 'false', 'True', 'False', '1', '0'], 'Value is not bool.'), v.transform((value) => value === 'true' || value === 'True' || value === '1'))),
});
export type GuildListQuery = v.InferOutput<typeof GuildListQuery>;

export interface UserGuildsInput {
  readonly userId: string;
  readonly guilds: readonly GuildRecord[];
  readonly query: GuildListQuery;
  /** Whether a member is online (for `approximate_presence_count`). */
  readonly online: (userId: string) => boolean;
}

/** The user's guilds in id order, paged by `before` / `after` / `limit`, as partial guilds. */
export function userGuilds(input: UserGuildsInput): PartialGuild[] {
  const { query, userId } = input;
  const sorted = [...input.guilds].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const paged = sorted.filter((guild) => (query.after === undefined || BigInt(guild.id) > BigInt(query.after)) && (query.before === undefined || BigInt(guild.id) < BigInt(query.before)));
  // With only `before`, the page is the newest guilds before it (as the real API pages).
  const page = query.before !== undefined && query.after === undefined ? paged.slice(-query.limit) : paged.slice(0, query.limit);
  return page.map((guild) => ({
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner ?? null,
    owner: guild.owner_id === userId,
    permissions: (guild.owner_id === userId ? OWNER_PERMISSIONS : MEMBER_PERMISSIONS).toString(),
    features: [],
    ...(query.with_counts === true
      ? { approximate_member_count: guild.members.length, approximate_presence_count: guild.members.filter((member) => input.online(member.user_id)).length }
      : {}),
  }));
}
