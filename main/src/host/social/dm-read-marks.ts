import path from 'node:path';
import * as v from 'valibot';
import { removeStrayTemps, writerGone } from '../../../../common/src/node/atomic-file.js';
import { fileTimestamp, moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import { SerialWrites } from '../../base/serial-writes.js';

export const DM_READ_FILE = 'dm-read.json';
const FORMAT_VERSION = 1;
/** Players (accounts signed in on this machine) remembered; the one whose marks changed least recently goes first. */
export const MAX_READ_PLAYERS = 20;
/** Conversations remembered per player; the least recently read goes first (its messages then count as unread). */
export const MAX_READ_CONVERSATIONS = 500;

const SnowflakeSchema = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/));
const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  /**
   * Each player (least recently changed first) with each conversation's mark (least recently
   * read first): `[friend id, the newest message of that conversation the player has read]`.
   * Lists, not objects: the order is the recency (objects would sort numeric keys).
   */
  players: v.array(v.object({ id: SnowflakeSchema, read: v.array(v.strictTuple([SnowflakeSchema, SnowflakeSchema])) })),
});

/** Whether snowflake `a` is newer than `b` (decimal strings of up to 20 digits: longer is larger, then by digits). */
export function newerId(a: string, b: string): boolean {
  return a.length === b.length ? a > b : a.length > b.length;
}

export interface DmReadMarksLogger {
  warn(fields: object, message: string): void;
}

/**
 * How far each player has read each direct conversation: the id of the newest message read,
 * per player (the account signed in) and per friend, in `<data dir>/dm-read.json` (mode 0600,
 * written atomically, one write at a time). Only ids are kept: never a message's text. A
 * file that is not valid JSON or not in this shape is renamed aside to
 * `dm-read.json.corrupt-<timestamp>` with a warning (every conversation then starts unread);
 * other read errors (e.g. EACCES) reject, leaving the file alone. Bounded (MAX_READ_PLAYERS,
 * MAX_READ_CONVERSATIONS).
 */
export class DmReadMarks {
  /** Player → friend → message id; both maps in recency order (least recent first). */
  private readonly players = new Map<string, Map<string, string>>();
  private readonly writes = new SerialWrites(() => this.writeNow());

  private constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** Reads the file (a missing one is no marks); `warning` when it had to be set aside. */
  static async load(dataDir: string, options: { readonly logger?: DmReadMarksLogger; readonly now?: () => number } = {}): Promise<{ marks: DmReadMarks; warning: string | null }> {
    const marks = new DmReadMarks(dataDir, options.now ?? Date.now);
    const warning = await marks.read();
    if (warning !== null) options.logger?.warn({ file: marks.file }, warning);
    return { marks, warning };
  }

  get file(): string {
    return path.join(this.dataDir, DM_READ_FILE);
  }

  /** The newest message of the conversation with `friendId` that `playerId` has read, or null. */
  readUpTo(playerId: string, friendId: string): string | null {
    return this.players.get(playerId)?.get(friendId) ?? null;
  }

  /**
   * `playerId` has read the conversation with `friendId` up to `messageId`. A mark only moves
   * forward: false (nothing written) when it is already there or further.
   */
  markRead(playerId: string, friendId: string, messageId: string): boolean {
    const current = this.readUpTo(playerId, friendId);
    if (current !== null && !newerId(messageId, current)) return false;
    const friends = this.players.get(playerId) ?? new Map<string, string>();
    friends.delete(friendId);
    friends.set(friendId, messageId);
    if (friends.size > MAX_READ_CONVERSATIONS) friends.delete(friends.keys().next().value as string);
    this.players.delete(playerId);
    this.players.set(playerId, friends);
    if (this.players.size > MAX_READ_PLAYERS) this.players.delete(this.players.keys().next().value as string);
    void this.save().catch(() => undefined);
    return true;
  }

  /** Resolves when every change so far is on disk (or its write failed). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** One write at a time; changes made while one runs are written by the next, together. */
  private save(): Promise<void> {
    return this.writes.request();
  }

  private async writeNow(): Promise<void> {
    const players = [...this.players].map(([id, friends]) => ({ id, read: [...friends] }));
    await writeJsonStateFile(this.file, { version: FORMAT_VERSION, players });
  }

  private async read(): Promise<string | null> {
    await removeStrayTemps(this.file, writerGone);
    const read = await readJsonStateFile(this.file, FileSchema, 'read marks');
    if (read.kind === 'missing') return null;
    if (read.kind === 'valid') {
      for (const player of read.value.players.slice(-MAX_READ_PLAYERS)) this.players.set(player.id, new Map(player.read.slice(-MAX_READ_CONVERSATIONS)));
      return null;
    }
    const aside = await moveAside(this.file, fileTimestamp(this.now()));
    return `${DM_READ_FILE} ${read.problem}; kept as ${path.basename(aside)}; every conversation starts unread`;
  }
}
