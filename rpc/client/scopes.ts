/**
 * The default scope sets (seed "Scope rules" 1-2). They must equal the platform's
 * `DEFAULT_COMMUNICATION_SCOPES` / `DEFAULT_PRESENCE_SCOPES` (platform/src/wire/oauth.ts),
 * which rpc/ may not import; rpc/test/client/scopes.test.ts checks that they do.
 */
export const DEFAULT_COMMUNICATION_SCOPES = 'openid sdk.social_layer';
export const DEFAULT_PRESENCE_SCOPES = 'openid sdk.social_layer_presence';

/** Client::GetDefaultCommunicationScopes: `openid sdk.social_layer` (presence, DMs, lobbies, ...). */
export function getDefaultCommunicationScopes(): string {
  return DEFAULT_COMMUNICATION_SCOPES;
}

/** Client::GetDefaultPresenceScopes: `openid sdk.social_layer_presence` (presence, invites, friends). */
export function getDefaultPresenceScopes(): string {
  return DEFAULT_PRESENCE_SCOPES;
}
