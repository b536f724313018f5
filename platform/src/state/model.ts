import type { ApplicationAsset, MessageActivity, MessageApplication, WireActivity } from '../wire/index.js';

/** What `state.json` holds. Field names are snake_case like the wire, so records map 1:1. */
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
}

export interface GuildRecord {
  readonly id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  members: { readonly user_id: string; readonly joined_at: string }[];
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
  readonly content: string;
  readonly timestamp: string;
  activity?: MessageActivity;
  readonly application_id?: string;
  readonly application?: MessageApplication;
  readonly invite_activity?: WireActivity;
  invite?: InviteRecord;
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
  /** The app's bot token, for the server APIs (`Authorization: Bot <token>`; secret: shown only by the admin API, never logged). */
  bot_token: string;
  /** Ed25519 public key, raw 32 bytes as hex (what the real portal shows). */
  readonly public_key: string;
  /** Ed25519 private key, PKCS#8 DER as base64 (secret: never served or logged). */
  readonly private_key: string;
}
