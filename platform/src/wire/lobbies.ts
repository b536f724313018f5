import type { PlatformUser } from './gateway-types.js';

/** String key/value pairs on a lobby or a member: at most LOBBY_LIMITS.metadataChars in total (keys and values). */
export type LobbyMetadata = Readonly<Record<string, string>>;

/** Lobby member flags. */
export const LobbyMemberFlags = {
  /** The member can link a guild text channel to the lobby. */
  CanLinkLobby: 1 << 0,
} as const;

export interface LobbyMember {
  readonly id: string;
  readonly metadata: LobbyMetadata | null;
  readonly flags: number;
  /** **(ours)** Whether the member has a gateway session open (members stay members when they disconnect). */
  readonly connected: boolean;
  /** **(ours: the field)** The display name the game's server gave the member; it goes with their messages. Absent when none. */
  readonly additional_name?: string;
  /** **(ours: the public docs' member object has no user)** The member's user as others see them, so a game can show a stranger's name and avatar (the Social SDK's LobbyMemberHandle::User). */
  readonly user?: PlatformUser;
}

/** The guild text channel linked to a lobby (the public docs' `linked_channel`: a channel object). */
export interface LinkedChannel {
  readonly id: string;
  readonly type: 0;
  readonly guild_id: string;
  readonly name: string;
  readonly position: number;
  readonly parent_id: string | null;
}

/** A lobby channel invite (`POST /lobbies/{id}/members/@me/invites`): a single-use guild invite, valid one hour. */
export interface LobbyInvite {
  readonly code: string;
}

export interface Lobby {
  readonly id: string;
  readonly application_id: string;
  readonly metadata: LobbyMetadata | null;
  readonly members: readonly LobbyMember[];
  readonly linked_channel?: LinkedChannel;
}

/** A message in a lobby (the channel message shape, with the lobby's id as its channel). */
export interface LobbyMessage {
  readonly id: string;
  readonly type: 0;
  readonly content: string;
  readonly lobby_id: string;
  readonly channel_id: string;
  readonly author: PlatformUser;
  readonly metadata?: LobbyMetadata;
  readonly moderation_metadata?: LobbyMetadata;
  readonly flags: number;
  readonly application_id: string;
  /** ISO 8601. */
  readonly timestamp: string;
  /** ISO 8601: when its author last edited it; absent until then. */
  readonly edited_timestamp?: string;
  /** The author's display name from the game's server (MessageHandle::AdditionalName); absent when none. */
  readonly additional_name?: string;
}

/** LOBBY_MESSAGE_DELETE's data on the gateway **(ours)**; the webhook event carries `{id, lobby_id}` (the public docs' shape). */
export interface LobbyMessageDeleteEvent {
  readonly id: string;
  readonly lobby_id: string;
  readonly channel_id: string;
}

/** Moderation metadata a game's server sets on a message (lobby or DM): the public docs' limits. */
export const MODERATION_METADATA_LIMITS = { keys: 5, keyChars: 1024, valueChars: 2000 } as const;

/** The limits of the public docs, and ours where they are silent. */
export const LOBBY_LIMITS = {
  metadataChars: 1000,
  membersPerLobby: 1000,
  lobbiesPerUserPerApp: 100,
  secretChars: 250,
  secretTtlMs: 30 * 24 * 60 * 60 * 1000,
  idleTimeoutDefaultSeconds: 300,
  idleTimeoutMinSeconds: 5,
  idleTimeoutMaxSeconds: 604_800,
  /** Members in one server-side create, modify or bulk request. */
  membersPerRequest: 25,
  /** What `GET /lobbies/{id}/messages` returns at most, and how far back (the SDK's GetLobbyMessagesWithLimit). */
  messagesKept: 200,
  messageAgeMs: 72 * 60 * 60 * 1000,
  /** **(ours)** the message content limit of channel messages. */
  messageChars: 2000,
} as const;

/** Gateway dispatches to a lobby's members **(ours: the names and payloads; the public record does not show the SDK's gateway events)**. */
export const LobbyEvent = {
  Create: 'LOBBY_CREATE',
  Update: 'LOBBY_UPDATE',
  Delete: 'LOBBY_DELETE',
  MemberAdd: 'LOBBY_MEMBER_ADD',
  MemberUpdate: 'LOBBY_MEMBER_UPDATE',
  MemberRemove: 'LOBBY_MEMBER_REMOVE',
  MessageCreate: 'LOBBY_MESSAGE_CREATE',
  MessageUpdate: 'LOBBY_MESSAGE_UPDATE',
  MessageDelete: 'LOBBY_MESSAGE_DELETE',
} as const;
