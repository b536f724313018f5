import { randomBytes } from 'node:crypto';

/**
 * The data of the events QA injects most, in the shapes the host itself sends (see
 * social-service.ts and guild-shapes.ts), so a game sees what it would see for real.
 */

/** A user as the platform describes one (a friend, the account). */
export interface UserLike {
  readonly id: string;
  readonly username: string;
  readonly discriminator?: string;
  readonly global_name?: string | null;
  readonly avatar?: string | null;
  readonly bot?: boolean;
  readonly flags?: number;
  readonly premium_type?: number;
}

/** A snowflake-looking id for made-up channels and messages (they exist on no platform). */
export function fakeSnowflake(now: number = Date.now()): string {
  const ms = BigInt(Math.max(0, now - 1_420_070_400_000));
  const low = BigInt(randomBytes(3).readUIntBE(0, 3) & 0x3fffff);
  return ((ms << 22n) | low).toString();
}

/** The user object of ACTIVITY_JOIN_REQUEST and ACTIVITY_INVITE. */
export function rpcEventUser(user: UserLike): { id: string; username: string; discriminator: string; avatar: string | null } {
  return { id: user.id, username: user.username, discriminator: user.discriminator ?? '0', avatar: user.avatar ?? null };
}

/** The full user object of READY and CURRENT_USER_UPDATE. */
export function rpcFullUser(user: UserLike): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator ?? '0',
    global_name: user.global_name ?? null,
    avatar: user.avatar ?? null,
    avatar_decoration_data: null,
    bot: user.bot ?? false,
    flags: user.flags ?? 0,
    premium_type: user.premium_type ?? 0,
  };
}

export function activityJoin(secret: string): { secret: string } {
  return { secret };
}

export function activityJoinRequest(user: UserLike, ids: { channel_id?: string; message_id?: string } = {}): Record<string, unknown> {
  return { user: rpcEventUser(user), type: 5, channel_id: ids.channel_id ?? fakeSnowflake(), message_id: ids.message_id ?? fakeSnowflake() };
}

export function activityInvite(user: UserLike, activity: unknown, ids: { channel_id?: string; message_id?: string } = {}): Record<string, unknown> {
  return { type: 1, user: rpcEventUser(user), activity, channel_id: ids.channel_id ?? fakeSnowflake(), message_id: ids.message_id ?? fakeSnowflake() };
}

/** An invite's activity when the sender has none to show: a party of `applicationId`. */
export function inviteActivity(applicationId: string, name: string, partyId: string): Record<string, unknown> {
  return { name, type: 0, application_id: applicationId, party: { id: partyId, size: [1, 4] } };
}

/**
 * The activity of an injected ACTIVITY_INVITE from a friend to `game`: what the friend is
 * playing of that application when no party is asked for, else a party of the game (`partyId`,
 * or a made-up one).
 */
export function invitingActivity(
  friendActivities: readonly { readonly application_id?: unknown }[] | undefined,
  game: { readonly client_id: string; readonly application_name: string },
  partyId: string | undefined,
): unknown {
  const playing = friendActivities?.find((activity) => activity.application_id === game.client_id);
  return playing !== undefined && partyId === undefined ? playing : inviteActivity(game.client_id, game.application_name, partyId ?? `injected-${fakeSnowflake()}`);
}

export function guildStatus(guild: { id: string; name: string; icon_url?: string | null }, online = 0): Record<string, unknown> {
  return { guild: { id: guild.id, name: guild.name, icon_url: guild.icon_url ?? null }, online };
}
