import type { PlatformMessage } from '../../../../platform/src/wire/index.js';
import { newerId } from './dm-read-marks.js';

/** One message of a conversation, as the UI shows it. */
export interface DmEntry {
  readonly id: string;
  readonly authorId: string;
  readonly content: string;
  /** The game that sent it (a game's own token), or null for one the player or friend typed. */
  readonly applicationId: string | null;
  /** Epoch ms. */
  readonly at: number;
  /** Epoch ms of its author's last edit, or null. */
  readonly editedAt: number | null;
}

/** Messages kept per friend, and friends kept (the most recent conversations). */
export const DM_KEPT_PER_FRIEND = 50;
export const DM_KEPT_FRIENDS = 50;

/**
 * The player's direct messages with friends, as the desktop client shows them (game DMs marked
 * with their game): learnt from the gateway's MESSAGE_CREATE (plain messages, not invites or
 * join requests) and from what the player sends. A DM channel's other side is learnt from the
 * channel (CHANNEL_CREATE, or opening it) or from the friend's own message. Bounded.
 */
export class DmBook {
  /** Friend id → their messages, oldest first; the map's order is the conversations' recency. */
  private readonly byFriend = new Map<string, DmEntry[]>();
  /** DM channel id → the friend on the other side. */
  private readonly channelFriend = new Map<string, string>();

  /** The channel's other side is `friendId`. */
  learnChannel(channelId: string, friendId: string): void {
    this.channelFriend.set(channelId, friendId);
  }

  /** A DM channel as the gateway shows it (CHANNEL_CREATE): its recipient other than `meId`. */
  learnFromChannel(channel: { readonly id?: unknown; readonly recipients?: unknown }, meId: string): void {
    if (typeof channel.id !== 'string' || !Array.isArray(channel.recipients)) return;
    const other = (channel.recipients as { id?: unknown }[]).find((recipient) => typeof recipient.id === 'string' && recipient.id !== meId);
    if (typeof other?.id === 'string') this.learnChannel(channel.id, other.id);
  }

  /** Adds a plain message of a DM channel; false when it is not one, not known, or already there. */
  add(message: PlatformMessage, meId: string): boolean {
    if (message.activity !== undefined || typeof message.content !== 'string' || message.content === '') return false;
    if (message.author.id !== meId) this.learnChannel(message.channel_id, message.author.id);
    const friendId = this.channelFriend.get(message.channel_id);
    if (friendId === undefined) return false;
    const list = this.byFriend.get(friendId) ?? [];
    if (list.some((entry) => entry.id === message.id)) return false;
    const at = Date.parse(message.timestamp);
    const edited = message.edited_timestamp === undefined ? Number.NaN : Date.parse(message.edited_timestamp);
    const entry: DmEntry = { id: message.id, authorId: message.author.id, content: message.content, applicationId: message.application_id ?? null, at: Number.isNaN(at) ? Date.now() : at, editedAt: Number.isNaN(edited) ? null : edited };
    // In id order (the platform's order): an older message (history loaded at sign-in) goes before newer ones.
    let index = list.length;
    while (index > 0 && newerId(list[index - 1]?.id ?? '', message.id)) index--;
    list.splice(index, 0, entry);
    if (list.length > DM_KEPT_PER_FRIEND) list.splice(0, list.length - DM_KEPT_PER_FRIEND);
    this.byFriend.delete(friendId);
    this.byFriend.set(friendId, list);
    if (this.byFriend.size > DM_KEPT_FRIENDS) this.byFriend.delete(this.byFriend.keys().next().value as string);
    return true;
  }

  /** An edit (MESSAGE_UPDATE with content) of a kept message: its new content; false when it is not kept or unchanged. */
  update(message: { readonly id: string; readonly channel_id: string; readonly content?: string; readonly edited_timestamp?: string }): boolean {
    const list = this.listOf(message.channel_id);
    const index = list?.findIndex((entry) => entry.id === message.id) ?? -1;
    const entry = index < 0 ? undefined : list?.[index];
    if (list === undefined || entry === undefined || typeof message.content !== 'string' || message.content === entry.content) return false;
    const edited = message.edited_timestamp === undefined ? Number.NaN : Date.parse(message.edited_timestamp);
    list[index] = { ...entry, content: message.content, editedAt: Number.isNaN(edited) ? Date.now() : edited };
    return true;
  }

  /** A deletion (MESSAGE_DELETE `{id, channel_id}`): the message leaves its conversation; false when it was not kept. */
  remove(messageId: string, channelId: string): boolean {
    const list = this.listOf(channelId);
    const index = list?.findIndex((entry) => entry.id === messageId) ?? -1;
    if (list === undefined || index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  private listOf(channelId: string): DmEntry[] | undefined {
    const friendId = this.channelFriend.get(channelId);
    return friendId === undefined ? undefined : this.byFriend.get(friendId);
  }

  /** The conversations, most recent first. */
  conversations(): { readonly friendId: string; readonly messages: readonly DmEntry[] }[] {
    return [...this.byFriend.entries()].reverse().map(([friendId, messages]) => ({ friendId, messages: [...messages] }));
  }

  clear(): void {
    this.byFriend.clear();
    this.channelFriend.clear();
  }
}
