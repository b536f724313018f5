import { bearerCall, fail, isRecord, type BearerCallOptions } from './platform-request.js';
import { ClientResult } from './client-result.js';
import { requireMessageId, toMessageHandle, type MessageHandle } from './lobby-api.js';

/**
 * Direct messages between players of the same game, with the game's own Bearer token: the DM
 * channel with a user (`POST /api/v10/users/@me/channels`, made once, then reused), sending into
 * it, reading it (newest first), and editing or deleting the player's own messages. Failures reject with a ClientResultError; the token never
 * reaches a message.
 */

/** The most a DM read returns at once (the platform's limit for channel messages). */
export const MAX_DM_MESSAGES = 100;

function requireUserId(userId: string): string {
  if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId)) throw new TypeError('recipientId must be a user id (a snowflake)');
  return userId;
}

/** The DM channel's id with this user. */
export async function dmChannel(options: BearerCallOptions, recipientId: string): Promise<string> {
  const json = await bearerCall(options, 'POST', '/users/@me/channels', { recipient_id: requireUserId(recipientId) });
  if (!isRecord(json) || typeof json.id !== 'string') return fail(ClientResult.failure('ServerError', 'malformed channel answer: no id'));
  return json.id;
}

export async function sendDm(options: BearerCallOptions, channelId: string, content: string): Promise<MessageHandle> {
  if (typeof content !== 'string' || content.trim().length === 0) throw new TypeError('content must not be empty');
  return toMessageHandle(await bearerCall(options, 'POST', `/channels/${encodeURIComponent(channelId)}/messages`, { content }));
}

export async function readDms(options: BearerCallOptions, channelId: string, limit: number): Promise<MessageHandle[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DM_MESSAGES) throw new RangeError(`limit must be an integer from 1 to ${MAX_DM_MESSAGES}`);
  const json = await bearerCall(options, 'GET', `/channels/${encodeURIComponent(channelId)}/messages?limit=${limit}`);
  if (!Array.isArray(json)) return fail(ClientResult.failure('ServerError', 'malformed messages answer: not a list'));
  return json.map(toMessageHandle);
}

/** Client::EditUserMessage: `PATCH /channels/{id}/messages/{id}` (the author only); answers the message as edited. */
export async function editDm(options: BearerCallOptions, channelId: string, messageId: string, content: string): Promise<MessageHandle> {
  if (typeof content !== 'string' || content.trim().length === 0) throw new TypeError('content must not be empty');
  return toMessageHandle(await bearerCall(options, 'PATCH', `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(requireMessageId(messageId))}`, { content }));
}

/** Client::DeleteUserMessage: `DELETE /channels/{id}/messages/{id}` (the author only). */
export async function deleteDm(options: BearerCallOptions, channelId: string, messageId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(requireMessageId(messageId))}`);
}
