import { chmodSync, closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { openSqlite, type SqliteDatabase, type SqliteStatement } from './sqlite-driver.js';
import { WalCheckpoints, type CheckpointKind } from './wal-checkpoints.js';

/** One persisted record of the small state: its collection, its key in it, and its JSON. */
export interface RecordRow {
  readonly collection: string;
  readonly key: string;
  readonly value: string;
}

/** A message as stored: the columns the queries need, and the rest of the record as JSON. */
export interface MessageRow {
  readonly id: string;
  readonly channel_id: string;
  readonly author_id: string;
  /** The record without `id`, `channel_id` and `author_id`. */
  readonly body: string;
}

/** What the Store asks of its storage: records of the small state, and messages. */
export interface StateBackend {
  /** Runs `work` in one transaction (nested calls join the outer one); committed when it returns. */
  transaction<T>(work: () => T): T;
  records(): RecordRow[];
  putRecord(collection: string, key: string, value: string): void;
  deleteRecord(collection: string, key: string): void;
  insertMessage(row: MessageRow): void;
  updateMessage(row: MessageRow): void;
  deleteMessage(id: string): void;
  trimChannel(channelId: string, keep: number): void;
  channelSize(channelId: string): number;
  message(id: string): MessageRow | undefined;
  newest(channelId: string, limit: number): MessageRow[];
  byAuthorIn(channelId: string, authorId: string): MessageRow[];
  moveChannel(from: string, into: string): void;
  deleteChannel(channelId: string): void;
  moveAuthor(from: string, into: string): void;
  lastMessageId(): string | undefined;
  allMessages(): MessageRow[];
  checkpoint(): void;
  close(): void;
}

const SCHEMA = [
  // The small state, one row per record; `seq` keeps the order records were first written in.
  'CREATE TABLE IF NOT EXISTS records (collection TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID',
  // DM messages: `seq` (the rowid) is the order they were sent in.
  'CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, channel_id TEXT NOT NULL, author_id TEXT NOT NULL, body TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS messages_by_channel ON messages (channel_id, seq)',
];

/** How often the checkpoint policy (wal-checkpoints.ts) is asked, while something written waits for a checkpoint. */
const CHECKPOINT_TICK_MS = 1000;

/**
 * The emulator's state on disk: an SQLite database (sqlite-driver.ts: Node's own SQLite where
 * it has one, else SQLite compiled to WebAssembly) in WAL mode with exclusive locking. Every call that changes something is
 * one transaction committed before it returns (written to the WAL, no fsync), so what a route
 * acknowledged survives the process being killed. Checkpoints run on a timer, never inside a
 * commit, and fsync only once writes pause (see WalCheckpoints); their cost follows what was
 * written since the last one.
 */
export class StateDb implements StateBackend {
  private readonly statements = new Map<string, SqliteStatement>();
  private recordSeq: number;
  private readonly checkpoints = new WalCheckpoints((kind) => this.runCheckpoint(kind), () => performance.now());
  /**
   * Runs only from a write until the synced checkpoint after it (issue 27 §4: an idle emulator
   * sets no timer; the checkpoints' timing while writes go on is unchanged).
   */
  private checkpointer: NodeJS.Timeout | undefined;

  private constructor(private readonly db: SqliteDatabase) {
    const row = this.db.get('SELECT MAX(seq) AS seq FROM records') as { seq: number | null } | undefined;
    this.recordSeq = row?.seq ?? 0;
  }

  /** Whether the checkpoint timer runs now: only while something written is not yet synced. */
  get checkpointArmed(): boolean {
    return this.checkpointer !== undefined;
  }

  /**
   * Opens (or creates, mode 0600) the database. The caller holds the data dir, so a lock left
   * by a killed emulator is stale and removed.
   */
  static open(file: string): StateDb {
    // The WebAssembly build locks with a directory beside the file; a kill leaves it behind.
    rmSync(`${file}.lock`, { recursive: true, force: true });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    const db = openSqlite(file);
    try {
      db.exec('PRAGMA locking_mode=EXCLUSIVE');
      db.exec('PRAGMA journal_mode=WAL');
      // Commits never fsync in WAL mode; checkpoints fsync only when synced (runCheckpoint).
      db.exec('PRAGMA synchronous=OFF');
      // Checkpoints on the timer only (see CHECKPOINT_TICK_MS), never inside a commit.
      db.exec('PRAGMA wal_autocheckpoint=0');
      for (const statement of SCHEMA) db.exec(statement);
    } catch (error) {
      db.close();
      throw error;
    }
    if (existsSync(`${file}-wal`)) chmodSync(`${file}-wal`, 0o600);
    return new StateDb(db);
  }

  /** Runs `work` in one transaction (nested calls join the outer one). */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    this.wrote();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  // ---- records

  records(): RecordRow[] {
    return this.db.all('SELECT collection, key, value FROM records ORDER BY seq') as unknown as RecordRow[];
  }

  putRecord(collection: string, key: string, value: string): void {
    this.recordSeq += 1;
    this.statement('INSERT INTO records (collection, key, seq, value) VALUES (?, ?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value').run([
      collection,
      key,
      this.recordSeq,
      value,
    ]);
  }

  deleteRecord(collection: string, key: string): void {
    this.statement('DELETE FROM records WHERE collection = ? AND key = ?').run([collection, key]);
  }

  // ---- messages

  insertMessage(row: MessageRow): void {
    this.statement('INSERT INTO messages (id, channel_id, author_id, body) VALUES (?, ?, ?, ?)').run([row.id, row.channel_id, row.author_id, row.body]);
  }

  updateMessage(row: MessageRow): void {
    this.statement('UPDATE messages SET channel_id = ?, author_id = ?, body = ? WHERE id = ?').run([row.channel_id, row.author_id, row.body, row.id]);
  }

  deleteMessage(id: string): void {
    this.statement('DELETE FROM messages WHERE id = ?').run([id]);
  }

  /** Keeps only the newest `keep` messages of the channel. */
  trimChannel(channelId: string, keep: number): void {
    this.statement(
      'DELETE FROM messages WHERE channel_id = ? AND seq <= (SELECT seq FROM messages WHERE channel_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)',
    ).run([channelId, channelId, keep]);
  }

  channelSize(channelId: string): number {
    return Number(this.first<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?', [channelId])?.n ?? 0);
  }

  message(id: string): MessageRow | undefined {
    return this.first<MessageRow>('SELECT id, channel_id, author_id, body FROM messages WHERE id = ?', [id]);
  }

  /** Newest first. */
  newest(channelId: string, limit: number): MessageRow[] {
    return this.statement('SELECT id, channel_id, author_id, body FROM messages WHERE channel_id = ? ORDER BY seq DESC LIMIT ?').all([channelId, limit]) as unknown as MessageRow[];
  }

  /** Oldest first. */
  byAuthorIn(channelId: string, authorId: string): MessageRow[] {
    return this.statement('SELECT id, channel_id, author_id, body FROM messages WHERE channel_id = ? AND author_id = ? ORDER BY seq').all([channelId, authorId]) as unknown as MessageRow[];
  }

  moveChannel(from: string, into: string): void {
    this.statement('UPDATE messages SET channel_id = ? WHERE channel_id = ?').run([into, from]);
  }

  deleteChannel(channelId: string): void {
    this.statement('DELETE FROM messages WHERE channel_id = ?').run([channelId]);
  }

  moveAuthor(from: string, into: string): void {
    this.statement('UPDATE messages SET author_id = ? WHERE author_id = ?').run([into, from]);
  }

  /** The id of the newest message, or undefined when there is none. */
  lastMessageId(): string | undefined {
    const row = this.db.get('SELECT id FROM messages ORDER BY seq DESC LIMIT 1') as { id: string } | undefined;
    return row?.id;
  }

  /** Every message, oldest first (an export; not for the request path). */
  allMessages(): MessageRow[] {
    return this.db.all('SELECT id, channel_id, author_id, body FROM messages ORDER BY seq') as unknown as MessageRow[];
  }

  /** Moves the WAL's commits into the database file, so the file alone holds everything. */
  /** A synced checkpoint now: `state.db` alone then holds everything, on disk. */
  checkpoint(): void {
    if (this.runCheckpoint('synced')) this.checkpoints.synced();
  }

  /** Something goes to the WAL: the checkpoint timer runs until it is synced. */
  private wrote(): void {
    this.checkpoints.wrote();
    if (this.checkpointer !== undefined || !this.db.isOpen) return;
    this.checkpointer = setInterval(() => this.checkpointTick(), CHECKPOINT_TICK_MS);
    this.checkpointer.unref();
  }

  private checkpointTick(): void {
    this.checkpoints.tick();
    if (!this.checkpoints.pending) this.stopCheckpointer();
  }

  private stopCheckpointer(): void {
    clearInterval(this.checkpointer);
    this.checkpointer = undefined;
  }

  /** False when it could not run now (a statement still reading): the policy tries again. */
  private runCheckpoint(kind: CheckpointKind): boolean {
    if (!this.db.isOpen) return false;
    try {
      if (kind === 'quick') {
        this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
        return true;
      }
      this.db.exec('PRAGMA synchronous=NORMAL');
      try {
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } finally {
        this.db.exec('PRAGMA synchronous=OFF');
      }
      return true;
    } catch {
      return false;
    }
  }

  messageCount(): number {
    return Number((this.db.get('SELECT COUNT(*) AS n FROM messages') as { n: number } | undefined)?.n ?? 0);
  }

  close(): void {
    this.stopCheckpointer();
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }

  /**
   * The first row of a query, read to the end (a cached statement left mid-way would keep a
   * read open, and the checkpoint waits for none).
   */
  private first<T>(sql: string, values: (string | number)[]): T | undefined {
    return this.statement(sql).all(values)[0] as T | undefined;
  }

  /** A prepared statement; one that writes marks the WAL for the next checkpoint. */
  private statement(sql: string): SqliteStatement {
    if (!sql.startsWith('SELECT')) this.wrote();
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
