import type { WireMessage } from './wire/objects.js';

/**
 * What a message carries besides its text, in the Social SDK's shapes: the activity invite or
 * join request of a DM (discordpp::ActivityInvite) and the content a game likely cannot show
 * (discordpp::AdditionalContent).
 */

/** discordpp::ActivityActionTypes: an invite to join (1) or a request to join (5). */
export const ActivityActionTypes = { Join: 1, JoinRequest: 5 } as const;
export type ActivityActionTypes = (typeof ActivityActionTypes)[keyof typeof ActivityActionTypes];

/** discordpp::AdditionalContentType. */
export const AdditionalContentType = { Other: 0, Attachment: 1, Poll: 2, VoiceMessage: 3, Thread: 4, Embed: 5, Sticker: 6 } as const;
export type AdditionalContentType = (typeof AdditionalContentType)[keyof typeof AdditionalContentType];

/** The invite or join request a DM carries (discordpp::ActivityInvite's fields). */
export interface MessageActivityInvite {
  /** Join (an invite: accept it with acceptActivityInvite) or JoinRequest (a friend asks to join: sendActivityJoinRequestReply). */
  readonly type: ActivityActionTypes;
  /** Who sent it: the message's author. */
  readonly senderId: string;
  readonly applicationId: string;
  /** The party it is for ('' when the message names none). */
  readonly partyId: string;
  readonly messageId: string;
  readonly channelId: string;
  /**
   * When the handle was made: an invite not yet past its end (the emulator's 6 hours), a join
   * request not declined. Accepting also needs the sender's party to be the same still: the
   * platform checks that.
   */
  readonly isValid: boolean;
}

/** Content of a message a game likely cannot show (discordpp::AdditionalContent). */
export interface AdditionalContent {
  readonly type: AdditionalContentType;
  /** The poll's question or the thread's name; null otherwise. */
  readonly title: string | null;
  /** How many (e.g. "2 more images"). */
  readonly count: number;
}

/** IS_VOICE_MESSAGE (message flag 1 << 13). */
const VOICE_MESSAGE_FLAG = 1 << 13;

/** The invite or join request of a message, or null for a message without one (or of another activity type). */
export function activityInviteOf(message: WireMessage, now: number = Date.now()): MessageActivityInvite | null {
  const activity = message.activity ?? null;
  if (activity === null || (activity.type !== ActivityActionTypes.Join && activity.type !== ActivityActionTypes.JoinRequest)) return null;
  const isJoin = activity.type === ActivityActionTypes.Join;
  const isValid = isJoin ? message.invite_expires_at === undefined || now < message.invite_expires_at : activity.declined !== true;
  return {
    type: activity.type,
    senderId: message.author?.id ?? '',
    applicationId: message.application_id ?? '',
    partyId: activity.party_id ?? '',
    messageId: message.id,
    channelId: message.channel_id ?? '',
    isValid,
  };
}

/** What of the message cannot be shown as text: a poll, a thread, a voice message, attachments, stickers, embeds (the first found), else null. */
export function additionalContentOf(message: WireMessage): AdditionalContent | null {
  if (message.poll !== undefined && message.poll !== null) return { type: AdditionalContentType.Poll, title: message.poll.question?.text ?? null, count: 1 };
  if (message.thread !== undefined && message.thread !== null) return { type: AdditionalContentType.Thread, title: message.thread.name ?? null, count: 1 };
  const attachments = message.attachments?.length ?? 0;
  if (attachments > 0) {
    const voice = ((message.flags ?? 0) & VOICE_MESSAGE_FLAG) !== 0;
    return { type: voice ? AdditionalContentType.VoiceMessage : AdditionalContentType.Attachment, title: null, count: attachments };
  }
  const stickers = message.sticker_items?.length ?? 0;
  if (stickers > 0) return { type: AdditionalContentType.Sticker, title: null, count: stickers };
  const embeds = message.embeds?.length ?? 0;
  if (embeds > 0) return { type: AdditionalContentType.Embed, title: null, count: embeds };
  return null;
}
