import type { StateFile } from './model.js';
import type { StateBackend } from './state-db.js';

/** The state but the messages: small, held in memory, and persisted record by record. */
export type SmallState = Omit<StateFile, 'messages'>;

/** The array fields of the small state, each persisted as one row per record. */
export type Collection =
  | 'users'
  | 'friendships'
  | 'friend_requests'
  | 'blocks'
  | 'game_friendships'
  | 'game_friend_requests'
  | 'identities'
  | 'bans'
  | 'connections'
  | 'guilds'
  | 'channels'
  | 'apps'
  | 'grants'
  | 'codes'
  | 'tokens';

type Keyed = Record<string, unknown> & readonly unknown[];

const pair = (record: unknown): string => (record as readonly string[]).join(':');
const field =
  (...names: string[]) =>
  (record: unknown): string =>
    names.map((name) => String((record as Record<string, unknown>)[name])).join(':');

/** Each record's key in its collection: what never changes about it. */
const KEY_OF: Record<Collection, (record: unknown) => string> = {
  users: field('id'),
  friendships: pair,
  friend_requests: pair,
  blocks: pair,
  game_friendships: pair,
  game_friend_requests: pair,
  identities: field('application_id', 'type', 'external_id'),
  bans: field('user_id'),
  connections: field('user_id', 'type', 'id'),
  guilds: field('id'),
  channels: field('id'),
  apps: field('id'),
  grants: field('id'),
  codes: field('code_hash'),
  tokens: field('id'),
};

export const COLLECTIONS = Object.keys(KEY_OF) as Collection[];

/**
 * Every other field of the state (`version`, `last_id`, `oidc_key`, `app_use_tracked`, and any
 * field added later that is not listed in KEY_OF) is one row of the `meta` collection, its whole
 * value as JSON: a new field is persisted even before it gets a collection of its own.
 */
const META = 'meta';
const isCollection = (field: string): field is Collection => Object.hasOwn(KEY_OF, field);

/**
 * Persists the small state record by record: a change marks its collection, and `commit`
 * writes only the records of the marked collections whose JSON differs from what was written
 * last (and deletes the ones gone), in one transaction. The write cost follows the change.
 */
export class StateRecords {
  /** What was written last: collection → key → JSON. */
  private readonly written = new Map<string, Map<string, string>>();
  private readonly dirty = new Set<Collection>();

  constructor(
    private readonly db: StateBackend,
    private readonly state: SmallState,
  ) {}

  /**
   * Reads the small state, or undefined when the database holds none yet (a fresh data dir, or
   * one whose first write did not complete). The returned records know they are written.
   */
  static load(db: StateBackend): { state: SmallState; written: Map<string, Map<string, string>> } | undefined {
    const written = new Map<string, Map<string, string>>();
    for (const row of db.records()) {
      let rows = written.get(row.collection);
      if (rows === undefined) written.set(row.collection, (rows = new Map()));
      rows.set(row.key, row.value);
    }
    const meta = written.get(META);
    if (meta?.get('version') === undefined) return undefined;
    const state: Record<string, unknown> = {};
    for (const [key, value] of meta) state[key] = JSON.parse(value) as unknown;
    for (const collection of COLLECTIONS) state[collection] = [...(written.get(collection)?.values() ?? [])].map((value) => JSON.parse(value) as unknown);
    return { state: state as unknown as SmallState, written };
  }

  /** Takes what `load` found as written. */
  adopt(written: Map<string, Map<string, string>>): void {
    for (const [collection, rows] of written) this.written.set(collection, rows);
  }

  /** Marks collections changed (none named: every one). */
  mark(collections: readonly Collection[]): void {
    for (const collection of collections.length === 0 ? COLLECTIONS : collections) this.dirty.add(collection);
  }

  /** Writes the marked collections' changed records and the scalars, in one transaction. */
  commit(): void {
    const collections = [...this.dirty];
    this.dirty.clear();
    this.db.transaction(() => {
      for (const collection of collections) {
        const records = (this.state[collection] ?? []) as unknown as Keyed[];
        this.sync(collection, new Map(records.map((record) => [KEY_OF[collection](record), JSON.stringify(record)])));
      }
      this.syncMeta();
    });
  }

  /** Writes these records of a collection (added or changed in place) and the scalars, in one transaction. */
  commitRecords(collection: Collection, records: readonly object[]): void {
    this.db.transaction(() => {
      let before = this.written.get(collection);
      if (before === undefined) this.written.set(collection, (before = new Map()));
      for (const record of records) {
        const key = KEY_OF[collection](record);
        const value = JSON.stringify(record);
        if (before.get(key) === value) continue;
        this.db.putRecord(collection, key, value);
        before.set(key, value);
      }
      this.syncMeta();
    });
  }

  private syncMeta(): void {
    const meta = new Map<string, string>();
    for (const [key, value] of Object.entries(this.state)) if (!isCollection(key) && value !== undefined) meta.set(key, JSON.stringify(value));
    this.sync(META, meta);
  }

  private sync(collection: string, current: Map<string, string>): void {
    let before = this.written.get(collection);
    if (before === undefined) this.written.set(collection, (before = new Map()));
    for (const [key, value] of current) {
      if (before.get(key) === value) continue;
      this.db.putRecord(collection, key, value);
      before.set(key, value);
    }
    for (const key of [...before.keys()]) {
      if (current.has(key)) continue;
      this.db.deleteRecord(collection, key);
      before.delete(key);
    }
  }
}
