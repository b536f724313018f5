import type { RelationshipAction } from '../../../../preload/src/contract.js';
import { RelationshipType, type PlatformUser } from '../../../../platform/src/wire/index.js';
import type { RelationshipBook, RelationshipKind } from './relationship-book.js';
import { RelationshipRefused, relationshipFailure } from './relationship-error.js';

/** The platform calls relationship changes make (the host's HTTP client fits it, with the player's user token). */
export interface RelationshipPlatform {
  putRelationship(userId: string, body?: { readonly type?: 2 }): Promise<void>;
  deleteRelationship(userId: string): Promise<void>;
  sendFriendRequest(username: string): Promise<void>;
}

export interface RelationshipActionsOptions {
  /** null while signed out. */
  readonly platform: () => RelationshipPlatform | null;
  readonly me: () => PlatformUser | null;
  /** Friend requests and blocks, as the host's session knows them. */
  readonly book: Pick<RelationshipBook, 'get' | 'list'>;
  /** The player's friends. */
  readonly friends: () => readonly PlatformUser[];
}

/** Which relationship each action changes (the platform's one DELETE ends any of them, so the host checks first). */
const NEEDS: Readonly<Record<Exclude<RelationshipAction, 'remove' | 'block'>, RelationshipKind>> = {
  accept: 'incoming',
  ignore: 'incoming',
  cancel: 'outgoing',
  unblock: 'blocked',
};

const MISSING: Readonly<Record<keyof typeof NEEDS | 'remove', (name: string) => string>> = {
  accept: (name) => `No friend request from ${name}`,
  ignore: (name) => `No friend request from ${name}`,
  cancel: (name) => `No friend request to ${name} is waiting`,
  unblock: (name) => `${name} is not blocked`,
  remove: (name) => `${name} is not your friend`,
};

/**
 * The player's own changes to their relationships, on the platform with the player's user
 * token: accept or ignore a friend request, cancel one, remove a friend, block, unblock, and a
 * friend request by username. Each is checked against what the host knows first (DELETE would
 * end whatever relationship there is: "cancel" must never unfriend), and every refusal names
 * the problem. The outcome reaches the host as RELATIONSHIP_ADD / RELATIONSHIP_REMOVE.
 */
export class RelationshipActions {
  constructor(private readonly options: RelationshipActionsOptions) {}

  async change(userId: string, action: RelationshipAction): Promise<void> {
    const name = this.nameOf(userId);
    this.check(userId, action, name);
    const platform = this.requirePlatform();
    try {
      if (action === 'accept') await platform.putRelationship(userId);
      else if (action === 'block') await platform.putRelationship(userId, { type: RelationshipType.Blocked });
      else await platform.deleteRelationship(userId);
    } catch (error) {
      throw relationshipFailure(error, name);
    }
  }

  /** `accepted`: that user had asked first, so this accepted their request (friends now). */
  async sendFriendRequest(input: string): Promise<{ accepted: boolean }> {
    const username = input.trim().replace(/^@/, '');
    const wanted = username.toLowerCase();
    const named = (user: PlatformUser): boolean => user.username.toLowerCase() === wanted;
    const me = this.options.me();
    if (me !== null && named(me)) throw new RelationshipRefused(400, 'That is your own username: you cannot send yourself a friend request');
    const friend = this.options.friends().find(named);
    if (friend !== undefined) throw new RelationshipRefused(409, `${friend.username} is already your friend`);
    const entry = this.options.book.list().find((candidate) => named(candidate.user));
    if (entry?.kind === 'blocked') throw new RelationshipRefused(409, `You blocked ${entry.user.username}: unblock them first to send a friend request`);
    const platform = this.requirePlatform();
    try {
      await platform.sendFriendRequest(username);
    } catch (error) {
      throw relationshipFailure(error, username);
    }
    return { accepted: entry?.kind === 'incoming' };
  }

  private check(userId: string, action: RelationshipAction, name: string): void {
    if (userId === this.options.me()?.id) throw new RelationshipRefused(400, 'That is you: you have no relationship with yourself');
    if (action === 'block') return;
    if (action === 'remove') {
      if (!this.options.friends().some((friend) => friend.id === userId)) throw new RelationshipRefused(404, MISSING.remove(name));
      return;
    }
    if (this.options.book.get(userId)?.kind !== NEEDS[action]) throw new RelationshipRefused(404, MISSING[action](name));
  }

  /** How the player knows that user: their username, else their id. */
  private nameOf(userId: string): string {
    const user = this.options.book.get(userId)?.user ?? this.options.friends().find((friend) => friend.id === userId);
    return user?.username ?? `user ${userId}`;
  }

  private requirePlatform(): RelationshipPlatform {
    const platform = this.options.platform();
    if (platform === null) throw new RelationshipRefused(503, 'Not signed in to the platform');
    return platform;
  }
}
