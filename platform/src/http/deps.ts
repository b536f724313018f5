import type { AccessPolicy } from '../access/policy.js';
import type { GatewayServer } from '../gateway/server.js';
import type { PresenceHub } from '../gateway/presence.js';
import type { Dispatcher } from '../gateway/sessions.js';
import type { InviteService } from '../invites/invites.js';
import type { LobbyInvites } from '../lobbies/lobby-invites.js';
import type { LobbyService } from '../lobbies/lobby-service.js';
import type { RelationshipService } from '../relationships/relationship-service.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import type { AppRecord } from '../state/model.js';
import type { AppRegistry } from '../state/app-registry.js';
import type { Store } from '../state/store.js';

/** What the HTTP routes use. */
export interface HttpDeps {
  readonly store: Store;
  /** Who may see and change what (access/policy.ts). */
  readonly policy: AccessPolicy;
  readonly presence: PresenceHub;
  readonly dispatcher: Dispatcher;
  readonly invites: InviteService;
  readonly gateway: GatewayServer;
  readonly limits: PlatformLimits;
  readonly now: () => number;
  readonly logger: PlatformLogger;
  readonly adminToken: string;
  /** The gateway's URL; `secure`: the TLS listener's (`wss://`), for a request that came over it. */
  readonly gatewayUrl: (secure?: boolean) => string;
  /** The app for an id, or undefined; never registers one. */
  readonly resolveApp: (id: string) => AppRecord | undefined;
  /** Registration on first use (the registration route only). */
  readonly apps: Pick<AppRegistry, 'register'>;
  readonly lobbies: LobbyService;
  /** Lobby channel invites (single use, one hour). */
  readonly lobbyInvites: LobbyInvites;
  readonly relationships: RelationshipService;
  /** A signed webhook event to an application (nothing when it has no webhook URL). */
  readonly appEvent?: (applicationId: string, type: string, data: unknown) => void;
}
