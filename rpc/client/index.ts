// The game-side SDK: `import { Client, AuthorizationArgs } from 'companion/client'`.

export {
  Client,
  type Activity,
  type ActivityInvite,
  type ActivityJoinRequest,
  type AuthorizeCallback,
  type AuthorizeOptions,
  type AuthorizeOutcome,
  type ChildTokenCallback,
  type ClientOptions,
  type CustomSchemeAuthorizeRequest,
  type ConnectionStatus,
  type ReadyData,
  type ResultCallback,
  type RpcUserSummary,
  type StatusCallback,
  type TokenCallback,
  type TokenExpirationCallback,
  type TokenInvalidated,
  type TokenOutcome,
} from './client.js';

export { DeviceAuthorizationArgs, type DeviceCode, type DeviceTokenCallback } from './client-device.js';

export {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  IntegrationType,
  INVALID_CHALLENGE_MESSAGE,
  INVALID_RECORD_MESSAGE,
  type AuthenticationCodeChallengeMethod,
} from './authorization-args.js';

export {
  authorizeResultFromRpcError,
  ClientResult,
  ClientResultError,
  oauthErrorType,
  toClientResult,
  type ClientResultInit,
  type ClientResultType,
} from './client-result.js';

export type { ExternalAuthType, ExternalIdentityProviderType, UserApplicationProfile } from './provisional-api.js';

export { AuthorizationCodeVerifier, codeChallengeS256, createAuthorizationCodeVerifier, isValidCodeVerifier } from './pkce.js';

export { DEFAULT_COMMUNICATION_SCOPES, DEFAULT_PRESENCE_SCOPES, getDefaultCommunicationScopes, getDefaultPresenceScopes } from './scopes.js';

export { authorizeUrl, desktopRedirectUri, mobileRedirectUri, SERVICE_SCHEME_PREFIX } from './redirects.js';

export {
  browserAuthorize,
  DEFAULT_BROWSER_AUTHORIZE_TIMEOUT_MS,
  generateState,
  openInBrowser,
  type BrowserAuthorizeOptions,
  type BrowserAuthorizeOutcome,
} from './browser-authorize.js';

export {
  DEFAULT_HTTP_TIMEOUT_MS,
  getToken,
  refreshToken,
  revokeToken,
  type GetTokenOptions,
  type RefreshTokenOptions,
  type RevokeTokenOptions,
  type TokenResponse,
} from './oauth-http.js';

export {
  createClientLogger,
  DEBUG_BUILD_WARNING,
  LOG_LEVELS,
  MAX_LOG_SECRETS,
  REDACTED,
  type BuildKind,
  type ClientLogger,
  type ClientLoggerOptions,
  type LogFields,
  type LogLevel,
} from './logger.js';

// The connection layer, for tools that want the protocol without the Client.
export {
  backoffDelay,
  candidateSocketPaths,
  ConnectError,
  DEFAULT_BACKOFF,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_PONG_TIMEOUT_MS,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  discoveryDirectories,
  existingSocketPaths,
  RpcRequestError,
  RpcSocket,
  SANDBOX_SUBDIRECTORIES,
  SdkConnection,
  type BackoffOptions,
  type CloseInfo,
  type DisconnectDetail,
  type RequestFailureKind,
  type RpcSocketOptions,
  type SdkConnectionEvents,
  type SdkConnectionOptions,
} from './connection/index.js';

export type { LinkedChannelHandle, LobbyCallbacks, LobbyHandle, LobbyMemberHandle, MessageHandle, Metadata } from './client-lobbies.js';
export { ActivityActionTypes, AdditionalContentType, type AdditionalContent, type MessageActivityInvite } from './message-content.js';
export type { PlatformStatus } from './platform-session.js';
export { RelationshipKind, RelationshipType, type RelationshipCallbacks, type RelationshipChangedCallback, type RelationshipHandle, type RelationshipKindName, type UpdateRelationshipCallback } from './client-relationships.js';
export { RelationshipGroupType, type UserChangedCallback } from './client-relationship-groups.js';
export { steamLaunchCommand } from './client-presence.js';
export { avatarUrlOf, StatusType, UserHandle, type GameActivity, type WireUser } from './user-handle.js';
export { ChannelType, type GuildChannel, type GuildMinimal, type LinkedLobby } from './guild-api.js';

// Issue 28 §1: channels, DM summaries and the log's destinations.
export type { ChannelHandle, UserMessageSummary } from './client-messages-extra.js';
export type { LogCallback, LogSeverity } from './client-logging.js';

// Issue 29 §2: lobby calls and the virtual audio devices.
export { Call } from './voice/call.js';
export {
  AudioModeType,
  CallError,
  CallStatus,
  type CallParticipantChangedCallback,
  type CallSpeakingChangedCallback,
  type CallStatusChangedCallback,
  type CallVoiceStateChangedCallback,
  type UserAudioCapturedCallback,
  type UserAudioReceivedCallback,
  type VoiceParticipantChangedCallback,
  type VoiceStateHandle,
} from './voice/call-types.js';
export { VirtualInputDevice, VirtualOutputDevice, type AudioDevice, type OutputListener } from './voice/virtual-devices.js';
export type { AudioProcessing, NoAudioInputCallback } from './client-voice.js';
export { DEFAULT_AUDIO_DEVICE_ID, type DeviceChangeCallback } from './voice/virtual-device-set.js';
export { ToneSource } from '../../common/src/voice/tone.js';
