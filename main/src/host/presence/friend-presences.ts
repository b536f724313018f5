import { EventEmitter } from 'node:events';
import {
  GatewayEvent,
  type ClientStatus,
  type PlatformUser,
  type PresenceStatus,
  type PresenceUpdateEvent,
  type ReadyEvent,
  type Relationship,
  type WireActivity,
} from '../../../../platform/src/wire/index.js';
import { jsonEqual } from './presence-relay.js';

/** Relationship type of a friend (others: blocked, incoming and outgoing requests). */
export const RELATIONSHIP_FRIEND = 1;

export interface FriendPresence {
  readonly status: PresenceStatus;
  readonly activities: readonly WireActivity[];
  readonly client_status: ClientStatus;
}

export interface FriendEntry {
  readonly user: PlatformUser;
  readonly presence: FriendPresence;
}

export type FriendChange =
  | { readonly kind: 'reset' }
  | { readonly kind: 'presence' | 'added'; readonly userId: string; readonly entry: FriendEntry }
  | { readonly kind: 'removed'; readonly userId: string };

export interface FriendPresencesEvents {
  change: [FriendChange];
}

const OFFLINE: FriendPresence = Object.freeze({ status: 'offline', activities: Object.freeze([]), client_status: Object.freeze({}) });

/**
 * The user's friends and what they are doing, from the gateway: READY (relationships and
 * the presences of online friends), PRESENCE_UPDATE, RELATIONSHIP_ADD and RELATIONSHIP_REMOVE.
 * A friend without a presence, or gone offline, is kept with status 'offline' and no
 * activities, so the list always holds every friend. Presences of users who are not friends
 * are ignored (the list is only about friends).
 */
export class FriendPresences extends EventEmitter<FriendPresencesEvents> {
  private readonly friends = new Map<string, FriendEntry>();

  /** Replaces everything with a READY's content (a new session; a resume keeps state). */
  ready(event: Pick<ReadyEvent, 'relationships' | 'presences'>): void {
    this.friends.clear();
    for (const relationship of event.relationships) {
      if (relationship.type === RELATIONSHIP_FRIEND) this.friends.set(relationship.user.id, { user: relationship.user, presence: OFFLINE });
    }
    for (const presence of event.presences) this.applyPresence(presence);
    this.emit('change', { kind: 'reset' });
  }

  /** Feeds one gateway dispatch; returns whether it was one this class handles. */
  dispatch(type: string, data: unknown): boolean {
    switch (type) {
      case GatewayEvent.Ready:
        this.ready(data as ReadyEvent);
        return true;
      case GatewayEvent.PresenceUpdate:
        this.presenceUpdate(data as PresenceUpdateEvent);
        return true;
      case GatewayEvent.RelationshipAdd:
        this.relationshipAdd(data as Relationship);
        return true;
      case GatewayEvent.RelationshipRemove:
        this.relationshipRemove(data as { id: string });
        return true;
      default:
        return false;
    }
  }

  presenceUpdate(event: PresenceUpdateEvent): void {
    // Guild presences are not about friendship; the friends list shows the global one.
    if (event.guild_id !== undefined) return;
    const entry = this.applyPresence(event);
    if (entry !== undefined) this.emit('change', { kind: 'presence', userId: entry.user.id, entry });
  }

  relationshipAdd(relationship: Relationship): void {
    const userId = relationship.user.id;
    if (relationship.type !== RELATIONSHIP_FRIEND) {
      // A friend who became blocked (or similar) is no longer a friend.
      this.relationshipRemove({ id: userId });
      return;
    }
    const presence = this.friends.get(userId)?.presence ?? OFFLINE;
    const entry: FriendEntry = { user: relationship.user, presence };
    this.friends.set(userId, entry);
    this.emit('change', { kind: 'added', userId, entry });
  }

  /** RELATIONSHIP_REMOVE carries `{id, type}` where `id` is the other user's id. */
  relationshipRemove(data: { readonly id: string }): void {
    if (this.friends.delete(data.id)) this.emit('change', { kind: 'removed', userId: data.id });
  }

  /** Logged out or switched account. */
  clear(): void {
    this.friends.clear();
    this.emit('change', { kind: 'reset' });
  }

  list(): FriendEntry[] {
    return [...this.friends.values()];
  }

  get(userId: string): FriendEntry | undefined {
    return this.friends.get(userId);
  }

  /** Stores a friend's presence; undefined when the user is not a friend or nothing changed. */
  private applyPresence(event: PresenceUpdateEvent): FriendEntry | undefined {
    const current = this.friends.get(event.user.id);
    if (current === undefined) return undefined;
    const presence = toFriendPresence(event);
    if (jsonEqual(current.presence, presence)) return undefined;
    const entry: FriendEntry = { user: current.user, presence };
    this.friends.set(event.user.id, entry);
    return entry;
  }
}

function toFriendPresence(event: PresenceUpdateEvent): FriendPresence {
  // Invisible users are shown offline to others; an offline user has no activities.
  if (event.status === 'offline' || event.status === 'invisible') return OFFLINE;
  return { status: event.status, activities: event.activities, client_status: event.client_status };
}
