import type { GatewayActivity, RpcLogger, RpcServer } from '../../rpc/src/index.js';
import {
  ControlError,
  type ControlEvent,
  type ControlStatus,
  type GatewayState,
  type LoginInput,
} from './control/control-backend.js';
import { startControlServer } from './control/control-server.js';
import type { ConsentBroker } from './consent/consent-broker.js';
import { consentControlEvents, toConsentPromptView } from './consent/control-views.js';
import type { GrantCache } from './consent/grant-cache.js';
import { OAuthGatewayEvent, type OAuthGrant } from '../../platform/src/wire/index.js';
import type { PlatformSession, SessionStatus } from './platform-session.js';
import type { FriendPresences } from './presence/friend-presences.js';
import type { SocialService } from './social/social-service.js';
import { SocialError } from './social/social-error.js';
import type { WebUiBackend } from './web-ui/web-ui-server.js';

export interface HostControlOptions {
  readonly version: string;
  readonly broker: ConsentBroker;
  readonly grants: GrantCache;
  /** The signed-in user's confirmed grants. */
  readonly grantList: () => OAuthGrant[];
  /** Revokes the app's grant on the platform (the host then learns it through the gateway). */
  readonly revokeGrant: (applicationId: string) => Promise<void>;
  readonly session: PlatformSession;
  readonly server: RpcServer;
  readonly friends: FriendPresences;
  readonly social: SocialService;
  readonly platform: { readonly url: string; readonly embedded: boolean };
  readonly ipcPath: () => string | null;
  readonly logger: RpcLogger;
}

export interface HostControl {
  readonly url: string;
  readonly token: string;
  /** The control API's backend, plus what only the UI does (dismissing a consent prompt). */
  readonly backend: WebUiBackend;
  close(): Promise<void>;
}

function gatewayState(status: SessionStatus['status']): GatewayState {
  switch (status) {
    case 'ready':
      return 'ready';
    case 'reconnecting':
      return 'reconnecting';
    case 'connecting':
    case 'signing-in':
      return 'connecting';
    default:
      return 'disconnected';
  }
}

/**
 * The activity as the control API shows it: join secrets never leave the host except to the
 * platform (the activity's flags still say whether it is joinable).
 */
function withoutSecrets(activity: GatewayActivity | null): GatewayActivity | null {
  if (activity === null || activity.secrets === undefined) return activity;
  const { secrets: _secrets, ...rest } = activity;
  return rest as GatewayActivity;
}

/** Social errors carry an HTTP status already; anything else is left to the API's 500. */
async function mapped<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof SocialError) throw new ControlError(error.status, error.message);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 600) {
      throw new ControlError(status, error instanceof Error ? error.message : 'platform error');
    }
    if (status === 0) throw new ControlError(503, 'Companion cannot reach the platform right now');
    throw error;
  }
}

/** The host's side of the control API: views of its state and the actions on it. */
export async function startHostControl(options: HostControlOptions): Promise<HostControl> {
  const { session, server, friends, social } = options;
  const listeners = new Set<(event: ControlEvent) => void>();
  const publish = (event: ControlEvent): void => {
    for (const listener of listeners) listener(event);
  };
  session.on('status', (status) => publish({ type: 'gateway', data: { status: gatewayState(status.status), detail: status.detail } }));
  session.on('account', (user) => publish({ type: 'account', data: user === null ? null : { user } }));
  friends.on('change', (change) => publish({ type: 'friends', data: change }));
  social.on('change', (change) => publish({ type: change.type, data: change.data }));
  consentControlEvents(options.broker, publish);
  // The grant cache changes after the gateway's event (queued writes): tell once it is done.
  session.on('dispatch', (t) => {
    if ((t === OAuthGatewayEvent.GrantCreate || t === OAuthGatewayEvent.GrantDelete) && listeners.size > 0) {
      void options.grants.flush().then(() => publish({ type: 'grants', data: null }));
    }
  });
  server.on('ready', (connection) => publish({ type: 'game-connected', data: { connection_id: connection.id, client_id: connection.clientId } }));
  server.on('disconnect', (connection) => publish({ type: 'game-disconnected', data: { connection_id: connection.id } }));
  // On the SET_ACTIVITY path: build the event only when someone streams events.
  server.on('activity', (change) => {
    if (listeners.size > 0) publish({ type: 'game-activity', data: { connection_id: change.connection.id, activity: withoutSecrets(change.activity) } });
  });

  const status = (): ControlStatus => {
    const user = session.user;
    const ipc = options.ipcPath();
    return {
      version: options.version,
      account: user === null ? null : { user },
      gateway: { status: gatewayState(session.status.status), detail: session.status.detail },
      ipc: ipc === null ? null : { path: ipc },
      platform: options.platform,
    };
  };

  const backend: WebUiBackend = {
    status,
    games: () =>
      [...server.connections()]
        .filter((connection) => connection.state === 'ready' && connection.clientId !== null)
        .map((connection) => ({
          connection_id: connection.id,
          client_id: connection.clientId as string,
          application_name: connection.applicationName,
          pid: connection.pid,
          activity: withoutSecrets(connection.activity),
          connected_at: connection.connectedAt,
        })),
    friends: () => friends.list().map((entry) => ({ user: entry.user, presence: { status: entry.presence.status, activities: entry.presence.activities } })),
    joinRequests: () =>
      social.joinRequests().map((request) => ({
        id: request.id,
        user: request.user,
        application_id: request.applicationId,
        channel_id: request.channelId,
        message_id: request.messageId,
        received_at: request.receivedAt,
      })),
    acceptJoinRequest: (id) => mapped(social.acceptJoinRequest(id)),
    declineJoinRequest: (id) => mapped(social.declineJoinRequest(id)),
    invites: () =>
      social.invites().map((invite) => ({
        id: invite.id,
        user: invite.user,
        application_id: invite.applicationId,
        activity: invite.activity,
        channel_id: invite.channelId,
        message_id: invite.messageId,
        received_at: invite.receivedAt,
        valid: invite.valid,
      })),
    acceptInvite: (id) => mapped(social.acceptInvite(id)),
    sendInvite: (input) => mapped(social.sendInvite(input)),
    requestToJoin: (input) => mapped(social.requestToJoin(input)),
    login: async (input: LoginInput) => {
      const user = await mapped(session.signIn(input, { retry: false }));
      return { user };
    },
    logout: () => session.signOut(),
    consentRequests: () => options.broker.pending().map(toConsentPromptView),
    approveConsent: async (id) => {
      if (!options.broker.decide(id, 'approve')) throw new ControlError(404, `No pending consent request ${id}`);
    },
    denyConsent: async (id) => {
      if (!options.broker.decide(id, 'deny')) throw new ControlError(404, `No pending consent request ${id}`);
    },
    dismissConsent: async (id) => {
      if (!options.broker.decide(id, 'dismiss')) throw new ControlError(404, `No pending consent request ${id}`);
    },
    grants: async () => options.grantList(),
    revokeGrant: (applicationId) => mapped(options.revokeGrant(applicationId)),
    sendAuthorizeRequest: async (applicationId) => ({
      delivered: server.dispatch('AUTHORIZE_REQUEST', null, { to: (connection) => connection.clientId === applicationId }),
    }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  const started = await startControlServer({ backend, logger: options.logger });
  return { url: started.url, token: started.token, backend, close: () => started.close() };
}
