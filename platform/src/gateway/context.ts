import type { AccessPolicy } from '../access/policy.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import type { Store } from '../state/store.js';
import type { UserRecord } from '../state/model.js';
import type { Lobby, VoiceState } from '../wire/index.js';
import type { PresenceHub } from './presence.js';
import type { Session } from './session.js';
import type { SessionRegistry } from './sessions.js';

/** What the gateway needs of the voice service (voice/voice-service.ts). */
export interface GatewayVoice {
  /** Op 4 from a session (validated). */
  update(session: { readonly id: string; readonly userId: string }, request: { guild_id: string | null; channel_id: string | null; self_mute: boolean; self_deaf: boolean }): void;
  /** READY's `voice_states` of a guild. */
  guildStates(guildId: string): Omit<VoiceState, 'guild_id' | 'member'>[];
}

/** What a gateway connection needs from the emulator. */
/** The part of an OAuth2 access token's meaning the gateway uses. */
export interface GatewayBearer {
  readonly user: UserRecord;
  readonly applicationId: string;
  readonly scopes: readonly string[];
  readonly tokenId: string;
}

export interface GatewayContext {
  readonly store: Store;
  readonly sessions: SessionRegistry;
  readonly presence: PresenceHub;
  /** Who may say what: a game session's activities are its own game's. */
  readonly policy: AccessPolicy;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** `ws://127.0.0.1:PORT/gateway` (`secure`: the TLS listener's `wss://` one), READY's resume_gateway_url. */
  readonly gatewayUrl: (secure?: boolean) => string;
  /** Last all-members op 8 per `owner:guildId` (owner: access/caller.ts bucketOwner; emulator clock, ms). */
  readonly allMembersRequests: Map<string, number>;
  /** Ends a session for good: forgotten, and the user's presence republished. */
  endSession(session: Session): void;
  /** What an OAuth2 access token stands for (a game's own connection), or undefined (the OAuth2 service's `bearer`). */
  readonly bearer?: (token: string) => GatewayBearer | undefined;
  /** The lobbies of an application a user is a member of, for a game session's READY (the lobby service's `lobbiesOfMember`). */
  readonly lobbiesOf?: (userId: string, applicationId: string) => readonly Lobby[];
  /** Voice channels of servers (read late: made after the gateway); without it op 4 is accepted and ignored. */
  readonly voice?: () => GatewayVoice | undefined;
}
