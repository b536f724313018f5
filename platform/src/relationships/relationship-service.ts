import type { Dispatcher } from '../gateway/sessions.js';
import { relationshipsOf } from '../state/relationships-of.js';
import { toPlatformUser, type Store } from '../state/store.js';
import { GatewayEvent, RelationshipType, type PlatformUser } from '../wire/index.js';
import type { GameRelationshipService } from './game-relationship-service.js';

/** Why a relationship change was refused; the HTTP layer maps it. */
export class RelationshipError extends Error {
  constructor(
    readonly reason: 'unknown_user' | 'unknown_username' | 'self' | 'blocked' | 'provisional',
    message: string,
  ) {
    super(message);
    this.name = 'RelationshipError';
  }
}

export interface RelationshipView {
  readonly id: string;
  readonly type: number;
  /** For a game's token: the relationship in its application (0 none) **(ours)**. */
  readonly game_relationship_type?: number;
  readonly user: PlatformUser;
}

/** Who makes and ends friendships (the admin: presence and events for both); the service calls it, never the reverse. */
export interface Friendships {
  addFriends(a: string, b: string): void;
  removeFriends(a: string, b: string): void;
}

/**
 * Friend requests and blocks, between the platform's users (the friendships themselves are the
 * admin's: accepting makes friends as it does). A request to someone who asked you first accepts
 * theirs; a block ends a friendship and any request, and stops new requests both ways.
 * RELATIONSHIP_ADD and RELATIONSHIP_REMOVE tell both sides, each with the type as they see it.
 * A block also ends every game relationship between the two (`game`, per application).
 */
export class RelationshipService {
  constructor(
    private readonly store: Store,
    private readonly admin: Friendships,
    private readonly dispatcher: Dispatcher,
    /** Game relationships (per application). */
    readonly game: GameRelationshipService,
  ) {}

  /**
   * Every relationship of the user: friends, blocked, incoming and outgoing requests. With a
   * game's application id (its token's), each other user once with their game relationship
   * there too, also users who are only game relations (`type` 0).
   */
  list(userId: string, applicationId?: string): RelationshipView[] {
    const discord = this.discordList(userId);
    return applicationId === undefined ? discord : this.game.merge(applicationId, userId, discord);
  }

  /** The user named `username` (any case; the platform's unique username, not a display name), for requests by name. */
  userIdByName(username: string): string {
    const user = this.store.userByName(username);
    if (user === undefined) throw new RelationshipError('unknown_username', 'No users with DiscordTag exist');
    return user.id;
  }

  private discordList(userId: string): RelationshipView[] {
    return relationshipsOf(this.store, userId);
  }

  /**
   * Sends a friend request, or accepts theirs; nothing when they are friends already. A
   * provisional account makes no platform-wide friendships, either side: it has game friends
   * (the Discord friends an unmerge gave it it keeps, and may remove).
   */
  request(from: string, to: string): void {
    this.known(from, to);
    if (this.store.user(from)?.provisional === true || this.store.user(to)?.provisional === true) {
      throw new RelationshipError('provisional', 'Invalid user type: a provisional account has game friends only; send a game friend request');
    }
    if (this.store.hasBlocked(to, from) || this.store.hasBlocked(from, to)) throw new RelationshipError('blocked', 'A block stands between these users');
    if (this.store.areFriends(from, to)) return;
    if (this.store.removeFriendRequest(to, from)) {
      this.admin.addFriends(from, to);
      return;
    }
    if (!this.store.addFriendRequest(from, to)) return;
    this.tell(from, to, RelationshipType.OutgoingRequest);
    this.tell(to, from, RelationshipType.IncomingRequest);
  }

  block(by: string, target: string): void {
    this.known(by, target);
    if (this.store.areFriends(by, target)) this.admin.removeFriends(by, target);
    this.withdraw(by, target);
    this.withdraw(target, by);
    this.game.removeAllBetween(by, target);
    if (this.store.setBlocked(by, target, true)) this.tell(by, target, RelationshipType.Blocked);
  }

  /** Unfriends, cancels or rejects a request, or unblocks: whatever stands between them from `userId`'s side. */
  remove(userId: string, other: string): void {
    this.known(userId, other);
    if (this.store.areFriends(userId, other)) this.admin.removeFriends(userId, other);
    this.withdraw(userId, other);
    this.withdraw(other, userId);
    if (this.store.setBlocked(userId, other, false)) this.untell(userId, other, RelationshipType.Blocked);
  }

  private withdraw(from: string, to: string): void {
    if (!this.store.removeFriendRequest(from, to)) return;
    this.untell(from, to, RelationshipType.OutgoingRequest);
    this.untell(to, from, RelationshipType.IncomingRequest);
  }

  private known(a: string, b: string): void {
    if (a === b) throw new RelationshipError('self', 'A user has no relationship with themselves');
    if (this.store.user(a) === undefined || this.store.user(b) === undefined) throw new RelationshipError('unknown_user', 'Unknown User');
  }

  private tell(to: string, about: string, type: number): void {
    const user = this.store.user(about);
    if (user !== undefined) this.dispatcher.dispatchToUser(to, GatewayEvent.RelationshipAdd, { id: about, type, user: toPlatformUser(user) });
  }

  private untell(to: string, about: string, type: number): void {
    this.dispatcher.dispatchToUser(to, GatewayEvent.RelationshipRemove, { id: about, type });
  }
}
