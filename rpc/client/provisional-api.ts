import { toU64String } from './authorization-args.js';
import { parseTokenResponse, secretsOf, type CommonOptions, type TokenResponse } from './oauth-http.js';
import { answerOf, bearerCall, platformCall, type BearerCallOptions } from './platform-request.js';
import { ApplicationProfileListSchema } from './wire/http.js';

/**
 * The Social SDK's provisional-account and publisher calls of a public client, over HTTP:
 * `POST /api/v10/partner-sdk/token` (an external provider's token for a provisional
 * account's token), `POST /api/v10/partner-sdk/provisional-accounts/unmerge` and
 * `POST /api/v10/partner-sdk/child-token`, JSON bodies. Failures reject with the
 * ClientResultError of platform-request (the platform's code, e.g. 530017, in `errorCode`);
 * no message holds a token.
 */

/** The external auth types the platform names. */
export type ExternalAuthType =
  | 'OIDC'
  | 'STEAM_SESSION_TICKET'
  | 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN'
  | 'EPIC_ONLINE_SERVICES_ID_TOKEN'
  | 'UNITY_SERVICES_ID_TOKEN'
  | 'APPLE_ID_TOKEN'
  | 'PLAYSTATION_NETWORK_ID_TOKEN'
  | 'DISCORD_BOT_ISSUED_ACCESS_TOKEN';

export interface ExternalCredentialsOptions extends CommonOptions {
  readonly externalAuthType: ExternalAuthType | string;
  readonly externalAuthToken: string;
}

export interface ChildTokenOptions extends Omit<CommonOptions, 'applicationId'> {
  readonly parentAccessToken: string;
  readonly childApplicationId: string | bigint;
}

function jsonPost(options: Omit<CommonOptions, 'applicationId'>, path: string, body: Record<string, unknown>, secrets: readonly string[]): Promise<unknown> {
  return platformCall(options, path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) }, secrets);
}

function credentials(options: ExternalCredentialsOptions): Record<string, unknown> {
  if (typeof options.externalAuthToken !== 'string' || options.externalAuthToken.length === 0) throw new TypeError('externalAuthToken must be a non-empty string');
  if (typeof options.externalAuthType !== 'string' || options.externalAuthType.length === 0) throw new TypeError('externalAuthType must be a non-empty string');
  return {
    client_id: toU64String(options.applicationId, 'applicationId'),
    ...(options.clientSecret !== undefined ? { client_secret: options.clientSecret } : {}),
    external_auth_type: options.externalAuthType,
    external_auth_token: options.externalAuthToken,
  };
}

/** Client::GetProvisionalToken: the provisional account of the identity (made on first use); its token lasts an hour. */
export async function getProvisionalToken(options: ExternalCredentialsOptions): Promise<TokenResponse> {
  const secrets = secretsOf(options, [options.externalAuthToken]);
  return parseTokenResponse(await jsonPost(options, '/api/v10/partner-sdk/token', credentials(options), secrets), secrets);
}

/** Client::UnmergeIntoProvisionalAccount: the identity's full account is unlinked; a fresh provisional account carries it. */
export async function unmergeIntoProvisionalAccount(options: ExternalCredentialsOptions): Promise<void> {
  await jsonPost(options, '/api/v10/partner-sdk/provisional-accounts/unmerge', credentials(options), secretsOf(options, [options.externalAuthToken]));
}

/** Client::ExchangeChildToken: a publisher's token traded for one of its games' (no refresh token; it ends with the parent). */
export async function exchangeChildToken(options: ChildTokenOptions): Promise<TokenResponse> {
  if (typeof options.parentAccessToken !== 'string' || options.parentAccessToken.length === 0) throw new TypeError('parentAccessToken must be a non-empty string');
  const secrets = [options.parentAccessToken, ...(options.clientSecret !== undefined ? [options.clientSecret] : [])];
  const body = {
    parent_access_token: options.parentAccessToken,
    child_application_id: toU64String(options.childApplicationId, 'childApplicationId'),
    ...(options.clientSecret !== undefined ? { parent_client_secret: options.clientSecret } : {}),
  };
  return parseTokenResponse(await jsonPost(options, '/api/v10/partner-sdk/child-token', body, secrets), secrets);
}

/** The Social SDK's ExternalIdentityProviderType, as a name. */
export type ExternalIdentityProviderType = 'OIDC' | 'EpicOnlineServices' | 'Steam' | 'Unity' | 'DiscordBot' | 'None' | 'Unknown';

/** UserApplicationProfileHandle: the player's profile with the game's identity provider (at most one per game). */
export interface UserApplicationProfile {
  readonly providerType: ExternalIdentityProviderType;
  /** The provider's id for the player (`sub`, the Steam id, the game's own account id, ...). */
  readonly providerIssuedUserId: string;
  /** The OIDC issuer; '' for the other types. */
  readonly providerId: string;
  readonly username: string;
  readonly avatarHash: string;
  readonly metadata: string;
}

const PROVIDER_TYPES: Readonly<Record<string, ExternalIdentityProviderType>> = {
  OIDC: 'OIDC',
  STEAM_SESSION_TICKET: 'Steam',
  EPIC_ONLINE_SERVICES_ACCESS_TOKEN: 'EpicOnlineServices',
  EPIC_ONLINE_SERVICES_ID_TOKEN: 'EpicOnlineServices',
  UNITY_SERVICES_ID_TOKEN: 'Unity',
  DISCORD_BOT_ISSUED_ACCESS_TOKEN: 'DiscordBot',
};

/** Client::GetUserApplicationProfiles: `GET /api/v10/users/@me/application-profiles` with the game's token **(ours: the route)**. */
export async function getUserApplicationProfiles(options: BearerCallOptions): Promise<UserApplicationProfile[]> {
  const profiles = answerOf(ApplicationProfileListSchema, await bearerCall(options, 'GET', '/users/@me/application-profiles'), 'application profiles');
  return profiles.map((profile) => ({
    providerType: profile.provider_type !== undefined && Object.hasOwn(PROVIDER_TYPES, profile.provider_type) ? (PROVIDER_TYPES[profile.provider_type] ?? 'Unknown') : 'Unknown',
    providerIssuedUserId: profile.provider_issued_user_id ?? '',
    providerId: profile.provider_id ?? '',
    username: profile.username ?? '',
    avatarHash: profile.avatar_hash ?? '',
    metadata: profile.metadata ?? '',
  }));
}
