import { RelationshipType, type RelationshipHandle } from './relationship-handles.js';
import { StatusType, type UserHandle } from './user-handle.js';
import type { PlatformDispatch } from './wire/gateway.js';

/** discordpp::RelationshipGroupType: the unified friends list's groups. */
export const RelationshipGroupType = { OnlinePlayingGame: 0, OnlineElsewhere: 1, Offline: 2 } as const;
export type RelationshipGroupType = (typeof RelationshipGroupType)[keyof typeof RelationshipGroupType];

/** Client::RelationshipGroupsUpdatedCallback and Client::UserUpdatedCallback: whose entry changed. */
export type UserChangedCallback = (userId: string) => void;

/** What the groups read: the relationship cache and the users' live handles. */
export interface GroupSource {
  relationships(): readonly RelationshipHandle[];
  user(userId: string): UserHandle | undefined;
}

const ONLINE: ReadonlySet<StatusType> = new Set([StatusType.Online, StatusType.Idle, StatusType.Dnd, StatusType.Streaming]);

/** Online for the friends list: online, idle, do not disturb (or streaming). */
export function isOnlineStatus(status: StatusType): boolean {
  return ONLINE.has(status);
}

function isFriend(handle: RelationshipHandle): boolean {
  return handle.discordRelationshipType === RelationshipType.Friend || handle.gameRelationshipType === RelationshipType.Friend;
}

/** The group a friend is in now: online (online, idle, dnd) with an activity of this game, online otherwise, or offline. */
export function groupOf(user: UserHandle | undefined): RelationshipGroupType {
  if (user === undefined || !ONLINE.has(user.status())) return RelationshipGroupType.Offline;
  return user.gameActivity() === undefined ? RelationshipGroupType.OnlineElsewhere : RelationshipGroupType.OnlinePlayingGame;
}

/**
 * The Social SDK's unified friends list over the SDK's caches: the player's friends (a
 * platform-wide friend or a game friend; requests and blocks are in no group) by group, and a
 * search over their names. Both are read from the caches: nothing is asked of the platform.
 */
export class RelationshipGroups {
  constructor(private readonly source: GroupSource) {}

  /**
   * Client::GetRelationshipsByGroup. Sorted by display name (case-insensitive); in
   * OnlineElsewhere game friends come first (they play this game) **(ours: the SDK puts players
   * who played the game before first, which the emulator does not record)**.
   */
  byGroup(group: RelationshipGroupType): RelationshipHandle[] {
    if (!Object.values(RelationshipGroupType).includes(group)) throw new RangeError('group must be a RelationshipGroupType (0, 1 or 2)');
    const members = this.source.relationships().filter((handle) => isFriend(handle) && groupOf(this.source.user(handle.id)) === group);
    const name = (handle: RelationshipHandle): string => (this.source.user(handle.id)?.displayName ?? handle.displayName).toLowerCase();
    const gameFirst = (handle: RelationshipHandle): number => (group === RelationshipGroupType.OnlineElsewhere && handle.gameRelationshipType === RelationshipType.Friend ? 0 : 1);
    return members.sort((a, b) => gameFirst(a) - gameFirst(b) || name(a).localeCompare(name(b)) || a.id.localeCompare(b.id));
  }

  /**
   * Client::SearchFriendsByUsername: the friends whose username or display name matches
   * `searchStr` (case-insensitive), closest first. A name matches when it contains the search
   * string, or is within a Levenshtein distance of a quarter of the search's length (at least 1)
   * of it or of its start **(ours: the SDK's threshold is not published)**. An empty search lists
   * every friend.
   */
  search(searchStr: string): UserHandle[] {
    if (typeof searchStr !== 'string') throw new TypeError('searchStr must be a string');
    const needle = searchStr.trim().toLowerCase();
    const allowed = Math.max(1, Math.floor(needle.length / 4));
    const found: { user: UserHandle; score: number }[] = [];
    for (const handle of this.source.relationships()) {
      const user = isFriend(handle) ? this.source.user(handle.id) : undefined;
      if (user === undefined) continue;
      const score = Math.min(matchScore(needle, user.username), matchScore(needle, user.displayName));
      if (score <= allowed) found.push({ user, score });
    }
    return found.sort((a, b) => a.score - b.score || a.user.displayName.localeCompare(b.user.displayName)).map((entry) => entry.user);
  }
}

/** 0 when `name` contains `needle`, else the Levenshtein distance to the name or to its start of the needle's length. */
function matchScore(needle: string, name: string): number {
  const candidate = name.toLowerCase();
  if (needle === '' || candidate.includes(needle)) return 0;
  return Math.min(levenshtein(needle, candidate), levenshtein(needle, candidate.slice(0, needle.length)));
}

export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The users a dispatch of the game's session may change (their account fields, presence or relationship). */
function usersOf(event: PlatformDispatch): string[] {
  switch (event.t) {
    case 'USER_UPDATE':
      return [event.d.id];
    case 'PRESENCE_UPDATE':
      return event.d.guild_id === undefined ? [event.d.user.id] : [];
    case 'RELATIONSHIP_ADD':
    case 'RELATIONSHIP_REMOVE':
    case 'GAME_RELATIONSHIP_ADD':
    case 'GAME_RELATIONSHIP_REMOVE':
      return [event.d.id];
    default:
      return [];
  }
}

/** What a game shows of a user: compared before and after a dispatch. */
function snapshot(user: UserHandle | undefined): string {
  if (user === undefined) return '';
  return JSON.stringify([user.username, user.globalName, user.avatar, user.isProvisional, user.status(), user.gameActivity() ?? null]);
}

/**
 * Client::SetUserUpdatedCallback and Client::SetRelationshipGroupsUpdatedCallback: each
 * dispatch of the game's session is looked at before and after the caches take it (`before`,
 * then `after`). A user the session knows whose name, avatar, status or game activity changed
 * is told to `userUpdated`; a friend whose entry in the friends list changed (those, their
 * group, or becoming or ending a friend) to `groupsUpdated`.
 */
export class SocialChangeWatch {
  userUpdated: UserChangedCallback | undefined;
  groupsUpdated: UserChangedCallback | undefined;

  constructor(
    private readonly source: GroupSource,
    private readonly onError: (callback: string, error: unknown) => void,
  ) {}

  /** Before the caches take `event`: what its users look like now. */
  before(event: PlatformDispatch): ReadonlyMap<string, readonly [string, string]> {
    return new Map(usersOf(event).map((id) => [id, this.entry(id)]));
  }

  /** After: calls back for each user whose entry changed. */
  after(before: ReadonlyMap<string, readonly [string, string]>): void {
    for (const [id, [user, friend]] of before) {
      const [userNow, friendNow] = this.entry(id);
      if (userNow !== user && userNow !== '') this.call('userUpdated', this.userUpdated, id);
      if (friendNow !== friend) this.call('relationshipGroupsUpdated', this.groupsUpdated, id);
    }
  }

  private entry(id: string): readonly [string, string] {
    const user = this.source.user(id);
    const handle = this.source.relationships().find((relationship) => relationship.id === id);
    const friend = handle !== undefined && isFriend(handle) ? `${groupOf(user)}|${snapshot(user)}` : '';
    return [snapshot(user), friend];
  }

  private call(name: string, callback: UserChangedCallback | undefined, id: string): void {
    try {
      callback?.(id);
    } catch (error) {
      this.onError(name, error);
    }
  }
}
