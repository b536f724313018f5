import type { RpcUser } from './rpc-server.js';

/** A voice state as the desktop client's RPC gives it (VOICE_STATE_*, a channel's `voice_states`). */
export interface RpcVoiceState {
  readonly voice_state: { readonly mute: boolean; readonly deaf: boolean; readonly self_mute: boolean; readonly self_deaf: boolean; readonly suppress: boolean };
  readonly user: RpcUser;
  /** The name shown in the channel: the member's nick, else the user's display name. */
  readonly nick: string;
  /** The player's local volume for that user (0-200; always 100 here: SET_USER_VOICE_SETTINGS is not implemented). */
  readonly volume: number;
  /** The player's local mute of that user (always false here). */
  readonly mute: boolean;
  readonly pan: { readonly left: number; readonly right: number };
}

/** SPEAKING_START / SPEAKING_STOP data: `{user_id}` as the docs say, and `channel_id` as the client also sends. */
export interface RpcSpeaking {
  readonly user_id: string;
  readonly channel_id: string;
}

/** VOICE_CHANNEL_SELECT data: the player's voice channel now (both null: none). */
export interface RpcVoiceChannelSelect {
  readonly channel_id: string | null;
  readonly guild_id: string | null;
}

/** The states of VOICE_CONNECTION_STATUS (the desktop client's, RTC_ spelled VOICE_). */
export type RpcVoiceConnectionState =
  | 'DISCONNECTED'
  | 'AWAITING_ENDPOINT'
  | 'AUTHENTICATING'
  | 'CONNECTING'
  | 'CONNECTED'
  | 'VOICE_DISCONNECTED'
  | 'VOICE_CONNECTING'
  | 'VOICE_CONNECTED'
  | 'NO_ROUTE'
  | 'ICE_CHECKING'
  | 'DTLS_CONNECTING';

/** VOICE_CONNECTION_STATUS data; `pings` are `{time, value}` entries as the client sends them (the docs say integers). */
export interface RpcVoiceConnectionStatus {
  readonly state: RpcVoiceConnectionState;
  readonly hostname: string | null;
  readonly pings: readonly { readonly time: number; readonly value: number }[];
  readonly average_ping: number;
  readonly last_ping: number | null;
}
