import { GameRelationshipEvent, GatewayEvent, LobbyEvent, SOCIAL_LAYER_PRESENCE_SCOPES, SOCIAL_LAYER_SCOPES } from '../wire/index.js';

/**
 * A gateway session identified with a game's OAuth2 access token (the Social SDK's own
 * connection) gets only the dispatches its scopes allow **(ours: the public record does not list
 * them; this is the scope each event's data falls under)**. A session identified with a user
 * token gets everything, as before.
 */

/** The scopes that let a token identify on the gateway. */
export const GATEWAY_SCOPES: readonly string[] = ['gateway.connect', 'sdk.social_layer', 'sdk.social_layer_presence'];

/** What a dispatch needs; absent: never to an OAuth2 session. */
const NEEDS: Readonly<Record<string, readonly string[] | 'always'>> = {
  [GatewayEvent.Ready]: 'always',
  [GatewayEvent.Resumed]: 'always',
  [GatewayEvent.UserUpdate]: 'always',
  [GatewayEvent.RateLimited]: 'always',
  [GatewayEvent.PresenceUpdate]: ['relationships.read', 'activities.read'],
  [GatewayEvent.RelationshipAdd]: ['relationships.read'],
  [GatewayEvent.RelationshipRemove]: ['relationships.read'],
  [GatewayEvent.MessageCreate]: ['dm_channels.messages.read', 'messages.read'],
  [GatewayEvent.MessageUpdate]: ['dm_channels.messages.read', 'messages.read'],
  [GatewayEvent.MessageDelete]: ['dm_channels.messages.read', 'messages.read'],
  [GatewayEvent.ChannelCreate]: ['dm_channels.read'],
  [GatewayEvent.ActivityInviteAccepted]: ['activities.invites.write', 'activities.read'],
  [GatewayEvent.GuildUpdate]: ['guilds'],
  [GatewayEvent.GuildMembersChunk]: ['guilds.members.read'],
  [GatewayEvent.ChannelInfo]: ['guilds.channels.read'],
  [GatewayEvent.VoiceStateUpdate]: ['guilds.channels.read'],
  [GatewayEvent.VoiceChannelStatusUpdate]: ['guilds.channels.read'],
  [GatewayEvent.VoiceChannelStartTimeUpdate]: ['guilds.channels.read'],
  [GatewayEvent.VoiceSpeakingUpdate]: ['guilds.channels.read'],
  ...Object.fromEntries(Object.values(LobbyEvent).map((event) => [event, ['lobbies.write']])),
  ...Object.fromEntries(Object.values(GameRelationshipEvent).map((event) => [event, ['relationships.read']])),
};

/** The scopes a token holds, with the Social SDK's two umbrella scopes spelled out (wire/oauth.ts). */
export function heldScopes(scopes: readonly string[]): ReadonlySet<string> {
  const held = new Set(scopes);
  if (held.has('sdk.social_layer')) for (const scope of SOCIAL_LAYER_SCOPES) held.add(scope);
  if (held.has('sdk.social_layer_presence')) for (const scope of SOCIAL_LAYER_PRESENCE_SCOPES) held.add(scope);
  return held;
}

/** Whether a session holding `scopes` (spelled out: heldScopes) may receive dispatch `t`. */
export function mayReceive(scopes: readonly string[], t: string): boolean {
  const needs = NEEDS[t];
  if (needs === undefined) return false;
  return needs === 'always' || needs.some((scope) => scopes.includes(scope));
}

/** Whether a token with `scopes` may identify on the gateway at all. */
export function mayConnect(scopes: readonly string[]): boolean {
  return GATEWAY_SCOPES.some((scope) => scopes.includes(scope));
}
