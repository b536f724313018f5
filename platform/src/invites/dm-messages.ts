import type { Dispatcher } from '../gateway/sessions.js';
import type { PlatformLogger } from '../support/logger.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../state/model.js';
import { toPlatformUser, type Store } from '../state/store.js';
import { GatewayEvent, type PlatformMessage } from '../wire/index.js';
import type { InviteService } from './invites.js';

/**
 * A message as the API and the gateway carry it, as `viewer` sees it: the application of a
 * game's token (or bot token) sees its own moderation metadata; a user token (null) sees none.
 */
export function toPlatformMessage(store: Store, message: MessageRecord, viewer: string | null = null): PlatformMessage {
  const moderation = viewer === null ? undefined : message.moderation_metadata?.[viewer];
  const author = store.user(message.author_id);
  return {
    id: message.id,
    channel_id: message.channel_id,
    author: author === undefined ? { id: message.author_id, username: 'deleted_user', discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 } : toPlatformUser(author),
    content: message.content,
    timestamp: message.timestamp,
    type: 0,
    ...(message.activity !== undefined ? { activity: message.activity } : {}),
    ...(message.application_id !== undefined ? { application_id: message.application_id } : {}),
    ...(message.application !== undefined ? { application: message.application } : {}),
    ...(message.invite_activity !== undefined ? { invite_activity: message.invite_activity } : {}),
    ...(message.invite !== undefined ? { invite_expires_at: message.invite.expires_at } : {}),
    ...(message.edited_timestamp !== undefined ? { edited_timestamp: message.edited_timestamp } : {}),
    ...(message.metadata !== undefined ? { metadata: message.metadata } : {}),
    ...(moderation !== undefined ? { moderation_metadata: moderation } : {}),
  };
}

/** Sends `t` with the message to both recipients' sessions, each as its application sees it. */
export function tellRecipients(deps: Pick<DmMessageDeps, 'store' | 'dispatcher'>, channel: ChannelRecord, t: string, message: MessageRecord): void {
  const view = (app: string | null): PlatformMessage => toPlatformMessage(deps.store, message, app);
  for (const id of channel.recipient_ids ?? []) deps.dispatcher.dispatchToUserAs(id, t, view);
}

/** What posting into a DM needs: the HTTP routes and the simulated friend share it. */
export interface DmMessageDeps {
  readonly store: Store;
  readonly invites: InviteService;
  readonly dispatcher: Dispatcher;
  readonly now: () => number;
  readonly logger: PlatformLogger;
}

export interface DmMessageInput {
  readonly content?: string | undefined;
  /** An invite (type 1) or a join request (type 5). */
  readonly activity?: { readonly type: number; readonly party_id?: string | undefined } | undefined;
  readonly application_id?: string | undefined;
  /** The sender's key/value pairs, stored and returned with the message. */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

/**
 * Posts a message from `author` into a DM channel and sends MESSAGE_CREATE to both
 * recipients. An activity message that the author may not send throws InviteError.
 */
export function postDmMessage(deps: DmMessageDeps, author: UserRecord, channel: ChannelRecord, input: DmMessageInput): PlatformMessage {
  const { store } = deps;
  const recipientId = channel.recipient_ids?.find((id) => id !== author.id) ?? author.id;
  // A plain message names the game that sent it, when one did (a game's own token).
  const fields: Partial<MessageRecord> =
    input.activity === undefined
      ? input.application_id === undefined
        ? {}
        : { application_id: input.application_id }
      : deps.invites.activityMessageFields(author, recipientId, input.activity, input.application_id);
  const message: MessageRecord = {
    id: store.ids.next(),
    channel_id: channel.id,
    author_id: author.id,
    content: input.content ?? '',
    timestamp: new Date(deps.now()).toISOString(),
    ...fields,
    ...(input.metadata === undefined || Object.keys(input.metadata).length === 0 ? {} : { metadata: { ...input.metadata } }),
  };
  store.addMessage(message);
  const view = toPlatformMessage(store, message);
  for (const id of channel.recipient_ids ?? []) deps.dispatcher.dispatchToUser(id, GatewayEvent.MessageCreate, view);
  deps.logger.debug({ userId: author.id, channelId: channel.id, messageId: message.id, activityType: message.activity?.type }, 'message created');
  return view;
}

/** Declines a join request as its recipient and sends MESSAGE_UPDATE to both; false if it was declined already. */
export function declineDmRequest(deps: DmMessageDeps, user: UserRecord, channel: ChannelRecord, messageId: string): boolean {
  const updated = deps.invites.decline(user, channel, messageId);
  if (updated === undefined) return false;
  tellRecipients(deps, channel, GatewayEvent.MessageUpdate, updated);
  return true;
}
