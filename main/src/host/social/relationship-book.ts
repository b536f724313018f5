import { EventEmitter } from 'node:events';
import { GatewayEvent, RelationshipType, type PlatformUser, type Relationship } from '../../../../platform/src/wire/index.js';

/** A relationship other than friendship, as the player sees it (the contract's RelationshipKind). */
export type RelationshipKind = 'incoming' | 'outgoing' | 'blocked';

export interface RelationshipEntry {
  readonly user: PlatformUser;
  readonly kind: RelationshipKind;
}

const KIND_OF_TYPE: ReadonlyMap<number, RelationshipKind> = new Map([
  [RelationshipType.Blocked, 'blocked'],
  [RelationshipType.IncomingRequest, 'incoming'],
  [RelationshipType.OutgoingRequest, 'outgoing'],
]);

function isRelationship(value: unknown): value is Relationship {
  if (typeof value !== 'object' || value === null) return false;
  const { id, type, user } = value as Partial<Relationship>;
  return typeof id === 'string' && typeof type === 'number' && typeof user === 'object' && user !== null && typeof user.id === 'string';
}

/**
 * The player's friend requests (both ways) and blocks, from the host's gateway session: READY's
 * relationships (a new session; a resume keeps them), RELATIONSHIP_ADD and RELATIONSHIP_REMOVE.
 * Friends are FriendPresences' (with their presence): a request that became a friendship
 * (RELATIONSHIP_ADD type 1) leaves here. Emits `change` whenever the list changed.
 */
export class RelationshipBook extends EventEmitter<{ change: [] }> {
  private readonly entries = new Map<string, RelationshipEntry>();

  /** Feeds one gateway dispatch. */
  dispatch(type: string, data: unknown): void {
    if (type === GatewayEvent.Ready) this.ready(data);
    else if (type === GatewayEvent.RelationshipAdd) this.add(data);
    else if (type === GatewayEvent.RelationshipRemove) this.remove(data);
  }

  /** Signed out or another account: nothing of the old one stays. */
  clear(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.emit('change');
  }

  list(): RelationshipEntry[] {
    return [...this.entries.values()];
  }

  get(userId: string): RelationshipEntry | undefined {
    return this.entries.get(userId);
  }

  private ready(data: unknown): void {
    const relationships = (typeof data === 'object' && data !== null ? (data as { relationships?: unknown }).relationships : undefined) ?? [];
    this.entries.clear();
    for (const relationship of Array.isArray(relationships) ? relationships : []) {
      const kind = isRelationship(relationship) ? KIND_OF_TYPE.get(relationship.type) : undefined;
      if (kind !== undefined) this.entries.set(relationship.user.id, { user: relationship.user, kind });
    }
    this.emit('change');
  }

  private add(data: unknown): void {
    if (!isRelationship(data)) return;
    const kind = KIND_OF_TYPE.get(data.type);
    if (kind === undefined) {
      // Friends now (or a type this list does not show): no longer pending or blocked.
      if (this.entries.delete(data.user.id)) this.emit('change');
      return;
    }
    this.entries.set(data.user.id, { user: data.user, kind });
    this.emit('change');
  }

  /** RELATIONSHIP_REMOVE `{id, type}`: `id` is the other user's; only that type of relationship ends (a friendship's end leaves a block alone). */
  private remove(data: unknown): void {
    const { id, type } = (typeof data === 'object' && data !== null ? data : {}) as { id?: unknown; type?: unknown };
    if (typeof id !== 'string') return;
    const current = this.entries.get(id);
    if (current === undefined) return;
    if (typeof type === 'number' && KIND_OF_TYPE.get(type) !== current.kind) return;
    this.entries.delete(id);
    this.emit('change');
  }
}
