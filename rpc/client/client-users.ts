import type { PlatformStatus } from './platform-gateway.js';
import { StatusType, UserHandle, type GameActivity, type UserSource, type WireUser } from './user-handle.js';
import type { PlatformDispatch, WireReady } from './wire/gateway.js';
import type { WirePresence, WireRelationshipEvent } from './wire/objects.js';

const RELATIONSHIP_BLOCKED = 2;
/** Users met outside relationships kept for getUser (the newest). */
const MET_KEPT = 5000;

const STATUS_NAMES: Readonly<Record<string, StatusType>> = {
  online: StatusType.Online,
  idle: StatusType.Idle,
  dnd: StatusType.Dnd,
  invisible: StatusType.Invisible,
  offline: StatusType.Offline,
};

interface Presence {
  readonly status: StatusType;
  readonly activities: readonly GameActivity[];
}

function presenceOf(presence: WirePresence): Presence {
  const named = presence.status !== undefined && Object.hasOwn(STATUS_NAMES, presence.status);
  const status = named ? (STATUS_NAMES[presence.status as string] ?? StatusType.Unknown) : StatusType.Unknown;
  return { status, activities: presence.activities ?? [] };
}

export interface ClientUsersOptions {
  /** The game's application id: its activity is the one gameActivity() answers. */
  readonly applicationId: () => string | undefined;
  readonly cdnBase: () => string;
  /**
   * A user the SDK's relationship cache holds a relationship of either kind with (a game friend
   * or a game request included, which READY and RELATIONSHIP_ADD do not carry), else undefined.
   */
  readonly related?: (userId: string) => WireUser | undefined;
  /** The status the game set for the player (setOnlineStatus), shown as theirs while the session is up. */
  readonly ownStatus?: () => StatusType | undefined;
}

/**
 * The users the game's own gateway session tells of, for getCurrentUserV2 and getUser: the
 * player (READY's user, then USER_UPDATE), the player's relationships (READY, RELATIONSHIP_ADD
 * and RELATIONSHIP_REMOVE, and the game relationships the relationship cache holds: game friends
 * and game requests) and their presences (READY's presences, PRESENCE_UPDATE). A READY starts
 * over; the session ending (disconnected, not a reconnect) forgets everything.
 */
export class ClientUsers implements UserSource {
  private me: WireUser | undefined;
  private readonly users = new Map<string, WireUser>();
  /** Users the game met outside relationships (lobby members, message authors, invite senders), the newest MET_KEPT. */
  private readonly met = new Map<string, WireUser>();
  private readonly relationshipTypes = new Map<string, number>();
  private readonly presences = new Map<string, Presence>();
  private sessionUp = false;

  constructor(private readonly options: ClientUsersOptions) {}

  /** Client::GetCurrentUserV2: the player, once the session's READY came. */
  current(): UserHandle | undefined {
    return this.me === undefined ? undefined : new UserHandle(this.me.id, this, this.me);
  }

  /** Client::GetUser: the player, one of the player's relationships or a user the game met (a lobby member, a message's author, an invite's sender), else undefined. */
  get(userId: string): UserHandle | undefined {
    const user = this.user(userId);
    return user === undefined ? undefined : new UserHandle(userId, this, user);
  }

  user(id: string): WireUser | undefined {
    if (this.me === undefined) return undefined;
    return this.me.id === id ? this.me : (this.users.get(id) ?? this.met.get(id) ?? this.options.related?.(id));
  }

  /**
   * A user object the platform sent with something the game was told of (a lobby member, a
   * message's author): kept for getUser, and the newest fields win (a handle taken before shows
   * them). The player's own and their relationships' entries are brought up to date too.
   */
  readonly meet = (user: WireUser | undefined): void => {
    if (user === undefined || user.id === '') return;
    if (this.me?.id === user.id) {
      this.me = { ...this.me, ...user };
      return;
    }
    const known = this.users.get(user.id);
    if (known !== undefined) this.users.set(user.id, { ...known, ...user });
    this.met.delete(user.id);
    this.met.set(user.id, { ...this.options.related?.(user.id), ...user });
    if (this.met.size > MET_KEPT) this.met.delete(this.met.keys().next().value as string);
  };

  status(id: string): StatusType {
    if (this.relationshipTypes.get(id) === RELATIONSHIP_BLOCKED) return StatusType.Blocked;
    const presence = this.presences.get(id);
    if (presence !== undefined) return presence.status;
    // The player's own presence is never sent to them: online while this session is.
    if (id === this.me?.id) return this.sessionUp ? (this.options.ownStatus?.() ?? StatusType.Online) : StatusType.Offline;
    return StatusType.Offline;
  }

  gameActivity(id: string): GameActivity | undefined {
    const applicationId = this.options.applicationId();
    if (applicationId === undefined) return undefined;
    return this.presences.get(id)?.activities.find((activity) => activity.application_id === applicationId);
  }

  cdnBase(): string {
    return this.options.cdnBase();
  }

  /** The game's session's status: a session that ended (not one reconnecting) forgets everything. */
  sessionStatus(status: PlatformStatus): void {
    this.sessionUp = status === 'ready';
    if (status === 'disconnected') this.reset();
  }

  /** A dispatch of the game's own gateway connection (checked). */
  dispatch(event: PlatformDispatch): void {
    switch (event.t) {
      case 'READY':
        return this.ready(event.d);
      case 'USER_UPDATE':
        if (this.me !== undefined && event.d.id === this.me.id) this.me = { ...this.me, ...event.d };
        return;
      case 'RELATIONSHIP_ADD':
        return this.relationship(event.d);
      case 'RELATIONSHIP_REMOVE':
        return this.forget(event.d.id);
      case 'PRESENCE_UPDATE':
        if (event.d.guild_id === undefined) this.presences.set(event.d.user.id, presenceOf(event.d));
        return;
      default:
        return;
    }
  }

  private ready(ready: WireReady): void {
    this.reset(false);
    // READY is the session up (the status `ready` follows once the relationships are loaded).
    this.sessionUp = true;
    this.me = ready.user;
    for (const relationship of ready.relationships ?? []) this.relationship(relationship);
    for (const presence of ready.presences ?? []) this.presences.set(presence.user.id, presenceOf(presence));
  }

  private relationship(relationship: WireRelationshipEvent): void {
    const { user } = relationship;
    if (user === undefined) return;
    this.users.set(user.id, user);
    this.relationshipTypes.set(user.id, relationship.type);
  }

  private forget(userId: string): void {
    this.users.delete(userId);
    this.relationshipTypes.delete(userId);
    this.presences.delete(userId);
  }

  /** Forgets the session's state; `all` (the session ended) the users met too, else they stay for the next READY. */
  private reset(all = true): void {
    if (all) this.met.clear();
    this.me = undefined;
    this.users.clear();
    this.relationshipTypes.clear();
    this.presences.clear();
  }
}
