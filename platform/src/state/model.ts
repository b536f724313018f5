import type { ApplicationAsset, DetectableExecutable, MessageActivity, MessageApplication, WireActivity } from '../wire/index.js';

/** The state: what `state.json` held (emulators before the database), and what the database keeps as records and messages. Field names are snake_case like the wire, so records map 1:1. */
export interface StateFile {
  readonly version: 1;
  /** The last snowflake handed out, so ids keep increasing across restarts. */
  last_id: string;
  users: UserRecord[];
  /** Friend pairs, each pair once, ids sorted. */
  friendships: [string, string][];
  /** Pending friend requests, [from, to] (added after version 1 shipped: missing in older files, read as empty). */
  friend_requests?: [string, string][];
  /** Blocks, [by, target] (as friend_requests). */
  blocks?: [string, string][];
  /** Game friends of one application, [application id, a, b], ids of a pair sorted (as friend_requests). **(ours: the field)** */
  game_friendships?: [string, string, string][];
  /** Pending game friend requests, [application id, from, to] (as friend_requests). **(ours: the field)** */
  game_friend_requests?: [string, string, string][];
  /** External identities of provisional accounts, per app (as friend_requests). */
  identities?: IdentityRecord[];
  /** Banned users (as friend_requests). */
  bans?: BanRecord[];
  /** Users' connected accounts (as friend_requests). */
  connections?: ConnectionRecord[];
  guilds: GuildRecord[];
  channels: ChannelRecord[];
  messages: MessageRecord[];
  apps: AppRecord[];
  /** OAuth2 (added after version 1 shipped: missing in older files, read as empty). */
  grants: GrantRecord[];
  codes: CodeRecord[];
  tokens: TokenRecord[];
  /** The RS256 key the id_token is signed with; created on first use. */
  oidc_key: OidcKeyRecord | null;
  /**
   * True once apps registered on first use carry `unused_since` while unused (files written
   * before lack it: their apps are looked at once on load). **(ours)**
   */
  app_use_tracked?: boolean;
}

/** An app a user authorized, with the union of every scope granted (expanded). */
export interface GrantRecord {
  readonly id: string;
  readonly user_id: string;
  readonly application_id: string;
  scopes: string[];
  /** 0 guild install, 1 user install, null when not given. */
  integration_type: number | null;
  /** ISO 8601. */
  readonly created_at: string;
}

/** An authorization code, stored as the SHA-256 of the code (hex): the code itself is never kept. */
export interface CodeRecord {
  readonly code_hash: string;
  readonly grant_id: string;
  readonly application_id: string;
  readonly user_id: string;
  /** Expanded, as granted for this request. */
  readonly scopes: string[];
  /** The redirect the code is bound to (browser flow); null for codes issued through RPC. */
  readonly redirect_uri: string | null;
  /** The authorize request named `redirect_uri` itself (the token request must then repeat it). */
  readonly redirect_uri_given: boolean;
  /** PKCE S256 challenge (base64url), or null. */
  readonly code_challenge: string | null;
  readonly nonce: string | null;
  /** Epoch ms. */
  readonly expires_at: number;
}

/** An access/refresh pair, stored as SHA-256 hashes (hex); the tokens themselves are never kept. */
export interface TokenRecord {
  readonly id: string;
  readonly grant_id: string;
  /** A child token (`/partner-sdk/child-token`): valid only while the parent app's grant is. */
  readonly parent_grant_id?: string;
  readonly application_id: string;
  readonly user_id: string;
  readonly scopes: string[];
  readonly access_hash: string;
  readonly refresh_hash: string;
  /** Epoch ms: the access token's end (the refresh token lives until used or revoked). */
  readonly expires_at: number;
}

export interface OidcKeyRecord {
  readonly kid: string;
  /** RSA private key, PKCS#8 PEM (secret: never served or logged). */
  readonly private_key: string;
}

export interface UserRecord {
  readonly id: string;
  readonly username: string;
  global_name: string | null;
  avatar: string | null;
  /** The user token (secret). */
  readonly token: string;
  /** A provisional account: made for one game's external identity, with no login of its own. */
  readonly provisional?: true;
}

/**
 * An external identity (a provider's user) of one app and the account it stands for: its
 * provisional account, or once merged the full account it was linked to.
 */
export interface IdentityRecord {
  readonly application_id: string;
  /** An external auth type (`OIDC`, `STEAM_SESSION_TICKET`, ...); bot-endpoint identities use `DISCORD_BOT_ISSUED_ACCESS_TOKEN`. */
  readonly type: string;
  /** The provider's user id (`sub`, the ticket's user, or the bot endpoint's `external_user_id`). */
  readonly external_id: string;
  user_id: string;
  /** Merged into the full account `user_id`; false while `user_id` is the provisional account. */
  linked: boolean;
  /** The provider's name for the player, as last seen (the SDK's UserApplicationProfile username); null when it gave none. */
  username?: string | null;
  /**
   * Made when the full account it was linked to was banned (that account's id): a
   * cross-platform-restricted provisional account, which cannot be merged until the ban lifts.
   */
  restricted_by_ban_of?: string;
  /** ISO 8601. */
  readonly created_at: string;
}

export interface BanRecord {
  readonly user_id: string;
  readonly permanent: boolean;
  /** ISO 8601. */
  readonly created_at: string;
}

/** The types the emulator's test provider stands in for: every named type but OIDC (a real issuer) and the bot endpoint's. */
export const TEST_PROVIDER_TYPES = [
  'STEAM_SESSION_TICKET',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'UNITY_SERVICES_ID_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
] as const;
export type TestProviderType = (typeof TEST_PROVIDER_TYPES)[number];

/** External auth types the platform names (the public docs' list). */
export const EXTERNAL_AUTH_TYPES = ['OIDC', ...TEST_PROVIDER_TYPES, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN'] as const;
export type ExternalAuthType = (typeof EXTERNAL_AUTH_TYPES)[number];

/** An identity provider an app accepts: OIDC with its issuer, or a type the emulator's test provider stands in for. */
export type ExternalAuthProvider =
  | { readonly type: 'OIDC'; readonly issuer: string; readonly audience: string }
  | { readonly type: TestProviderType };

export interface GuildRecord {
  readonly id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  /** The banner image's hash (added after version 1 shipped: missing in older files, read as null). */
  banner?: string | null;
  members: { readonly user_id: string; readonly joined_at: string }[];
}

/**
 * An account of another service connected to a user (GET /users/@me/connections), in the
 * wire's field names plus who owns it and when it was connected.
 */
export interface ConnectionRecord {
  readonly user_id: string;
  /** The account's id on that service. */
  readonly id: string;
  /** The account's name on that service. */
  readonly name: string;
  /** The service: `battlenet`, `riotgames`, `steam`, `xbox`, `github`, ... */
  readonly type: string;
  readonly verified: boolean;
  readonly friend_sync: boolean;
  readonly show_activity: boolean;
  readonly two_way_link: boolean;
  /** 0 only the user, 1 everyone. */
  readonly visibility: 0 | 1;
  readonly revoked: boolean;
  /** ISO 8601: when it was connected (decides whether a game-publisher connection is legacy). */
  readonly created_at: string;
}

export interface ChannelRecord {
  readonly id: string;
  /** 0 guild text, 1 DM, 2 guild voice, 4 category. */
  readonly type: number;
  readonly guild_id?: string;
  name?: string;
  position?: number;
  parent_id?: string | null;
  /** DM channels: both users. */
  readonly recipient_ids?: readonly string[];
  status: string | null;
  voice_start_time: number | null;
}

export interface InviteRecord {
  /** Epoch ms. */
  readonly sent_at: number;
  readonly expires_at: number;
  /** Users who accepted it through the join route. */
  accepted_by: string[];
}

export interface MessageRecord {
  readonly id: string;
  readonly channel_id: string;
  readonly author_id: string;
  /** Changed by its author's edit. */
  content: string;
  readonly timestamp: string;
  activity?: MessageActivity;
  readonly application_id?: string;
  readonly application?: MessageApplication;
  readonly invite_activity?: WireActivity;
  invite?: InviteRecord;
  /** ISO 8601: the author's last edit. */
  edited_timestamp?: string;
  /** Moderation metadata per application id (each app sees only its own). */
  moderation_metadata?: Record<string, Record<string, string>>;
  /** The sender's own key/value pairs (SendUserMessageWithMetadata), seen by both recipients. */
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface AppRecord {
  readonly id: string;
  name: string;
  icon: string | null;
  description: string;
  cover_image: string | null;
  redirect_uris: string[];
  public_client: boolean;
  verified: boolean;
  /** Registered by the emulator the first time a client used the id. */
  auto_registered: boolean;
  /**
   * Apps registered on first use that nothing has used yet (no activity, grant, asset or
   * rename): epoch ms of the last registration request. Absent once used, and on every other
   * app; such apps are forgotten `unusedAppTtlMs` after this. **(ours)**
   */
  unused_since?: number;
  /** Drop asset keys the app has not uploaded from presences, like the real service. **(ours)** */
  strict: boolean;
  /** Approval-needing scopes (`APPROVAL_SCOPES`) the app may request (e.g. `rpc`, `rpc.activities.write`). */
  approved_scopes: string[];
  rpc_origins: string[];
  assets: ApplicationAsset[];
  webhook_events_url: string | null;
  /** The OAuth2 client secret (secret: shown only by the admin API, never logged). */
  client_secret: string;
  /** Identity providers for provisional accounts (the portal's External Auth page); absent: none. */
  external_auth?: ExternalAuthProvider[];
  /** A game (child) application of this publisher (parent): its tokens come only from `/partner-sdk/child-token`. */
  parent_application_id?: string | null;
  /**
   * How the player's client recognises the game among running programs (`GET
   * /applications/detectable`); absent: none. Names are stored lower-case with `/` separators.
   */
  executables?: DetectableExecutable[];
  /** The app's bot token, for the server APIs (`Authorization: Bot <token>`; secret: shown only by the admin API, never logged). */
  bot_token: string;
  /** Ed25519 public key, raw 32 bytes as hex (what the real portal shows). */
  readonly public_key: string;
  /** Ed25519 private key, PKCS#8 DER as base64 (secret: never served or logged). */
  readonly private_key: string;
}
