import { ClientResult } from './client-result.js';
import { attempt, fail, type BearerCallOptions } from './platform-request.js';
import * as api from './relationship-api.js';
import { RelationshipBook, RelationshipType, type RelationshipChange, type RelationshipHandle } from './relationship-handles.js';
import type { PlatformDispatch } from './wire/gateway.js';
import type { WireUser } from './user-handle.js';

export { RelationshipType, type RelationshipHandle } from './relationship-handles.js';

/** The platform-wide relationship types (RelationshipType without None and the kinds the platform never sends). */
export const RelationshipKind = { Friend: 1, Blocked: 2, PendingIncoming: 3, PendingOutgoing: 4 } as const;

/** The callbacks of setRelationshipCallbacks: platform-wide relationships only, with the type. */
export interface RelationshipCallbacks {
  /** Someone became a friend, blocked, or a request came or went out (with the new type). */
  relationshipCreated?: ((userId: string, type: number) => void) | undefined;
  /** A friendship, a block or a request ended. */
  relationshipDeleted?: ((userId: string) => void) | undefined;
}

/** Client::RelationshipCreatedCallback / RelationshipDeletedCallback: whose relationship, and whether the platform-wide one (else the game's). */
export type RelationshipChangedCallback = (userId: string, isDiscordRelationshipUpdate: boolean) => void;

/** Client::UpdateRelationshipCallback and SendFriendRequestCallback. */
export type UpdateRelationshipCallback = (result: ClientResult) => void;

/** Which relationships a change is about: platform-wide ("Discord") or this game's. */
export type RelationshipKindName = api.RelationshipKindName;

const KIND_WORD: Readonly<Record<RelationshipKindName, string>> = { discord: 'Discord', game: 'game' };

/**
 * The player's relationships through the game's own session (the game's token with
 * `relationships.read` / `relationships.write`, which the communication scopes include):
 * platform-wide ones (friends, requests, blocks) and game ones (friends and requests in this
 * game only), the Social SDK's calls for both, and the callbacks. The cache behind
 * getRelationshipHandle is filled when the session is READY and by each list, and kept current
 * by RELATIONSHIP_ADD / _REMOVE and GAME_RELATIONSHIP_ADD / _REMOVE. Accepting, rejecting,
 * cancelling, removing and unblocking look at the relationship as the platform has it first and
 * fail (ValidationError, nothing changed) when it is not what the call needs, as the Social
 * SDK's calls do. Each call resolves with its result and never throws.
 */
export class ClientRelationships {
  readonly callbacks: RelationshipCallbacks = {};
  created: RelationshipChangedCallback | undefined;
  deleted: RelationshipChangedCallback | undefined;
  private readonly book = new RelationshipBook();
  /** The session's initial list was loaded (later READYs call back for differences). */
  private loaded = false;
  /** The last READY (not RESUMED) has not been loaded yet. */
  private newSession = false;

  constructor(private readonly options: () => BearerCallOptions) {}

  /** Client::GetRelationships, asked of the platform: every user with a relationship of either kind. */
  async list(): Promise<{ result: ClientResult; relationships: readonly RelationshipHandle[] }> {
    const outcome = await attempt(async () => (await this.refresh()).map((entry) => this.book.handle(entry.id)));
    return { result: outcome.result, relationships: outcome.value ?? [] };
  }

  /** Client::GetRelationshipHandle: from the cache; both types None when there is no relationship. */
  handle(userId: string): RelationshipHandle {
    return this.book.handle(userId);
  }

  /** The user, when the cache holds a relationship of either kind with them (for getUser). */
  relatedUser(userId: string): WireUser | undefined {
    const handle = this.book.handle(userId);
    const related = handle.discordRelationshipType !== RelationshipType.None || handle.gameRelationshipType !== RelationshipType.None;
    return related && handle.username !== '' ? handle.user : undefined;
  }

  /** The cache's relationships (those getRelationshipHandle answers with a type). */
  cached(): RelationshipHandle[] {
    return this.book.all();
  }

  /** A platform-wide friend request, or accepting theirs (kept for callers written before game relationships). */
  request(userId: string): Promise<ClientResult> {
    return this.send('discord', userId);
  }

  /** Unfriends, cancels or rejects a request, or unblocks: whatever platform-wide stands between them. */
  remove(userId: string): Promise<ClientResult> {
    return this.run(() => api.removeRelationship(this.options(), 'discord', userId));
  }

  /** Client::BlockUser: platform-wide; it ends every relationship between the two, game ones too. */
  block(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.run(() => api.blockUser(this.options(), userId), callback);
  }

  /** Client::Send{Discord,Game}FriendRequestById: sends, or accepts theirs. */
  send(kind: RelationshipKindName, userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.run(() => api.sendRequest(this.options(), kind, userId), callback);
  }

  /** Client::Send{Discord,Game}FriendRequest: by unique username (not the display name); sends, or accepts theirs. */
  sendByName(kind: RelationshipKindName, username: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.run(() => api.sendRequestByName(this.options(), kind, username), callback);
  }

  /** Client::Accept{Discord,Game}FriendRequest: fails unless that kind is PendingIncoming. */
  accept(kind: RelationshipKindName, userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.guarded(userId, kind, RelationshipType.PendingIncoming, `no incoming ${KIND_WORD[kind]} friend request from ${userId}`, () => api.sendRequest(this.options(), kind, userId), callback);
  }

  /** Client::Reject{Discord,Game}FriendRequest: fails unless that kind is PendingIncoming. */
  reject(kind: RelationshipKindName, userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.guarded(userId, kind, RelationshipType.PendingIncoming, `no incoming ${KIND_WORD[kind]} friend request from ${userId}`, () => api.removeRelationship(this.options(), kind, userId), callback);
  }

  /** Client::Cancel{Discord,Game}FriendRequest: fails unless that kind is PendingOutgoing. */
  cancel(kind: RelationshipKindName, userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.guarded(userId, kind, RelationshipType.PendingOutgoing, `no outgoing ${KIND_WORD[kind]} friend request to ${userId}`, () => api.removeRelationship(this.options(), kind, userId), callback);
  }

  /** Client::RemoveGameFriend: fails unless they are game friends. */
  removeGameFriend(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.guarded(userId, 'game', RelationshipType.Friend, `${userId} is not a game friend`, () => api.removeRelationship(this.options(), 'game', userId), callback);
  }

  /** Client::UnblockUser: fails unless the player blocked them; restores no relationship. */
  unblock(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.guarded(userId, 'discord', RelationshipType.Blocked, `${userId} is not blocked`, () => api.removeRelationship(this.options(), 'discord', userId), callback);
  }

  /** Client::RemoveDiscordAndGameFriend: ends both friendships (whichever there are); fails when they are neither kind of friend. */
  async removeBoth(userId: string, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      const current = await this.current(userId);
      const discord = current.discordRelationshipType === RelationshipType.Friend;
      const game = current.gameRelationshipType === RelationshipType.Friend;
      if (!discord && !game) fail(ClientResult.validation(`${userId} is neither a Discord nor a game friend`));
      if (discord) await api.removeRelationship(this.options(), 'discord', userId);
      if (game) await api.removeRelationship(this.options(), 'game', userId);
      await this.refreshQuietly();
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** A dispatch of the game's own gateway connection: the relationship events keep the cache current and call the callbacks (READY's list is `loadOnReady`). */
  dispatch(event: PlatformDispatch): void {
    if (event.t === 'READY') this.newSession = true;
    const change = this.book.apply(event);
    if (change !== undefined) this.tell(change);
  }

  /**
   * The list the session loads when READY (or RESUMED), before the game is told `ready`: the
   * first of a session is the initial state, read with getRelationships / getRelationshipHandle
   * (no callback, as the Social SDK loads relationships when it connects); a later one (a
   * session that came back) calls back for what changed while it was away.
   */
  async loadOnReady(): Promise<void> {
    // A RESUMED session missed nothing (the platform replays what it missed): nothing to load.
    if (this.loaded && !this.newSession) return;
    this.newSession = false;
    const before = this.loaded ? this.book.all() : null;
    const mark = this.book.mark();
    await this.refresh();
    this.loaded = true;
    if (before === null) return;
    // Users an event told of meanwhile were called back already.
    const told = this.book.touchedSince(mark);
    for (const change of differences(before, this.book.all())) if (!told.has(change.userId)) this.tell(change);
  }

  /** The game's session ended (not one reconnecting): the next READY is an initial state again. */
  sessionStatus(status: string): void {
    if (status === 'disconnected') this.loaded = false;
  }

  private tell(change: RelationshipChange): void {
    if (change.isDiscordRelationshipUpdate) {
      if (change.created) this.callbacks.relationshipCreated?.(change.userId, change.type);
      else this.callbacks.relationshipDeleted?.(change.userId);
    }
    (change.created ? this.created : this.deleted)?.(change.userId, change.isDiscordRelationshipUpdate);
  }

  /** A change, then the cache brought up to date (a failed refresh leaves it to the events). */
  private async run(work: () => Promise<void>, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    const outcome = await attempt(async () => {
      await work();
      await this.refreshQuietly();
      return null;
    });
    callback?.(outcome.result);
    return outcome.result;
  }

  /** A change that needs the relationship of `kind` to be `want` now (as the platform has it). */
  private guarded(userId: string, kind: RelationshipKindName, want: RelationshipType, why: string, work: () => Promise<void>, callback?: UpdateRelationshipCallback): Promise<ClientResult> {
    return this.run(async () => {
      const current = await this.current(userId);
      const type = kind === 'discord' ? current.discordRelationshipType : current.gameRelationshipType;
      if (type !== want) fail(ClientResult.validation(why));
      await work();
    }, callback);
  }

  private async current(userId: string): Promise<RelationshipHandle> {
    api.requireUserId(userId);
    await this.refresh();
    return this.book.handle(userId);
  }

  private async refresh(): Promise<readonly api.WireRelationship[]> {
    const mark = this.book.mark();
    const list = await api.listRelationships(this.options());
    this.book.replace(mark, list);
    return list;
  }

  private async refreshQuietly(): Promise<void> {
    try {
      await this.refresh();
    } catch {
      // The events keep the cache current; the next list or change asks again.
    }
  }
}

/** What changed between two lists of the cache: each kind of relationship created (or changed type) or ended. */
function differences(before: readonly RelationshipHandle[], after: readonly RelationshipHandle[]): RelationshipChange[] {
  const old = new Map(before.map((handle) => [handle.id, handle]));
  const now = new Map(after.map((handle) => [handle.id, handle]));
  const changes: RelationshipChange[] = [];
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    for (const discord of [true, false]) {
      const was = typeOf(old.get(id), discord);
      const is = typeOf(now.get(id), discord);
      if (was === is) continue;
      changes.push(is === RelationshipType.None ? { userId: id, isDiscordRelationshipUpdate: discord, created: false, type: was } : { userId: id, isDiscordRelationshipUpdate: discord, created: true, type: is });
    }
  }
  return changes;
}

function typeOf(handle: RelationshipHandle | undefined, discord: boolean): RelationshipType {
  if (handle === undefined) return RelationshipType.None;
  return discord ? handle.discordRelationshipType : handle.gameRelationshipType;
}
