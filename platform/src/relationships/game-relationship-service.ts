import { toPlatformUser, type Store } from '../state/store.js';
import { GameRelationshipEvent, RelationshipType, type GameAwareRelationship, type GameRelationshipAddEvent, type GameRelationshipRemoveEvent } from '../wire/index.js';
import { RelationshipError, type RelationshipView } from './relationship-service.js';

/** Reaches only the sessions of one application's game tokens (SessionRegistry). */
export interface GameDispatcher {
  dispatchToApp(userId: string, applicationId: string, t: string, d: unknown): void;
}

/** No relationship of that kind (the Social SDK's RelationshipType::None). */
const NONE = 0;

/**
 * Game relationships **(ours: the platform's own rules are not public; these follow the
 * Social SDK's description)**: friendships and friend requests within one application, beside
 * the platform-wide ones and independent of them (no friend limit). A request to someone who
 * asked you first accepts theirs; a block either way refuses requests (and the block itself
 * ends every game relationship between the two, in every application: `removeAllBetween`).
 * GAME_RELATIONSHIP_ADD / GAME_RELATIONSHIP_REMOVE tell both sides, each with the type as they
 * see it, and reach only the sessions of that application's game tokens.
 */
export class GameRelationshipService {
  constructor(
    private readonly store: Store,
    private readonly dispatcher: GameDispatcher,
  ) {}

  /** What `other` is to `userId` in the application: 0 none, 1 friend, 3 an incoming request, 4 an outgoing one. */
  typeOf(appId: string, userId: string, other: string): number {
    const records = this.store.gameRelationships;
    if (records.areFriends(appId, userId, other)) return RelationshipType.Friend;
    if (records.hasRequest(appId, other, userId)) return RelationshipType.IncomingRequest;
    if (records.hasRequest(appId, userId, other)) return RelationshipType.OutgoingRequest;
    return NONE;
  }

  /**
   * The platform-wide relationships with each one's game relationship in the application, then
   * the users who are only game relations (`type` 0): each other user once.
   */
  merge(appId: string, userId: string, discord: readonly RelationshipView[]): GameAwareRelationship[] {
    const seen = new Set(discord.map((entry) => entry.id));
    const others = new Set<string>();
    for (const [app, a, b] of [...this.store.gameRelationships.friendships(), ...this.store.gameRelationships.requests()]) {
      if (app !== appId) continue;
      const other = a === userId ? b : b === userId ? a : undefined;
      if (other !== undefined && !seen.has(other)) others.add(other);
    }
    const gameOnly = [...others].flatMap((id): GameAwareRelationship[] => {
      const user = this.store.user(id);
      return user === undefined ? [] : [{ id, type: NONE, game_relationship_type: this.typeOf(appId, userId, id), user: toPlatformUser(user) }];
    });
    return [...discord.map((entry) => ({ ...entry, game_relationship_type: this.typeOf(appId, userId, entry.id) })), ...gameOnly];
  }

  /** Sends a game friend request, or accepts theirs; nothing when they are game friends or it is pending already. */
  request(appId: string, from: string, to: string): void {
    this.known(from, to);
    if (this.store.hasBlocked(to, from) || this.store.hasBlocked(from, to)) throw new RelationshipError('blocked', 'A block stands between these users');
    const records = this.store.gameRelationships;
    if (records.areFriends(appId, from, to)) return;
    if (records.removeRequest(appId, to, from)) {
      records.addFriendship(appId, from, to);
      this.tell(appId, from, to, RelationshipType.Friend);
      this.tell(appId, to, from, RelationshipType.Friend);
      return;
    }
    if (!records.addRequest(appId, from, to)) return;
    this.tell(appId, from, to, RelationshipType.OutgoingRequest);
    this.tell(appId, to, from, RelationshipType.IncomingRequest);
  }

  /** Ends the game friendship, cancels or rejects a game request: whatever stands between them in the application. */
  remove(appId: string, userId: string, other: string): void {
    this.known(userId, other);
    this.end(appId, userId, other);
  }

  /** A block: every game relationship between the two ends, in every application. */
  removeAllBetween(a: string, b: string): void {
    for (const appId of this.store.gameRelationships.applicationsBetween(a, b)) this.end(appId, a, b);
  }

  private end(appId: string, a: string, b: string): void {
    const records = this.store.gameRelationships;
    if (records.removeFriendship(appId, a, b)) {
      this.untell(appId, a, b, RelationshipType.Friend);
      this.untell(appId, b, a, RelationshipType.Friend);
    }
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      if (!records.removeRequest(appId, from, to)) continue;
      this.untell(appId, from, to, RelationshipType.OutgoingRequest);
      this.untell(appId, to, from, RelationshipType.IncomingRequest);
    }
  }

  private known(a: string, b: string): void {
    if (a === b) throw new RelationshipError('self', 'A user has no relationship with themselves');
    if (this.store.user(a) === undefined || this.store.user(b) === undefined) throw new RelationshipError('unknown_user', 'Unknown User');
  }

  private tell(appId: string, to: string, about: string, type: number): void {
    const user = this.store.user(about);
    if (user === undefined) return;
    const data: GameRelationshipAddEvent = { id: about, type, user: toPlatformUser(user), application_id: appId };
    this.dispatcher.dispatchToApp(to, appId, GameRelationshipEvent.Add, data);
  }

  private untell(appId: string, to: string, about: string, type: number): void {
    const data: GameRelationshipRemoveEvent = { id: about, type, application_id: appId };
    this.dispatcher.dispatchToApp(to, appId, GameRelationshipEvent.Remove, data);
  }
}
