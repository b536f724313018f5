/**
 * OAuth2 facts shared by the emulator, the host and (later) the game-side SDK: the known
 * scopes, the umbrella scopes and what they expand to, the default scope sets, and the shapes
 * of the routes the host calls. The scope list is the real service's.
 */

/** Every scope the platform knows; anything else is invalid_scope. */
export const KNOWN_SCOPES = [
  'identify',
  'email',
  'guilds',
  'guilds.channels.read',
  'guilds.members.read',
  'connections',
  'openid',
  'applications.commands',
  'applications.commands.update',
  'identify.premium',
  'activities.read',
  'activities.write',
  'activities.invites.write',
  'application_identities.write',
  'gateway.connect',
  'relationships.read',
  'relationships.write',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'lobbies.write',
  'messages.read',
  'rpc',
  'rpc.activities.write',
  'rpc.voice.read',
  'rpc.voice.write',
  'rpc.notifications.read',
  'sdk.social_layer',
  'sdk.social_layer_presence',
] as const;
export type KnownScope = (typeof KNOWN_SCOPES)[number];

/** What `sdk.social_layer_presence` stands for (UDC; the official docs say only "what the integration needs"). */
export const SOCIAL_LAYER_PRESENCE_SCOPES: readonly string[] = [
  'activities.invites.write',
  'activities.read',
  'activities.write',
  'application_identities.write',
  'gateway.connect',
  'identify',
  'relationships.read',
  'relationships.write',
];

/** What `sdk.social_layer` stands for: the presence set plus communication. */
export const SOCIAL_LAYER_SCOPES: readonly string[] = [
  ...SOCIAL_LAYER_PRESENCE_SCOPES,
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'guilds',
  'guilds.channels.read',
  'lobbies.write',
];

/** Client::GetDefaultPresenceScopes and Client::GetDefaultCommunicationScopes. */
export const DEFAULT_PRESENCE_SCOPES: readonly string[] = ['openid', 'sdk.social_layer_presence'];
export const DEFAULT_COMMUNICATION_SCOPES: readonly string[] = ['openid', 'sdk.social_layer'];

/** Scopes an app may request only when the platform approved it for them. */
export const APPROVAL_SCOPES: readonly string[] = [
  'identify.premium',
  'rpc',
  'rpc.activities.write',
  'rpc.voice.read',
  'rpc.voice.write',
  'rpc.notifications.read',
  'messages.read',
];

/** The scope list with umbrellas replaced by what they stand for, de-duplicated, in order. */
export function expandScopes(scopes: readonly string[]): string[] {
  const out: string[] = [];
  for (const scope of scopes) {
    const parts = scope === 'sdk.social_layer' ? SOCIAL_LAYER_SCOPES : scope === 'sdk.social_layer_presence' ? SOCIAL_LAYER_PRESENCE_SCOPES : [scope];
    for (const part of parts) if (!out.includes(part)) out.push(part);
  }
  return out;
}

/** What a player reads for each scope on the consent prompt. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  identify: 'Know your username, avatar and banner',
  email: 'Know your email address',
  guilds: 'Know what servers you are in',
  'guilds.channels.read': "See the channels of servers you're in",
  'guilds.members.read': 'Read your member info (nickname, avatar, roles) in your servers',
  connections: 'See your linked third-party accounts',
  openid: 'Sign you in with your account (OpenID Connect)',
  'applications.commands': 'Use its commands in your servers and DMs',
  'applications.commands.update': 'Update its own commands',
  'identify.premium': 'Know your subscription level',
  'activities.read': "See your friends' game activities",
  'activities.write': 'Update your game activity',
  'activities.invites.write': 'Send game invites on your behalf',
  'application_identities.write': 'Link your game account to your account',
  'gateway.connect': 'Stay connected to the platform for you',
  'relationships.read': 'Know who your friends are',
  'relationships.write': 'Send and answer friend requests for you',
  'dm_channels.read': 'See your direct message channels',
  'dm_channels.messages.read': 'Read your direct messages',
  'dm_channels.messages.write': 'Send direct messages for you',
  'lobbies.write': 'Create and join game lobbies for you',
  'messages.read': 'Read all messages in your channels',
  rpc: 'Control this desktop app on your computer (full local access)',
  'rpc.activities.write': 'Update your activity through this desktop app',
  'rpc.voice.read': 'Read your voice settings and who is speaking',
  'rpc.voice.write': 'Change your voice settings',
  'rpc.notifications.read': 'Read your notifications',
};

/** `GET /api/v10/oauth2/authorize?...` with the user's token: what the consent prompt shows. */
export interface AuthorizePreview {
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null; readonly description: string; readonly verified: boolean };
  /** As requested. */
  readonly scopes: readonly string[];
  /** Umbrellas expanded: what the player is asked to grant. */
  readonly expanded_scopes: readonly string[];
  readonly user: { readonly id: string; readonly username: string };
  /** A grant of this user already covers every requested scope (with this integration type). */
  readonly authorized: boolean;
}

/** One grant: an app the user authorized, with which scopes. */
export interface OAuthGrant {
  readonly id: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null };
  readonly scopes: readonly string[];
  /** 0 guild install, 1 user install; null when not given. */
  readonly integration_type: number | null;
  /** ISO 8601. */
  readonly created_at: string;
}

/** The token endpoint's success body. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Seconds: 604800 (7 days), as the real service. */
  readonly expires_in: number;
  /** Absent for provisional accounts (but OIDC ones of confidential clients) and child tokens. */
  readonly refresh_token?: string;
  readonly scope: string;
  readonly id_token?: string;
}

/** `GET /api/oauth2/@me` with a Bearer token. */
export interface OAuthMe {
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null; readonly description: string; readonly rpc_origins: readonly string[] };
  readonly scopes: readonly string[];
  /** ISO 8601. */
  readonly expires: string;
  readonly user?: { readonly id: string; readonly username: string; readonly discriminator: string; readonly global_name: string | null; readonly avatar: string | null };
}

/** Gateway dispatches to the user's sessions when a grant appears or goes (ours). */
export const OAuthGatewayEvent = { GrantCreate: 'OAUTH2_GRANT_CREATE', GrantDelete: 'OAUTH2_GRANT_DELETE' } as const;

/** The `rpc*` family: what apps registered on first use are approved for (unless strict). */
export const RPC_SCOPES: readonly string[] = ['rpc', 'rpc.activities.write', 'rpc.voice.read', 'rpc.voice.write', 'rpc.notifications.read'];

/** Error body of the OAuth2 routes (RFC 6749), not the API's `{code, message}`. */
export interface OAuthErrorBody {
  readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'invalid_scope' | 'unsupported_grant_type' | 'unsupported_response_type' | 'access_denied' | 'server_error'
    // RFC 8628 (the device authorization grant's polling answers).
    | 'authorization_pending' | 'slow_down' | 'expired_token';
  readonly error_description: string;
}

/** `POST /api/v10/oauth2/authorize` answers: a code (rpc) or where to send the browser. */
export type AuthorizeResult = { readonly code: string; readonly state?: string } | { readonly location: string };

/** The envelope POSTed to an app's webhook-events URL (the real service's shape). */
export interface WebhookEnvelope {
  readonly version: 1;
  readonly application_id: string;
  /** 0 PING, 1 event. */
  readonly type: 0 | 1;
  readonly event?: { readonly type: string; readonly timestamp: string; readonly data?: unknown };
}

export const WebhookEventType = {
  ApplicationAuthorized: 'APPLICATION_AUTHORIZED',
  ApplicationDeauthorized: 'APPLICATION_DEAUTHORIZED',
  LobbyMessageCreate: 'LOBBY_MESSAGE_CREATE',
  LobbyMessageUpdate: 'LOBBY_MESSAGE_UPDATE',
  LobbyMessageDelete: 'LOBBY_MESSAGE_DELETE',
  GameDirectMessageCreate: 'GAME_DIRECT_MESSAGE_CREATE',
  GameDirectMessageUpdate: 'GAME_DIRECT_MESSAGE_UPDATE',
  GameDirectMessageDelete: 'GAME_DIRECT_MESSAGE_DELETE',
} as const;

/**
 * `POST /api/v10/oauth2/token/introspect {token}` with the user's token (ours): what a game's
 * access token stands for, whatever its scopes; inactive for unknown, expired or revoked
 * tokens and for tokens of other users.
 */
export type TokenIntrospection = { readonly active: false } | ({ readonly active: true; readonly user_id: string } & OAuthMe);

/** `POST /api/v10/oauth2/device/authorize` answers (RFC 8628 section 3.2). */
export interface DeviceAuthorizationResponse {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
}

/** `GET /api/v10/oauth2/device/verify?user_code=` answers: what the player is asked to approve **(ours)**. */
export interface DeviceVerifyPreview {
  readonly user_code: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null };
  readonly scopes: readonly string[];
}
