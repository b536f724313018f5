import type { AppRecord, ChannelRecord, MessageRecord, UserRecord } from '../state/model.js';
import { GatewayEvent, WebhookEventType, type MessageDeleteEvent, type PlatformMessage } from '../wire/index.js';
import { tellRecipients, toPlatformMessage, type DmMessageDeps } from './dm-messages.js';

/** Why a change to a DM message was refused; the HTTP layer maps `reason` to a status and code. */
export class DmEditError extends Error {
  constructor(
    readonly reason: 'unknown_message' | 'unknown_channel' | 'not_author_edit' | 'not_author_delete' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'DmEditError';
  }
}

/** What changing DM messages needs: posting's dependencies, and the game servers' webhook events. */
export interface DmEditDeps extends DmMessageDeps {
  /** A signed webhook event to an application (nothing when it has no webhook URL). */
  readonly appEvent?: ((applicationId: string, type: string, data: unknown) => void) | undefined;
}

/**
 * A game's DM (one that carries its `application_id`, and no invite): what its game's server hears
 * of (GAME_DIRECT_MESSAGE_*), as GAME_DIRECT_MESSAGE_CREATE is sent only for those.
 */
function gameOf(message: MessageRecord): string | undefined {
  return message.activity === undefined ? message.application_id : undefined;
}

function find(deps: DmMessageDeps, channel: ChannelRecord, messageId: string): MessageRecord {
  const message = deps.store.message(channel.id, messageId);
  if (message === undefined) throw new DmEditError('unknown_message', 'Unknown Message');
  return message;
}

/**
 * The author changes a message's content: `edited_timestamp` is set, both recipients get
 * MESSAGE_UPDATE, and a game's DM sends GAME_DIRECT_MESSAGE_UPDATE to its game's server.
 * Answers the message as `viewer` (the caller's application, or null) sees it.
 */
export function editDmMessage(deps: DmEditDeps, user: UserRecord, channel: ChannelRecord, messageId: string, content: string, viewer: string | null): PlatformMessage {
  const message = find(deps, channel, messageId);
  if (message.author_id !== user.id) throw new DmEditError('not_author_edit', 'Cannot edit a message authored by another user');
  if (content.trim().length === 0 && message.activity === undefined) throw new DmEditError('empty', 'Cannot send an empty message');
  message.content = content;
  message.edited_timestamp = new Date(deps.now()).toISOString();
  deps.store.touched();
  tellRecipients(deps, channel, GatewayEvent.MessageUpdate, message);
  const game = gameOf(message);
  if (game !== undefined) deps.appEvent?.(game, WebhookEventType.GameDirectMessageUpdate, toPlatformMessage(deps.store, message, game));
  deps.logger.debug({ userId: user.id, channelId: channel.id, messageId }, 'message edited');
  return toPlatformMessage(deps.store, message, viewer);
}

/**
 * The author deletes a message: both recipients get MESSAGE_DELETE `{id, channel_id}`, and a
 * game's DM sends GAME_DIRECT_MESSAGE_DELETE (the message, as the public docs show) to its
 * game's server. In a DM only the author may delete.
 */
export function deleteDmMessage(deps: DmEditDeps, user: UserRecord, channel: ChannelRecord, messageId: string): void {
  const message = find(deps, channel, messageId);
  if (message.author_id !== user.id) throw new DmEditError('not_author_delete', 'Cannot execute action on a DM channel');
  deps.store.deleteMessage(channel.id, messageId);
  const event: MessageDeleteEvent = { id: message.id, channel_id: channel.id };
  for (const id of channel.recipient_ids ?? []) deps.dispatcher.dispatchToUser(id, GatewayEvent.MessageDelete, event);
  const game = gameOf(message);
  if (game !== undefined) deps.appEvent?.(game, WebhookEventType.GameDirectMessageDelete, toPlatformMessage(deps.store, message, game));
  deps.logger.debug({ userId: user.id, channelId: channel.id, messageId }, 'message deleted');
}

/**
 * A game's server sets its moderation metadata on a message of the DM between two users
 * (replacing what it set before). Only messages its game sent (`application_id`) are its to
 * moderate **(ours)**: any other is unknown to it. The recipients' sessions of that application
 * get MESSAGE_UPDATE with the metadata (others get the message without it), and the server
 * GAME_DIRECT_MESSAGE_UPDATE.
 */
export function setDmModerationMetadata(deps: DmEditDeps, app: AppRecord, userIds: readonly [string, string], messageId: string, metadata: Record<string, string>): void {
  const [a, b] = userIds;
  // The DM of exactly these two (in either order).
  const channel = deps.store.dmChannels(a).find((candidate) => (candidate.recipient_ids ?? []).every((id) => id === a || id === b) && candidate.recipient_ids?.includes(b) === true);
  if (channel === undefined) throw new DmEditError('unknown_channel', 'Unknown Channel');
  const message = find(deps, channel, messageId);
  if (message.application_id !== app.id) throw new DmEditError('unknown_message', 'Unknown Message');
  message.moderation_metadata = { ...message.moderation_metadata, [app.id]: { ...metadata } };
  deps.store.touched();
  tellRecipients(deps, channel, GatewayEvent.MessageUpdate, message);
  deps.appEvent?.(app.id, WebhookEventType.GameDirectMessageUpdate, toPlatformMessage(deps.store, message, app.id));
}
