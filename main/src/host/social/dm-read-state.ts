import { READING_LEASE_MS } from '../../../../preload/src/contract.js';
import { newerId, type DmReadMarks } from './dm-read-marks.js';

/** What the read state needs of a message. */
export interface ReadableMessage {
  readonly id: string;
  readonly authorId: string;
}

export interface DmReadStateOptions {
  readonly marks: DmReadMarks;
  /** The signed-in player's id, null while signed out. */
  readonly me: () => string | null;
  /** The conversation with a friend as the host keeps it, oldest first (empty when none). */
  readonly messages: (friendId: string) => readonly ReadableMessage[];
  readonly now?: () => number;
  /** How long one "reading" call keeps a conversation read as messages arrive (default READING_LEASE_MS). */
  readonly leaseMs?: number;
}

/**
 * Which direct messages the signed-in player has not read. A message is unread when a friend
 * wrote it after the player's read mark (DmReadMarks, per player) and after the player's own
 * newest message there (writing back reads the conversation, as in the client players know).
 * A UI that shows a conversation says so (`read(friendId, true)`, renewed while it stays on
 * screen): the conversation is read up to its newest message, and messages that arrive while
 * the lease lasts are read as they arrive (`messagesChanged`), so they are never announced.
 */
export class DmReadState {
  /** Friend id → until when a UI shows that conversation (the signed-in player's). */
  private readonly reading = new Map<string, number>();
  private readonly now: () => number;
  private readonly leaseMs: number;

  constructor(private readonly options: DmReadStateOptions) {
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? READING_LEASE_MS;
  }

  /** How many of the friend's messages in `messages` the signed-in player has not read. */
  unread(friendId: string, messages: readonly ReadableMessage[]): number {
    const me = this.options.me();
    if (me === null) return 0;
    let readUpTo = this.options.marks.readUpTo(me, friendId);
    for (const message of messages) if (message.authorId === me && (readUpTo === null || newerId(message.id, readUpTo))) readUpTo = message.id;
    return messages.filter((message) => message.authorId !== me && (readUpTo === null || newerId(message.id, readUpTo))).length;
  }

  /**
   * A UI shows the conversation with `friendId` (`showing`), or stopped showing it: either way
   * it is read up to its newest message; while shown, messages that arrive are read too.
   */
  read(friendId: string, showing: boolean): void {
    if (showing) this.reading.set(friendId, this.now() + this.leaseMs);
    else this.reading.delete(friendId);
    this.readNewest(friendId);
  }

  /** Whether a UI shows that conversation now. */
  isShown(friendId: string): boolean {
    const until = this.reading.get(friendId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.reading.delete(friendId);
    return false;
  }

  /** Messages arrived (or changed): the conversations on screen are read up to their newest. */
  messagesChanged(): void {
    for (const friendId of [...this.reading.keys()]) if (this.isShown(friendId)) this.readNewest(friendId);
  }

  /** The conversation is read up to its newest message (a game shows it: SET_SHOWING_CHAT), leaving any UI's lease as it is. */
  readNow(friendId: string): void {
    this.readNewest(friendId);
  }

  /** Another account (or none) signed in: the conversations on screen were the previous player's. */
  accountChanged(): void {
    this.reading.clear();
  }

  private readNewest(friendId: string): void {
    const me = this.options.me();
    const newest = this.options.messages(friendId).at(-1);
    if (me !== null && newest !== undefined) this.options.marks.markRead(me, friendId, newest.id);
  }
}
