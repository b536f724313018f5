import type { Lobby } from './lobbies.js';

/**
 * Wire shapes of the platform's gateway and HTTP API as the emulator speaks them and the
 * host's client reads them. Shared by platform/ (server side) and main/ (client side), so
 * one change shows in both. Field names follow the platform's JSON (snake_case).
 */

/** Every gateway message: `s` and `t` are null unless `op` is 0 (Dispatch). */
export interface GatewayPayload<D = unknown> {
  readonly op: number;
  readonly d: D;
  readonly s: number | null;
  readonly t: string | null;
}

export type PresenceStatus = 'online' | 'dnd' | 'idle' | 'invisible' | 'offline';

export interface PlatformUser {
  readonly id: string;
  readonly username: string;
  readonly discriminator: string;
  readonly global_name: string | null;
  readonly avatar: string | null;
  readonly bot: boolean;
  readonly flags: number;
  readonly premium_type: number;
  /** Only on provisional accounts (a game's account of a player with no login of their own). **(ours)** */
  readonly provisional?: true;
}

/**
 * A rich-presence activity as sent in Presence Update (op 3). The host sends it with
 * `secrets`; the platform never includes `secrets` when it fans the presence out.
 */
export interface WireActivity {
  readonly name: string;
  readonly type: number;
  readonly application_id?: string;
  readonly created_at?: number;
  readonly url?: string | null;
  readonly details?: string;
  readonly state?: string;
  readonly details_url?: string;
  readonly state_url?: string;
  readonly status_display_type?: number;
  readonly timestamps?: { readonly start?: number; readonly end?: number };
  readonly assets?: Readonly<Record<string, string>>;
  readonly party?: { readonly id?: string; readonly size?: readonly [number, number]; readonly privacy?: number };
  readonly secrets?: { readonly join?: string; readonly spectate?: string; readonly match?: string };
  readonly instance?: boolean;
  readonly flags?: number;
  /** Senders send `[{label, url}]`; receivers see labels only, URLs in `metadata.button_urls`. */
  readonly buttons?: readonly (string | { readonly label: string; readonly url: string })[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly supported_platforms?: readonly string[];
  /** Set by the platform on fanned-out activities: the gateway session the activity came from. */
  readonly session_id?: string;
}

export interface PresenceUpdateCommand {
  readonly since: number | null;
  readonly activities: readonly WireActivity[];
  readonly status: PresenceStatus;
  readonly afk: boolean;
}

export interface IdentifyCommand {
  readonly token: string;
  readonly properties: { readonly os: string; readonly browser: string; readonly device: string };
  readonly presence?: PresenceUpdateCommand;
  readonly intents?: number;
  readonly capabilities?: number;
  readonly compress?: boolean;
  readonly large_threshold?: number;
}

export interface ResumeCommand {
  readonly token: string;
  readonly session_id: string;
  readonly seq: number | null;
}

export interface ClientStatus {
  readonly desktop?: PresenceStatus;
  readonly mobile?: PresenceStatus;
  readonly web?: PresenceStatus;
}

/** PRESENCE_UPDATE dispatch (and READY's `presences` entries). */
export interface PresenceUpdateEvent {
  readonly user: { readonly id: string };
  readonly guild_id?: string;
  readonly status: PresenceStatus;
  readonly activities: readonly WireActivity[];
  readonly client_status: ClientStatus;
}

export interface Relationship {
  readonly id: string;
  readonly type: number;
  readonly user: PlatformUser;
}

export interface PlatformChannel {
  readonly id: string;
  /** 0 guild text, 1 DM, 2 guild voice, 4 category. */
  readonly type: number;
  readonly guild_id?: string;
  readonly name?: string;
  readonly position?: number;
  readonly parent_id?: string | null;
  readonly recipients?: readonly PlatformUser[];
  readonly status?: string | null;
  readonly voice_start_time?: number | null;
}

export interface PlatformGuild {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  /** The banner image's hash, or null. */
  readonly banner: string | null;
  readonly owner_id: string;
  readonly channels: readonly PlatformChannel[];
  readonly member_count: number;
  /** READY's guilds: who is in the guild's voice channels (partial voice states, no `guild_id`). */
  readonly voice_states?: readonly Omit<VoiceState, 'guild_id' | 'member'>[];
}

/** A user's voice state in a guild (the public docs' voice state object). */
export interface VoiceState {
  readonly guild_id: string;
  /** Null: the user left (VOICE_STATE_UPDATE). */
  readonly channel_id: string | null;
  readonly user_id: string;
  readonly member?: { readonly user: PlatformUser; readonly roles: readonly string[]; readonly joined_at: string; readonly deaf: boolean; readonly mute: boolean };
  /** The gateway session the state belongs to. */
  readonly session_id: string;
  readonly deaf: boolean;
  readonly mute: boolean;
  readonly self_deaf: boolean;
  readonly self_mute: boolean;
  readonly self_stream: boolean;
  readonly self_video: boolean;
  readonly suppress: boolean;
  readonly request_to_speak_timestamp: string | null;
}

/**
 * VOICE_SPEAKING_UPDATE **(ours)**: a user connected to a server voice channel started or stopped
 * speaking. The real platform sends speaking on the voice gateway (op 5 SPEAKING), which the
 * emulator does not have for server channels; this dispatch goes to the channel's connected users.
 */
export interface VoiceSpeakingEvent {
  readonly guild_id: string;
  readonly channel_id: string;
  readonly user_id: string;
  readonly speaking: boolean;
}

export interface ReadyEvent {
  readonly v: number;
  readonly user: PlatformUser;
  readonly session_id: string;
  readonly resume_gateway_url: string;
  readonly relationships: readonly Relationship[];
  readonly guilds: readonly PlatformGuild[];
  readonly private_channels: readonly PlatformChannel[];
  /** Current presences of the user's friends (online ones only). */
  readonly presences: readonly PresenceUpdateEvent[];
  /**
   * A game's own session (an OAuth2 token with `lobbies.write`): the lobbies of the token's
   * application the user is a member of **(ours: the field)**. Absent on other sessions.
   */
  readonly lobbies?: readonly Lobby[];
}

/** The `activity` of a message that is a game invite or join request. */
export interface MessageActivity {
  /** MessageActivityType: 1 JOIN (an invite), 5 JOIN_REQUEST (asking to join). */
  readonly type: number;
  readonly party_id?: string;
  /** Emulator extension, present on join requests the recipient declined. */
  readonly declined?: boolean;
}

export interface MessageApplication {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  /** The invite cover image: the activity's `assets.invite_cover_image`, else the app's cover. */
  readonly cover_image: string | null;
}

export interface PlatformMessage {
  readonly id: string;
  readonly channel_id: string;
  readonly author: PlatformUser;
  readonly content: string;
  readonly timestamp: string;
  readonly type: 0;
  readonly activity?: MessageActivity;
  readonly application_id?: string;
  readonly application?: MessageApplication;
  /**
   * Emulator extension on invite messages (type 1): the sender's activity when the invite
   * was sent, without secrets, so the receiving host can show it (ACTIVITY_INVITE.activity).
   */
  readonly invite_activity?: WireActivity;
  /** Emulator extension on invite messages (type 1): epoch ms after which it can no longer be accepted **(ours)**. */
  readonly invite_expires_at?: number;
  /** ISO 8601: when its author last edited it; absent until then **(ours: the real API sends null)**. */
  readonly edited_timestamp?: string;
  /** What the game's server set (`PUT /partner-sdk/dms/.../moderation-metadata`): only in what that application sees. */
  readonly moderation_metadata?: Readonly<Record<string, string>>;
  /** The sender's key/value pairs (`metadata` of the POST; the Social SDK's SendUserMessageWithMetadata): absent when none. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** MESSAGE_DELETE's data (the real gateway's shape for a DM). */
export interface MessageDeleteEvent {
  readonly id: string;
  readonly channel_id: string;
}

/** Emulator dispatch to the recipient's *other* sessions when they accept an invite. */
export interface ActivityInviteAcceptedEvent {
  readonly message_id: string;
  readonly channel_id: string;
  readonly application_id: string;
  readonly sender_id: string;
  readonly party_id: string | null;
  /** The gateway session that accepted (the others are told). */
  readonly session_id: string | null;
}

/** RATE_LIMITED dispatch. `retry_after` in seconds. */
export interface RateLimitedEvent {
  readonly opcode: number;
  readonly retry_after: number;
  readonly meta: Readonly<Record<string, unknown>>;
}

/** Dispatch names the emulator sends. */
export const GatewayEvent = {
  Ready: 'READY',
  Resumed: 'RESUMED',
  PresenceUpdate: 'PRESENCE_UPDATE',
  MessageCreate: 'MESSAGE_CREATE',
  MessageUpdate: 'MESSAGE_UPDATE',
  MessageDelete: 'MESSAGE_DELETE',
  ChannelCreate: 'CHANNEL_CREATE',
  RelationshipAdd: 'RELATIONSHIP_ADD',
  RelationshipRemove: 'RELATIONSHIP_REMOVE',
  GuildMembersChunk: 'GUILD_MEMBERS_CHUNK',
  ChannelInfo: 'CHANNEL_INFO',
  RateLimited: 'RATE_LIMITED',
  ActivityInviteAccepted: 'ACTIVITY_INVITE_ACCEPTED',
  UserUpdate: 'USER_UPDATE',
  SoundboardSounds: 'SOUNDBOARD_SOUNDS',
  GuildUpdate: 'GUILD_UPDATE',
  VoiceStateUpdate: 'VOICE_STATE_UPDATE',
  VoiceChannelStatusUpdate: 'VOICE_CHANNEL_STATUS_UPDATE',
  VoiceChannelStartTimeUpdate: 'VOICE_CHANNEL_START_TIME_UPDATE',
  /** Ours: who speaks in a server voice channel (the real platform says it on the voice gateway, op 5). */
  VoiceSpeakingUpdate: 'VOICE_SPEAKING_UPDATE',
} as const;

/** HTTP error body of the API (`/api/...`); OAuth2 routes use `{error, error_description}`. */
export interface ApiErrorBody {
  readonly code: number;
  readonly message: string;
  readonly errors?: unknown;
}

/** The 429 body. `retry_after` in seconds. */
export interface RateLimitBody {
  readonly message: string;
  readonly retry_after: number;
  readonly global: boolean;
  readonly code?: number;
}

/** `GET /api/v10/oauth2/applications/{id}/rpc`: what the host shows for an app. */
export interface RpcApplication {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  readonly description: string;
  readonly cover_image: string | null;
  /** Emulator extension: false for apps the emulator registered on first use. */
  readonly verified: boolean;
  readonly rpc_origins: readonly string[];
}

export interface ApplicationAsset {
  readonly id: string;
  readonly name: string;
  /** 1 small, 2 large (the real service's asset types). */
  readonly type: number;
}
