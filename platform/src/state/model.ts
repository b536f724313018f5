import type { ApplicationAsset, MessageActivity, MessageApplication, WireActivity } from '../wire/index.js';

/** What `state.json` holds. Field names are snake_case like the wire, so records map 1:1. */
export interface StateFile {
  readonly version: 1;
  /** The last snowflake handed out, so ids keep increasing across restarts. */
  last_id: string;
  users: UserRecord[];
  /** Friend pairs, each pair once, ids sorted. */
  friendships: [string, string][];
  guilds: GuildRecord[];
  channels: ChannelRecord[];
  messages: MessageRecord[];
  apps: AppRecord[];
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
  /** Drop asset keys the app has not uploaded from presences, like the real service. **(ours)** */
  strict: boolean;
  /** Scopes the app may request beyond the default ones (e.g. `rpc`, `rpc.activities.write`). */
  approved_scopes: string[];
  rpc_origins: string[];
  assets: ApplicationAsset[];
  webhook_events_url: string | null;
  /** Ed25519 public key, raw 32 bytes as hex (what the real portal shows). */
  readonly public_key: string;
  /** Ed25519 private key, PKCS#8 DER as base64 (secret: never served or logged). */
  readonly private_key: string;
}
