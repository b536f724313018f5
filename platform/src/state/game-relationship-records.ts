import type { StateFile } from './model.js';

/** A game relationship record: [application id, user, user]. */
export type GameTriple = readonly [string, string, string];

/**
 * Game relationships as the state keeps them **(ours: the fields)**: game friendships
 * (`game_friendships`, [application id, a, b], a < b) and pending game friend requests
 * (`game_friend_requests`, [application id, from, to]), each of one application only. Files
 * written before these existed lack both: read as empty. Every change calls `changed`.
 */
export class GameRelationshipRecords {
  constructor(
    private readonly data: Pick<StateFile, 'game_friendships' | 'game_friend_requests'>,
    private readonly changed: () => void,
  ) {}

  friendships(): readonly GameTriple[] {
    return this.data.game_friendships ?? [];
  }

  requests(): readonly GameTriple[] {
    return this.data.game_friend_requests ?? [];
  }

  areFriends(appId: string, a: string, b: string): boolean {
    const [x, y] = sorted(a, b);
    return this.friendships().some(([app, p, q]) => app === appId && p === x && q === y);
  }

  /** The user's game friends in the application. */
  friendsOf(appId: string, userId: string): string[] {
    return this.friendships().flatMap(([app, a, b]) => (app !== appId ? [] : a === userId ? [b] : b === userId ? [a] : []));
  }

  hasRequest(appId: string, from: string, to: string): boolean {
    return this.requests().some(([app, x, y]) => app === appId && x === from && y === to);
  }

  /** False when they were game friends already. */
  addFriendship(appId: string, a: string, b: string): boolean {
    if (a === b || this.areFriends(appId, a, b)) return false;
    this.data.game_friendships = [...this.friendships(), [appId, ...sorted(a, b)]] as [string, string, string][];
    this.changed();
    return true;
  }

  /** False when they were not game friends. */
  removeFriendship(appId: string, a: string, b: string): boolean {
    if (!this.areFriends(appId, a, b)) return false;
    const [x, y] = sorted(a, b);
    this.data.game_friendships = this.friendships().filter(([app, p, q]) => !(app === appId && p === x && q === y)) as [string, string, string][];
    this.changed();
    return true;
  }

  /** False when it was pending already. */
  addRequest(appId: string, from: string, to: string): boolean {
    if (this.hasRequest(appId, from, to)) return false;
    this.data.game_friend_requests = [...this.requests(), [appId, from, to]] as [string, string, string][];
    this.changed();
    return true;
  }

  /** False when there was none. */
  removeRequest(appId: string, from: string, to: string): boolean {
    if (!this.hasRequest(appId, from, to)) return false;
    this.data.game_friend_requests = this.requests().filter(([app, x, y]) => !(app === appId && x === from && y === to)) as [string, string, string][];
    this.changed();
    return true;
  }

  /** The applications in which the two users have a game friendship or a pending request, either way. */
  applicationsBetween(a: string, b: string): string[] {
    const between = ([, x, y]: GameTriple): boolean => (x === a && y === b) || (x === b && y === a);
    return [...new Set([...this.friendships().filter(between), ...this.requests().filter(between)].map(([app]) => app))];
  }

  /** Forgets every game relationship of the user (the user is being deleted). */
  forgetUser(userId: string): void {
    const keep = ([, a, b]: GameTriple): boolean => a !== userId && b !== userId;
    if (this.friendships().every(keep) && this.requests().every(keep)) return;
    this.data.game_friendships = this.friendships().filter(keep) as [string, string, string][];
    this.data.game_friend_requests = this.requests().filter(keep) as [string, string, string][];
    this.changed();
  }

  /**
   * A merge: `from`'s game friendships and requests become `into`'s (in every application), leaving
   * out what would be with `into` themselves, duplicates, requests between game friends, and
   * whatever `blocked(a, b)` says a block stands between.
   */
  moveUser(from: string, into: string, blocked: (a: string, b: string) => boolean): void {
    const swap = (id: string): string => (id === from ? into : id);
    const fine = ([, a, b]: GameTriple): boolean => a !== b && !blocked(a, b);
    const friendships = unique(this.friendships().map(([app, a, b]): GameTriple => [app, ...sorted(swap(a), swap(b))]).filter(fine));
    this.data.game_friendships = friendships as [string, string, string][];
    const requests = unique(this.requests().map(([app, a, b]): GameTriple => [app, swap(a), swap(b)]).filter(fine));
    this.data.game_friend_requests = requests.filter(([app, a, b]) => !this.areFriends(app, a, b)) as [string, string, string][];
    this.changed();
  }

  /** An unmerge: `into` gets every game friend `from` has in the application (`from` keeps them). */
  copyFriends(appId: string, from: string, into: string): void {
    for (const friend of this.friendsOf(appId, from)) if (friend !== into) this.addFriendship(appId, into, friend);
  }
}

function sorted(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

function unique(triples: readonly GameTriple[]): GameTriple[] {
  const seen = new Set<string>();
  return triples.filter((triple) => {
    const key = triple.join(':');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
