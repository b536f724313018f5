import { bearerCall, fail, isRecord, type BearerCallOptions } from './platform-request.js';
import { ClientResult } from './client-result.js';

/**
 * The lobby calls of a game's own platform session (the Social SDK's lobbies), with the game's
 * Bearer token: `PUT /api/v10/lobbies` (create or join by secret), `GET /lobbies/{id}`, leave,
 * send, read, edit and delete messages. Answers in the SDK's shapes (camelCase handles); failures reject with
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
}

/** The options of a call with the game's own token. */
export type LobbyCallOptions = BearerCallOptions;

function metadataOf(value: unknown): Metadata {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function malformed(what: string): never {
  return fail(ClientResult.failure('ServerError', `malformed lobby answer: ${what}`));
}

export function toLobbyHandle(json: unknown): LobbyHandle {
  if (!isRecord(json) || typeof json.id !== 'string') return malformed('no lobby id');
  const members = (Array.isArray(json.members) ? json.members : []).filter(isRecord).map((member) => ({
    id: str(member.id),
    metadata: metadataOf(member.metadata),
    flags: typeof member.flags === 'number' ? member.flags : 0,
    canLinkLobby: typeof member.flags === 'number' && (member.flags & 1) !== 0,
    connected: member.connected === true,
  }));
  const linked = isRecord(json.linked_channel) ? json.linked_channel : null;
  return {
    id: json.id,
    applicationId: str(json.application_id),
    metadata: metadataOf(json.metadata),
    lobbyMemberIds: members.map((m) => m.id),
    lobbyMembers: members,
    linkedChannel: linked === null ? null : { id: str(linked.id), name: str(linked.name), guildId: str(linked.guild_id) },
  };
}

export function toMessageHandle(json: unknown): MessageHandle {
  if (!isRecord(json) || typeof json.id !== 'string') return malformed('no message id');
  const author = isRecord(json.author) ? json.author : {};
  const sent = Date.parse(str(json.timestamp));
  const edited = Date.parse(str(json.edited_timestamp));
  return {
    id: json.id,
    content: str(json.content),
    authorId: str(author.id),
    lobbyId: typeof json.lobby_id === 'string' ? json.lobby_id : null,
    channelId: str(json.channel_id),
    applicationId: typeof json.application_id === 'string' ? json.application_id : null,
    sentTimestamp: Number.isNaN(sent) ? 0 : sent,
    editedTimestamp: Number.isNaN(edited) ? 0 : edited,
    metadata: metadataOf(json.metadata),
    moderationMetadata: metadataOf(json.moderation_metadata),
    additionalName: typeof json.additional_name === 'string' ? json.additional_name : null,
  };
}

const seg = (id: string): string => encodeURIComponent(id);

export async function createOrJoinLobby(options: LobbyCallOptions, secret: string, lobbyMetadata?: Metadata, memberMetadata?: Metadata): Promise<LobbyHandle> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  return toLobbyHandle(await bearerCall(options, 'PUT', '/lobbies', { secret, ...(lobbyMetadata === undefined ? {} : { lobby_metadata: lobbyMetadata }), ...(memberMetadata === undefined ? {} : { member_metadata: memberMetadata }) }));
}

export async function getLobby(options: LobbyCallOptions, lobbyId: string): Promise<LobbyHandle> {
  return toLobbyHandle(await bearerCall(options, 'GET', `/lobbies/${seg(lobbyId)}`));
}

export async function leaveLobby(options: LobbyCallOptions, lobbyId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/lobbies/${seg(lobbyId)}/members/@me`);
}

/** Client::LinkChannelToLobby / UnlinkChannelFromLobby (`channelId` null): `PATCH /lobbies/{id}/channel-linking`. */
export async function linkChannel(options: LobbyCallOptions, lobbyId: string, channelId: string | null): Promise<LobbyHandle> {
  return toLobbyHandle(await bearerCall(options, 'PATCH', `/lobbies/${seg(lobbyId)}/channel-linking`, channelId === null ? {} : { channel_id: channelId }));
}

export async function sendLobbyMessage(options: LobbyCallOptions, lobbyId: string, content: string, metadata?: Metadata): Promise<MessageHandle> {
  return toMessageHandle(await bearerCall(options, 'POST', `/lobbies/${seg(lobbyId)}/messages`, { content, ...(metadata === undefined ? {} : { metadata }) }));
}

/** A message's id, checked before it reaches a path. */
export function requireMessageId(messageId: string): string {
  if (typeof messageId !== 'string' || !/^\d{1,20}$/.test(messageId)) throw new TypeError('messageId must be a message id (a snowflake)');
  return messageId;
}

/** The author changes a lobby message's content **(ours: the Social SDK has no lobby edit)**: `PATCH /lobbies/{id}/messages/{id}`. */
export async function editLobbyMessage(options: LobbyCallOptions, lobbyId: string, messageId: string, content: string): Promise<MessageHandle> {
  return toMessageHandle(await bearerCall(options, 'PATCH', `/lobbies/${seg(lobbyId)}/messages/${seg(requireMessageId(messageId))}`, { content }));
}

/** The author deletes a lobby message **(ours)**: `DELETE /lobbies/{id}/messages/{id}`. */
export async function deleteLobbyMessage(options: LobbyCallOptions, lobbyId: string, messageId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/lobbies/${seg(lobbyId)}/messages/${seg(requireMessageId(messageId))}`);
}

/** At most `limit` (1-200) messages, newest first, none older than 72 hours (the platform's rule). */
export async function getLobbyMessagesWithLimit(options: LobbyCallOptions, lobbyId: string, limit: number): Promise<MessageHandle[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new RangeError('limit must be an integer from 1 to 200');
  const json = await bearerCall(options, 'GET', `/lobbies/${seg(lobbyId)}/messages?limit=${limit}`);
  if (!Array.isArray(json)) return malformed('messages are not a list');
  return json.map(toMessageHandle);
}
