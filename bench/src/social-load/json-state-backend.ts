/**
 * Today's design before issue 25 §3, kept for the `social-load` bench phase only (not a product
 * option): the whole state held in memory as objects, every change scheduling a write of the
 * whole state as one JSON file (debounced 100 ms, written atomically, writes queued behind each
 * other), messages in one array filtered on each send for the per-channel cap, as the old Store
 * did. It sits behind the Store's storage interface so the same emulator runs on it.
 */
import { writeFileAtomic } from '../../../common/src/node/atomic-file.js';
import type { MessageRow, RecordRow, StateBackend } from '../../../platform/src/state/state-db.js';

interface StoredMessage {
  id: string;
  channel_id: string;
  author_id: string;
  body: Record<string, unknown>;
}

export class JsonFileStateBackend implements StateBackend {
  private readonly collections = new Map<string, Map<string, unknown>>();
  private messages: StoredMessage[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** What the last send counted (kept so the count is not optimised away). */
  lastChannelSize = 0;

  constructor(
    private readonly file: string,
    private readonly debounceMs = 100,
  ) {}

  transaction<T>(work: () => T): T {
    return work();
  }

  records(): RecordRow[] {
    return [...this.collections].flatMap(([collection, rows]) => [...rows].map(([key, value]) => ({ collection, key, value: JSON.stringify(value) })));
  }

  putRecord(collection: string, key: string, value: string): void {
    let rows = this.collections.get(collection);
    if (rows === undefined) this.collections.set(collection, (rows = new Map()));
    rows.set(key, JSON.parse(value) as unknown);
    this.changed();
  }

  deleteRecord(collection: string, key: string): void {
    this.collections.get(collection)?.delete(key);
    this.changed();
  }

  insertMessage(row: MessageRow): void {
    this.messages.push(toStored(row));
    // The old Store filtered every message on each send to find the channel's (for its cap).
    this.lastChannelSize = this.channelSize(row.channel_id);
    this.changed();
  }

  channelSize(channelId: string): number {
    return this.messages.filter((message) => message.channel_id === channelId).length;
  }

  updateMessage(row: MessageRow): void {
    const index = this.messages.findIndex((message) => message.id === row.id);
    if (index >= 0) this.messages[index] = toStored(row);
    this.changed();
  }

  deleteMessage(id: string): void {
    this.messages = this.messages.filter((message) => message.id !== id);
    this.changed();
  }

  /** As the old Store: the channel's messages filtered out of all of them on every send. */
  trimChannel(channelId: string, keep: number): void {
    const inChannel = this.messages.filter((message) => message.channel_id === channelId);
    const excess = inChannel.length - keep;
    if (excess <= 0) return;
    const drop = new Set(inChannel.slice(0, excess));
    this.messages = this.messages.filter((message) => !drop.has(message));
    this.changed();
  }

  message(id: string): MessageRow | undefined {
    const found = this.messages.find((message) => message.id === id);
    return found === undefined ? undefined : toRow(found);
  }

  newest(channelId: string, limit: number): MessageRow[] {
    return this.messages.filter((message) => message.channel_id === channelId).slice(-limit).reverse().map(toRow);
  }

  byAuthorIn(channelId: string, authorId: string): MessageRow[] {
    return this.messages.filter((message) => message.channel_id === channelId && message.author_id === authorId).map(toRow);
  }

  moveChannel(from: string, into: string): void {
    for (const message of this.messages) if (message.channel_id === from) message.channel_id = into;
    this.changed();
  }

  deleteChannel(channelId: string): void {
    this.messages = this.messages.filter((message) => message.channel_id !== channelId);
    this.changed();
  }

  moveAuthor(from: string, into: string): void {
    for (const message of this.messages) if (message.author_id === from) message.author_id = into;
    this.changed();
  }

  lastMessageId(): string | undefined {
    return this.messages.at(-1)?.id;
  }

  allMessages(): MessageRow[] {
    return this.messages.map(toRow);
  }

  checkpoint(): void {
    this.write();
  }

  close(): void {
    clearTimeout(this.timer);
    this.write();
  }

  private changed(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** The whole state as one JSON text, queued behind the write in progress (as the old Store's flush). */
  private write(): void {
    const state: Record<string, unknown> = {};
    for (const [collection, rows] of this.collections) state[collection] = [...rows.values()];
    state.messages = this.messages.map((message) => ({ id: message.id, channel_id: message.channel_id, author_id: message.author_id, ...message.body }));
    const text = JSON.stringify(state, null, 2);
    this.writing = this.writing.then(() => writeFileAtomic(this.file, text)).catch(() => undefined);
  }
}

function toStored(row: MessageRow): StoredMessage {
  return { id: row.id, channel_id: row.channel_id, author_id: row.author_id, body: JSON.parse(row.body) as Record<string, unknown> };
}

function toRow(message: StoredMessage): MessageRow {
  return { id: message.id, channel_id: message.channel_id, author_id: message.author_id, body: JSON.stringify(message.body) };
}
