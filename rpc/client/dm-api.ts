import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';
import { messageAnswer, messageListAnswer, requireMessageId, type MessageHandle } from './lobby-api.js';
import { ChannelAnswerSchema } from './wire/http.js';

/**
 * Direct messages between players of the same game, with the game's own Bearer token: the DM
 * channel with a user (`POST /api/v10/users/@me/channels`, made once, then reused), sending into
 * it, reading it (newest first), and editing or deleting the player's own messages. Answers are checked against
 * their schemas (wire/http.ts). Failures reject with a ClientResultError; the token never
 * reaches a message.
 */

/** The most a DM read returns at once (the platform's limit for channel messages). */
export const MAX_DM_MESSAGES = 100;

function requireUserId(userId: string): string {
  if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId)) throw new TypeError('recipientId must be a user id (a snowflake)');
  return userId;
}

/** A message's metadata: a plain object of string values (the platform checks its size). */
export function requireMetadata(metadata: unknown): void {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || !Object.values(metadata).every((value) => typeof value === 'string')) {
    throw new TypeError('metadata must be an object of string values');
  }
}

/** The DM channel's id with this user. */
export async function dmChannel(options: BearerCallOptions, recipientId: string): Promise<string> {
  const json = await bearerCall(options, 'POST', '/users/@me/channels', { recipient_id: requireUserId(recipientId) });
  return answerOf(ChannelAnswerSchema, json, 'channel').id;
}

export async function sendDm(options: BearerCallOptions, channelId: string, content: string, metadata?: Readonly<Record<string, string>>): Promise<MessageHandle> {
  if (typeof content !== 'string' || content.trim().length === 0) throw new TypeError('content must not be empty');
  if (metadata !== undefined) requireMetadata(metadata);
  return messageAnswer(await bearerCall(options, 'POST', `/channels/${encodeURIComponent(channelId)}/messages`, { content, ...(metadata === undefined ? {} : { metadata }) }));
}

export async function readDms(options: BearerCallOptions, channelId: string, limit: number): Promise<MessageHandle[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DM_MESSAGES) throw new RangeError(`limit must be an integer from 1 to ${MAX_DM_MESSAGES}`);
  return messageListAnswer(await bearerCall(options, 'GET', `/channels/${encodeURIComponent(channelId)}/messages?limit=${limit}`));
}

/** Client::EditUserMessage: `PATCH /channels/{id}/messages/{id}` (the author only); answers the message as edited. */
export async function editDm(options: BearerCallOptions, channelId: string, messageId: string, content: string): Promise<MessageHandle> {
  if (typeof content !== 'string' || content.trim().length === 0) throw new TypeError('content must not be empty');
  return messageAnswer(await bearerCall(options, 'PATCH', `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(requireMessageId(messageId))}`, { content }));
}

/** Client::DeleteUserMessage: `DELETE /channels/{id}/messages/{id}` (the author only). */
export async function deleteDm(options: BearerCallOptions, channelId: string, messageId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(requireMessageId(messageId))}`);
}
