/**
 * The scopes a game's own Bearer token needs on the routes it may use besides lobbies: its
 * specific scope, or the Social SDK's umbrella scope that stands for it (wire/oauth.ts
 * SOCIAL_LAYER_SCOPES). A user token needs none of them.
 */
export const GAME_SCOPES = {
  relationships: ['relationships.read', 'sdk.social_layer', 'sdk.social_layer_presence'],
  relationshipsWrite: ['relationships.write', 'sdk.social_layer', 'sdk.social_layer_presence'],
  dmRead: ['dm_channels.read', 'sdk.social_layer'],
  dmMessagesRead: ['dm_channels.messages.read', 'messages.read', 'sdk.social_layer'],
  dmWrite: ['dm_channels.messages.write', 'sdk.social_layer'],
} as const;
