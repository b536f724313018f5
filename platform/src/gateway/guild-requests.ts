import type * as v from 'valibot';
import { toPlatformUser } from '../state/store.js';
import { GatewayEvent, type PresenceUpdateEvent, type RateLimitedEvent } from '../wire/index.js';
import type { GatewayContext } from './context.js';
import type { RequestChannelInfoSchema, RequestGuildMembersSchema } from './schemas.js';

const MEMBERS_PER_CHUNK = 1000;
const MAX_FILTERED_MEMBERS = 100;
const MAX_NONCE_BYTES = 32;
const CHANNEL_INFO_FIELDS = ['status', 'voice_start_time'] as const;

export interface GuildMembersChunk {
  readonly guild_id: string;
  readonly members: readonly { readonly user: ReturnType<typeof toPlatformUser>; readonly roles: readonly string[]; readonly joined_at: string }[];
  readonly chunk_index: number;
  readonly chunk_count: number;
  readonly not_found?: readonly string[];
  readonly presences?: readonly PresenceUpdateEvent[];
  readonly nonce?: string;
}

/**
 * Op 8: the dispatches to send, GUILD_MEMBERS_CHUNKs or one RATE_LIMITED. Empty when the user
 * is not in the guild (the request is ignored, as for a guild the client cannot see). **(ours)**
 * `cooldownOwner` is whose all-members cooldown the request counts in (access/caller.ts
 * bucketOwner: the player within the session's game, so no game makes another wait); the user
 * by default.
 */
export function requestGuildMembers(
  ctx: GatewayContext,
  userId: string,
  request: v.InferOutput<typeof RequestGuildMembersSchema>,
  cooldownOwner: string = userId,
): { t: string; d: GuildMembersChunk | RateLimitedEvent }[] {
  const guild = ctx.store.guild(request.guild_id);
  if (guild === undefined || !ctx.store.isMember(guild.id, userId)) return [];
  const nonce = request.nonce !== undefined && Buffer.byteLength(request.nonce) <= MAX_NONCE_BYTES ? request.nonce : undefined;
  const withNonce = nonce === undefined ? {} : { nonce };

  let members = guild.members;
  let notFound: string[] | undefined;
  if (request.user_ids !== undefined) {
    const ids = (typeof request.user_ids === 'string' ? [request.user_ids] : request.user_ids).slice(0, MAX_FILTERED_MEMBERS);
    members = guild.members.filter((member) => ids.includes(member.user_id));
    notFound = ids.filter((id) => !members.some((member) => member.user_id === id));
  } else {
    const query = (request.query ?? '').toLowerCase();
    const limit = request.limit ?? 0;
    if (query === '' && limit === 0) {
      const key = `${cooldownOwner}:${guild.id}`;
      const last = ctx.allMembersRequests.get(key);
      const now = ctx.now();
      if (last !== undefined && now - last < ctx.limits.allMembersCooldownMs) {
        const retryAfter = (last + ctx.limits.allMembersCooldownMs - now) / 1000;
        return [{ t: GatewayEvent.RateLimited, d: { opcode: 8, retry_after: retryAfter, meta: { guild_id: guild.id, ...withNonce } } }];
      }
      ctx.allMembersRequests.set(key, now);
    } else {
      const cap = Math.min(limit === 0 ? MAX_FILTERED_MEMBERS : limit, MAX_FILTERED_MEMBERS);
      members = guild.members
        .filter((member) => {
          const user = ctx.store.user(member.user_id);
          return user !== undefined && (user.username.startsWith(query) || (user.global_name ?? '').toLowerCase().startsWith(query));
        })
        .slice(0, cap);
    }
  }

  const rows = members.flatMap((member) => {
    const user = ctx.store.user(member.user_id);
    return user === undefined ? [] : [{ user: toPlatformUser(user), roles: [] as string[], joined_at: member.joined_at }];
  });
  const chunkCount = Math.max(1, Math.ceil(rows.length / MEMBERS_PER_CHUNK));
  const out: { t: string; d: GuildMembersChunk }[] = [];
  for (let index = 0; index < chunkCount; index += 1) {
    const chunk = rows.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK);
    const presences =
      request.presences === true
        ? chunk.flatMap((row) => {
            const view = ctx.presence.view(row.user.id);
            return view === undefined ? [] : [{ ...view, guild_id: guild.id }];
          })
        : undefined;
    out.push({
      t: GatewayEvent.GuildMembersChunk,
      d: {
        guild_id: guild.id,
        members: chunk,
        chunk_index: index,
        chunk_count: chunkCount,
        ...(notFound !== undefined && index === 0 ? { not_found: notFound } : {}),
        ...(presences !== undefined ? { presences } : {}),
        ...withNonce,
      },
    });
  }
  return out;
}

/** Op 43: CHANNEL_INFO for the guild's voice channels with only the requested fields. */
export function requestChannelInfo(
  ctx: GatewayContext,
  userId: string,
  request: v.InferOutput<typeof RequestChannelInfoSchema>,
): { guild_id: string; channels: Record<string, unknown>[] } | undefined {
  if (!ctx.store.isMember(request.guild_id, userId)) return undefined;
  const fields = CHANNEL_INFO_FIELDS.filter((field) => request.fields.includes(field));
  const channels = ctx.store
    .guildChannels(request.guild_id)
    .filter((channel) => channel.type === 2)
    .map((channel) => {
      const row: Record<string, unknown> = { id: channel.id };
      for (const field of fields) row[field] = channel[field];
      return row;
    });
  return { guild_id: request.guild_id, channels };
}
