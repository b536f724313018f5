import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import type { Store } from '../state/store.js';
import type { PresenceHub } from './presence.js';
import type { Session } from './session.js';
import type { SessionRegistry } from './sessions.js';

/** What a gateway connection needs from the emulator. */
export interface GatewayContext {
  readonly store: Store;
  readonly sessions: SessionRegistry;
  readonly presence: PresenceHub;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  /** `ws://127.0.0.1:PORT/gateway`, READY's resume_gateway_url. */
  readonly gatewayUrl: () => string;
  /** Last all-members op 8 per `userId:guildId` (emulator clock, ms). */
  readonly allMembersRequests: Map<string, number>;
  /** Ends a session for good: forgotten, and the user's presence republished. */
  endSession(session: Session): void;
}
