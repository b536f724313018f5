import { RPC, RPC_VOICE_READ } from './commands.js';
/**
 * Events a client may SUBSCRIBE to. `local`: allowed on an unauthenticated IPC connection.
 * Otherwise SUBSCRIBE needs AUTHENTICATE and, when `scopes` is given, a token carrying at
 * least one of them (any-of, as for commands). `arg`: the SUBSCRIBE arg the event requires
 * (a snowflake). READY and ERROR are sent by the server and cannot be subscribed to.
 */
export interface EventSpec {
  readonly local: boolean;
  readonly scopes?: readonly string[];
  readonly arg?: 'guild_id' | 'channel_id';
}

/** Scope lists of the real client's event table. */

export const RPC_EVENTS: Readonly<Record<string, EventSpec>> = {
  GUILD_STATUS: { local: false, scopes: RPC, arg: 'guild_id' },
  GUILD_CREATE: { local: false, scopes: RPC },
  CHANNEL_CREATE: { local: false, scopes: RPC },
  VOICE_CHANNEL_SELECT: { local: false, scopes: RPC },
  VOICE_STATE_CREATE: { local: false, scopes: RPC_VOICE_READ, arg: 'channel_id' },
  VOICE_STATE_UPDATE: { local: false, scopes: RPC_VOICE_READ, arg: 'channel_id' },
  VOICE_STATE_DELETE: { local: false, scopes: RPC_VOICE_READ, arg: 'channel_id' },
  VOICE_SETTINGS_UPDATE: { local: false, scopes: RPC_VOICE_READ },
  VOICE_SETTINGS_UPDATE_2: { local: false },
  VOICE_CONNECTION_STATUS: { local: false, scopes: RPC_VOICE_READ },
  // UDOC adds rpc.local; ours: who speaks in a channel is not told to an unauthenticated connection.
  SPEAKING_START: { local: false, scopes: RPC_VOICE_READ, arg: 'channel_id' },
  SPEAKING_STOP: { local: false, scopes: RPC_VOICE_READ, arg: 'channel_id' },
  MESSAGE_CREATE: { local: false, scopes: RPC, arg: 'channel_id' },
  MESSAGE_UPDATE: { local: false, scopes: RPC, arg: 'channel_id' },
  MESSAGE_DELETE: { local: false, scopes: RPC, arg: 'channel_id' },
  NOTIFICATION_CREATE: { local: false },
  CURRENT_USER_UPDATE: { local: false },
  CURRENT_GUILD_MEMBER_UPDATE: { local: false, arg: 'guild_id' },
  RELATIONSHIP_UPDATE: { local: false, scopes: ['relationships.read'] },
  ENTITLEMENT_CREATE: { local: false },
  ENTITLEMENT_DELETE: { local: false },
  ACTIVITY_JOIN: { local: true },
  ACTIVITY_SPECTATE: { local: true },
  ACTIVITY_JOIN_REQUEST: { local: true },
  ACTIVITY_INVITE: { local: true },
  /**
   * Ours: one of this user's invites was accepted on another device (the Social SDK's
   * invite-created callback). Data: `{type: 1, user, activity, channel_id, message_id}`.
   */
  ACTIVITY_INVITE_ACCEPTED: { local: true },
  AUTHORIZE_REQUEST: { local: true },
};

export function eventSpec(name: unknown): EventSpec | undefined {
  return typeof name === 'string' && Object.hasOwn(RPC_EVENTS, name) ? RPC_EVENTS[name] : undefined;
}
