import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';
import type { WireLobby, WireLobbyMember, WireMessage, WireUser } from './wire/objects.js';
import { activityInviteOf, additionalContentOf, type AdditionalContent, type MessageActivityInvite } from './message-content.js';
import type { UserHandle } from './user-handle.js';
import { LobbyAnswerSchema, MessageAnswerSchema, MessageListSchema } from './wire/http.js';

/**
 * The lobby calls of a game's own platform session (the Social SDK's lobbies), with the game's
 * Bearer token: `PUT /api/v10/lobbies` (create or join by secret), `GET /lobbies/{id}`, leave,
 * send, read, edit and delete messages. Answers are checked against their schemas (wire/http.ts)
 * and given in the SDK's shapes (camelCase handles); failures reject with
 * a ClientResultError (its `retryAfter` from a 429). The token never reaches a message.
 */

export type Metadata = Readonly<Record<string, string>>;

export interface LobbyMemberHandle {
  readonly id: string;
  readonly metadata: Metadata;
  readonly flags: number;
  /** The member can link a text channel to the lobby (flag CanLinkLobby). */
  readonly canLinkLobby: boolean;
  /** Whether the member has a session open with the platform. */
  readonly connected: boolean;
  /** LobbyMemberHandle::User: the member as a live UserHandle (the Client's lobbies give it; undefined for a handle made elsewhere). */
  user(): UserHandle | undefined;
}

/** The guild text channel linked to a lobby (LobbyHandle::LinkedChannel). */
export interface LinkedChannelHandle {
  readonly id: string;
  readonly name: string;
  readonly guildId: string;
}

export interface LobbyHandle {
  readonly id: string;
  readonly applicationId: string;
  readonly metadata: Metadata;
  readonly lobbyMemberIds: readonly string[];
  readonly lobbyMembers: readonly LobbyMemberHandle[];
  /** null when no channel is linked. */
  readonly linkedChannel: LinkedChannelHandle | null;
}

export interface MessageHandle {
  readonly id: string;
  readonly content: string;
  readonly authorId: string;
  readonly lobbyId: string | null;
  readonly channelId: string;
  readonly applicationId: string | null;
  /** Epoch ms. */
  readonly sentTimestamp: number;
  /** Epoch ms of its author's last edit; 0 when it was never edited (the Social SDK's EditedTimestamp). */
  readonly editedTimestamp: number;
  readonly metadata: Metadata;
  readonly moderationMetadata: Metadata;
  /** A name the game's server gave the author in this lobby, when it did. */
  readonly additionalName: string | null;
  /** The platform's message type: 0 (DEFAULT) for chat, invites and join requests alike (tell those apart by `activityInvite`). */
  readonly type: number;
  /** The invite (`Join`) or join request (`JoinRequest`) the DM carries, null for a chat message (discordpp::ActivityInvite's fields). Such a DM's `content` is the sender's optional text, often ''. */
  readonly activityInvite: MessageActivityInvite | null;
  /** MessageHandle::AdditionalContent: a poll, thread, voice message, attachments, stickers or embeds the game likely cannot show; null when there is none. */
  readonly additionalContent: AdditionalContent | null;
  /** MessageHandle::SentFromGame: a game sent it (it names an application). */
  readonly sentFromGame: boolean;
}

/** The options of a call with the game's own token. */
export type LobbyCallOptions = BearerCallOptions;

/** Metadata as sent (the schema checked its entries are strings); none is empty. */
function metadataOf(value: Metadata | null | undefined): Metadata {
  return value ?? {};
}

/** A lobby as the platform sent it (checked: a dispatch's data, or an answer through answerOf) in the SDK's shape. */
export function toLobbyHandle(lobby: WireLobby): LobbyHandle {
  const members = (lobby.members ?? []).map(toMemberHandle);
  const linked = lobby.linked_channel ?? null;
  return {
    id: lobby.id,
    applicationId: lobby.application_id ?? '',
    metadata: metadataOf(lobby.metadata),
    lobbyMemberIds: members.map((m) => m.id),
    lobbyMembers: members,
    linkedChannel: linked === null ? null : { id: linked.id, name: linked.name ?? '', guildId: linked.guild_id ?? '' },
  };
}

/** The user objects the platform sent with members and message authors, for the Client's user cache (usersOf). */
const sentUsers = new WeakMap<object, WireUser>();

/** The user the platform sent with this member or message (its author), if it sent one with a username. */
export function sentUserOf(handle: LobbyMemberHandle | MessageHandle): WireUser | undefined {
  return sentUsers.get(handle);
}

const noUser = (): undefined => undefined;

export function toMemberHandle(member: WireLobbyMember): LobbyMemberHandle {
  const flags = member.flags ?? 0;
  const handle: LobbyMemberHandle = { id: member.id, metadata: metadataOf(member.metadata), flags, canLinkLobby: (flags & 1) !== 0, connected: member.connected === true, user: noUser };
  if (member.user !== undefined) sentUsers.set(handle, member.user);
  return handle;
}

/** Epoch ms of an ISO 8601 time; 0 when there is none or it does not parse. */
function epochOf(time: string | null | undefined): number {
  const ms = Date.parse(time ?? '');
  return Number.isNaN(ms) ? 0 : ms;
}

/** A message as the platform sent it (checked) in the SDK's shape. */
export function toMessageHandle(message: WireMessage): MessageHandle {
  const handle: MessageHandle = {
    id: message.id,
    content: message.content ?? '',
    authorId: message.author?.id ?? '',
    lobbyId: message.lobby_id ?? null,
    channelId: message.channel_id ?? '',
    applicationId: message.application_id ?? null,
    sentTimestamp: epochOf(message.timestamp),
    editedTimestamp: epochOf(message.edited_timestamp),
    metadata: metadataOf(message.metadata),
    moderationMetadata: metadataOf(message.moderation_metadata),
    additionalName: message.additional_name ?? null,
    type: message.type ?? 0,
    activityInvite: activityInviteOf(message),
    additionalContent: additionalContentOf(message),
    sentFromGame: message.application_id !== undefined && message.application_id !== null,
  };
  const author = message.author;
  if (author !== undefined && typeof author.username === 'string') sentUsers.set(handle, author as WireUser);
  return handle;
}

/** An answer that is a lobby, in the SDK's shape. */
export const lobbyAnswer = (json: unknown): LobbyHandle => toLobbyHandle(answerOf(LobbyAnswerSchema, json, 'lobby'));
/** An answer that is a message, in the SDK's shape. */
export const messageAnswer = (json: unknown): MessageHandle => toMessageHandle(answerOf(MessageAnswerSchema, json, 'message'));
/** An answer that is a list of messages, in the SDK's shapes. */
export const messageListAnswer = (json: unknown): MessageHandle[] => answerOf(MessageListSchema, json, 'messages').map(toMessageHandle);

const seg = (id: string): string => encodeURIComponent(id);

export async function createOrJoinLobby(options: LobbyCallOptions, secret: string, lobbyMetadata?: Metadata, memberMetadata?: Metadata): Promise<LobbyHandle> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  return lobbyAnswer(await bearerCall(options, 'PUT', '/lobbies', { secret, ...(lobbyMetadata === undefined ? {} : { lobby_metadata: lobbyMetadata }), ...(memberMetadata === undefined ? {} : { member_metadata: memberMetadata }) }));
}

export async function getLobby(options: LobbyCallOptions, lobbyId: string): Promise<LobbyHandle> {
  return lobbyAnswer(await bearerCall(options, 'GET', `/lobbies/${seg(lobbyId)}`));
}

export async function leaveLobby(options: LobbyCallOptions, lobbyId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/lobbies/${seg(lobbyId)}/members/@me`);
}

/** Client::LinkChannelToLobby / UnlinkChannelFromLobby (`channelId` null): `PATCH /lobbies/{id}/channel-linking`. */
export async function linkChannel(options: LobbyCallOptions, lobbyId: string, channelId: string | null): Promise<LobbyHandle> {
  return lobbyAnswer(await bearerCall(options, 'PATCH', `/lobbies/${seg(lobbyId)}/channel-linking`, channelId === null ? {} : { channel_id: channelId }));
}

export async function sendLobbyMessage(options: LobbyCallOptions, lobbyId: string, content: string, metadata?: Metadata): Promise<MessageHandle> {
  return messageAnswer(await bearerCall(options, 'POST', `/lobbies/${seg(lobbyId)}/messages`, { content, ...(metadata === undefined ? {} : { metadata }) }));
}

/** A message's id, checked before it reaches a path. */
export function requireMessageId(messageId: string): string {
  if (typeof messageId !== 'string' || !/^\d{1,20}$/.test(messageId)) throw new TypeError('messageId must be a message id (a snowflake)');
  return messageId;
}

/** The author changes a lobby message's content **(ours: the Social SDK has no lobby edit)**: `PATCH /lobbies/{id}/messages/{id}`. */
export async function editLobbyMessage(options: LobbyCallOptions, lobbyId: string, messageId: string, content: string): Promise<MessageHandle> {
  return messageAnswer(await bearerCall(options, 'PATCH', `/lobbies/${seg(lobbyId)}/messages/${seg(requireMessageId(messageId))}`, { content }));
}

/** The author deletes a lobby message **(ours)**: `DELETE /lobbies/{id}/messages/{id}`. */
export async function deleteLobbyMessage(options: LobbyCallOptions, lobbyId: string, messageId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/lobbies/${seg(lobbyId)}/messages/${seg(requireMessageId(messageId))}`);
}

/** At most `limit` (1-200) messages, newest first, none older than 72 hours (the platform's rule). */
export async function getLobbyMessagesWithLimit(options: LobbyCallOptions, lobbyId: string, limit: number): Promise<MessageHandle[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new RangeError('limit must be an integer from 1 to 200');
  return messageListAnswer(await bearerCall(options, 'GET', `/lobbies/${seg(lobbyId)}/messages?limit=${limit}`));
}
