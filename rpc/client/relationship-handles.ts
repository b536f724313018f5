import type { WireRelationship } from './relationship-api.js';
import type { WireUser } from './user-handle.js';
import type { PlatformDispatch } from './wire/gateway.js';

/** discordpp::RelationshipType, numbered as the platform numbers relationship types. */
export const RelationshipType = { None: 0, Friend: 1, Blocked: 2, PendingIncoming: 3, PendingOutgoing: 4, Implicit: 5, Suggestion: 6 } as const;
export type RelationshipType = (typeof RelationshipType)[keyof typeof RelationshipType];

/**
 * The Social SDK's RelationshipHandle: what another user is to the player, platform-wide
 * (`discordRelationshipType`: friends, requests, blocks) and in this game
 * (`gameRelationshipType`: game friends and game requests; never Blocked, a block is always
 * platform-wide). A snapshot of the SDK's cache when it was taken: getRelationshipHandle
 * answers the current one.
 */
export interface RelationshipHandle {
  readonly id: string;
  /** The platform-wide type again (RelationshipKind), kept for callers written before game relationships. */
  readonly type: number;
  readonly discordRelationshipType: RelationshipType;
  readonly gameRelationshipType: RelationshipType;
  /** RelationshipHandle::IsSpamRequest: always false **(ours: the emulator has no spam filter)**. */
  readonly isSpamRequest: boolean;
  readonly username: string;
  /** The global name, else the username ('' for a user the SDK was not told of). */
  readonly displayName: string;
  /** RelationshipHandle::User: the user as the platform sent it. */
  readonly user: WireUser;
}

interface Entry {
  discord: number;
  game: number;
  user: WireUser;
}

/** What a gateway dispatch changed: whose relationship, which kind, created or deleted. */
export interface RelationshipChange {
  readonly userId: string;
  readonly isDiscordRelationshipUpdate: boolean;
  readonly created: boolean;
  /** The new type (created) or the one that ended (deleted), as the player sees it. */
  readonly type: number;
}

const EVENTS: Readonly<Record<string, { readonly discord: boolean; readonly created: boolean }>> = {
  RELATIONSHIP_ADD: { discord: true, created: true },
  RELATIONSHIP_REMOVE: { discord: true, created: false },
  GAME_RELATIONSHIP_ADD: { discord: false, created: true },
  GAME_RELATIONSHIP_REMOVE: { discord: false, created: false },
};

function knownType(type: number): RelationshipType {
  return (Object.values(RelationshipType) as number[]).includes(type) ? (type as RelationshipType) : RelationshipType.None;
}

/**
 * The SDK's relationship cache: filled by each list the platform answers, kept current by the
 * game's own gateway session (RELATIONSHIP_ADD / _REMOVE, GAME_RELATIONSHIP_ADD / _REMOVE). A
 * list answered while events came in does not undo them: users an event touched after the
 * list was asked for keep what the event said.
 */
export class RelationshipBook {
  private readonly entries = new Map<string, Entry>();
  /** The number of the last event that touched each user. */
  private readonly touched = new Map<string, number>();
  private events = 0;

  /** Where the event count stands: give it back to `replace` with the list asked for now. */
  mark(): number {
    return this.events;
  }

  /** The users an event touched after `mark` (what they are now, an event said). */
  touchedSince(mark: number): Set<string> {
    return new Set([...this.touched].filter(([, at]) => at > mark).map(([id]) => id));
  }

  /** The platform's list, asked for at `mark`: every user no event touched since gets what it says. */
  replace(mark: number, list: readonly WireRelationship[]): void {
    const fresh = new Map(list.map((entry) => [entry.id, entry]));
    const untouched = (id: string): boolean => (this.touched.get(id) ?? -1) <= mark;
    for (const id of [...this.entries.keys()]) if (!fresh.has(id) && untouched(id)) this.entries.delete(id);
    for (const [id, entry] of fresh) if (untouched(id)) this.entries.set(id, { discord: entry.type, game: entry.gameType, user: entry.user });
  }

  /** A dispatch of the game's own session (checked); what it changed, or undefined for other dispatches. */
  apply(event: PlatformDispatch): RelationshipChange | undefined {
    if (event.t !== 'RELATIONSHIP_ADD' && event.t !== 'RELATIONSHIP_REMOVE' && event.t !== 'GAME_RELATIONSHIP_ADD' && event.t !== 'GAME_RELATIONSHIP_REMOVE') return undefined;
    const kind = EVENTS[event.t] as { readonly discord: boolean; readonly created: boolean };
    const { id, user } = event.d;
    const type = event.d.type ?? RelationshipType.None;
    this.events += 1;
    this.touched.set(id, this.events);
    const entry = this.entries.get(id) ?? { discord: RelationshipType.None, game: RelationshipType.None, user: { id, username: '' } };
    if (user !== undefined) entry.user = user;
    const value = kind.created ? type : RelationshipType.None;
    if (kind.discord) entry.discord = value;
    else entry.game = value;
    this.entries.set(id, entry);
    return { userId: id, isDiscordRelationshipUpdate: kind.discord, created: kind.created, type };
  }

  /** The user's handle; both types None when there is no relationship (a user never seen has no name). */
  handle(userId: string): RelationshipHandle {
    return toHandle(userId, this.entries.get(userId));
  }

  /** Every user with a relationship of either kind. */
  all(): RelationshipHandle[] {
    return [...this.entries].filter(([, entry]) => entry.discord !== RelationshipType.None || entry.game !== RelationshipType.None).map(([id, entry]) => toHandle(id, entry));
  }
}

function toHandle(id: string, entry: Entry | undefined): RelationshipHandle {
  const user = entry?.user ?? { id, username: '' };
  const discord = knownType(entry?.discord ?? RelationshipType.None);
  return {
    id,
    type: discord,
    discordRelationshipType: discord,
    gameRelationshipType: knownType(entry?.game ?? RelationshipType.None),
    isSpamRequest: false,
    username: user.username,
    displayName: typeof user.global_name === 'string' && user.global_name.length > 0 ? user.global_name : user.username,
    user,
  };
}
