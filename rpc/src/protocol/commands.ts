/**
 * What a command needs. `local`: allowed on an unauthenticated IPC connection (the `rpc.local`
 * pseudo-scope); nothing else is checked for it. Otherwise the connection must have sent
 * AUTHENTICATE and, when `scopes` is given, its token must carry at least one of them (an
 * any-of list, as in the real client's scope table). A missing `scopes` needs AUTHENTICATE only.
 */
export interface CommandSpec {
  readonly local: boolean;
  readonly scopes?: readonly string[];
  /**
   * Answered in its own time: later commands of the same connection do not wait for it (an
   * AUTHORIZE waits minutes for the player, while the game keeps setting its activity).
   * Replies are matched by nonce, so their order does not matter to clients.
   */
  readonly concurrent?: boolean;
}

/** Scope lists of the real client's command table. */
export const RPC = ['rpc'] as const;
export const RPC_VOICE_READ = ['rpc', 'rpc.voice.read'] as const;
const RPC_VOICE_WRITE = ['rpc', 'rpc.voice.write'] as const;

/**
 * Every command name of the protocol that clients are known to send, with what it needs (see
 * CommandSpec). A name not listed here is answered 4002 "Invalid command: X".
 */
export const RPC_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  AUTHORIZE: { local: true, concurrent: true },
  AUTHENTICATE: { local: true },
  SUBSCRIBE: { local: true },
  UNSUBSCRIBE: { local: true },
  SET_ACTIVITY: { local: true },
  SEND_ACTIVITY_JOIN_INVITE: { local: true },
  CLOSE_ACTIVITY_REQUEST: { local: true },
  CLOSE_ACTIVITY_JOIN_REQUEST: { local: true },
  SET_CERTIFIED_DEVICES: { local: true },
  ACTIVITY_INVITE_USER: { local: true },
  ACCEPT_ACTIVITY_INVITE: { local: true },
  // Ours (the Social SDK's OpenConnectedGamesSettingsInDiscord and OpenMessageInDiscord): Companion opens one of its views.
  OPEN_CONNECTED_GAMES_SETTINGS: { local: true },
  OPEN_MESSAGE: { local: true },
  SET_SHOWING_CHAT: { local: true },
  // Ours (the Social SDK's Open/CloseAuthorizeDeviceScreen): Companion shows or hides its device code-entry screen.
  OPEN_AUTHORIZE_DEVICE_SCREEN: { local: true },
  CLOSE_AUTHORIZE_DEVICE_SCREEN: { local: true },
  GET_GUILD: { local: false, scopes: RPC },
  GET_GUILDS: { local: false, scopes: RPC },
  GET_CHANNEL: { local: false, scopes: ['rpc', 'guilds', 'guilds.channels.read'] },
  GET_CHANNELS: { local: false, scopes: RPC },
  CREATE_CHANNEL_INVITE: { local: false },
  GET_RELATIONSHIPS: { local: false, scopes: ['relationships.read'] },
  GET_USER: { local: false },
  SET_USER_VOICE_SETTINGS: { local: false, scopes: RPC_VOICE_WRITE },
  SET_USER_VOICE_SETTINGS_2: { local: false },
  SELECT_VOICE_CHANNEL: { local: false, scopes: RPC },
  GET_SELECTED_VOICE_CHANNEL: { local: false, scopes: RPC_VOICE_READ },
  SELECT_TEXT_CHANNEL: { local: false, scopes: RPC },
  GET_VOICE_SETTINGS: { local: false, scopes: RPC_VOICE_READ },
  SET_VOICE_SETTINGS: { local: false, scopes: RPC_VOICE_WRITE },
  SET_VOICE_SETTINGS_2: { local: false },
  CAPTURE_SHORTCUT: { local: false },
  SEND_ACTIVITY_JOIN_REQUEST: { local: false },
  GET_IMAGE: { local: false },
  TOGGLE_SCREENSHARE: { local: false },
  GET_ENTITLEMENTS: { local: false },
  GET_SKUS: { local: false },
  GET_APPLICATION_TICKET: { local: false },
  START_PURCHASE: { local: false },
  CREATE_LOBBY: { local: false },
  UPDATE_LOBBY: { local: false },
  DELETE_LOBBY: { local: false },
  UPDATE_LOBBY_MEMBER: { local: false },
  CONNECT_TO_LOBBY: { local: false },
  DISCONNECT_FROM_LOBBY: { local: false },
  SEND_TO_LOBBY: { local: false },
  SEARCH_LOBBIES: { local: false },
  CONNECT_TO_LOBBY_VOICE: { local: false },
  DISCONNECT_FROM_LOBBY_VOICE: { local: false },
  // Browser-only (rpc.private): never available over IPC.
  INVITE_BROWSER: { local: false },
  GUILD_TEMPLATE_BROWSER: { local: false },
  DEEP_LINK: { local: false },
  CONNECTIONS_CALLBACK: { local: false },
};
