import { GatewayEvent, type PlatformUser } from '../../../../platform/src/wire/index.js';

/** The most users kept; past it the one seen longest ago goes. */
export const KNOWN_USERS_MAX = 10_000;

function asUser(value: unknown): PlatformUser | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const user = value as Partial<PlatformUser>;
  return typeof user.id === 'string' && typeof user.username === 'string' ? (value as PlatformUser) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The users the host's platform session has told of, as the desktop client keeps them for
 * GET_USER: the signed-in user (READY, USER_UPDATE), every relationship's user (READY,
 * RELATIONSHIP_ADD: friends, requests, blocks), DM recipients (READY's private channels,
 * CHANNEL_CREATE) and message authors, and guild members when the session hears of them
 * (GUILD_MEMBERS_CHUNK, GUILD_MEMBER_ADD / UPDATE). The newest data of a user wins; at most
 * KNOWN_USERS_MAX are kept.
 */
export class KnownUsers {
  private readonly users = new Map<string, PlatformUser>();

  get(id: string): PlatformUser | undefined {
    return this.users.get(id);
  }

  get size(): number {
    return this.users.size;
  }

  /** Signed out or another account: what the old one knew goes. */
  clear(): void {
    this.users.clear();
  }

  /** Feeds one gateway dispatch. */
  dispatch(type: string, data: unknown): void {
    for (const user of this.usersIn(type, data)) this.remember(user);
  }

  private usersIn(type: string, data: unknown): unknown[] {
    switch (type) {
      case GatewayEvent.Ready:
        return [
          field(data, 'user'),
          ...list(field(data, 'relationships')).map((relationship) => field(relationship, 'user')),
          ...list(field(data, 'private_channels')).flatMap((channel) => list(field(channel, 'recipients'))),
        ];
      case GatewayEvent.UserUpdate:
        return [data];
      case GatewayEvent.RelationshipAdd:
      case 'GUILD_MEMBER_ADD':
      case 'GUILD_MEMBER_UPDATE':
        return [field(data, 'user')];
      case GatewayEvent.ChannelCreate:
        return list(field(data, 'recipients'));
      case GatewayEvent.MessageCreate:
        return [field(data, 'author')];
      case GatewayEvent.GuildMembersChunk:
        return list(field(data, 'members')).map((member) => field(member, 'user'));
      default:
        return [];
    }
  }

  private remember(value: unknown): void {
    const user = asUser(value);
    if (user === undefined) return;
    const before = this.users.get(user.id);
    this.users.delete(user.id);
    // USER_UPDATE and member updates may carry a part of the user: keep what they do not say.
    this.users.set(user.id, before === undefined ? user : { ...before, ...user });
    if (this.users.size > KNOWN_USERS_MAX) {
      const oldest = this.users.keys().next().value;
      if (oldest !== undefined) this.users.delete(oldest);
    }
  }
}
