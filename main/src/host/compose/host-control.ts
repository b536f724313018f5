import type { GatewayActivity, RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import {
  ControlError,
  type ControlEvent,
  type ControlStatus,
  type GatewayState,
  type LoginInput,
} from '../control/control-backend.js';
import { startControlServer } from '../control/control-server.js';
import { originControlEvents } from '../control/origin-routes.js';
import { presenceControlEvents } from '../control/presence-routes.js';
import { PresenceSettingsError, type PresenceService, type PresenceSettingsPatch } from '../presence/presence-service.js';
import { presenceSettingsView, presenceView, SNAPSHOT_OUTCOMES } from '../ui-bridge/presence-view.js';
import { RecorderBusyError, type HostRecorder } from '../record/host-recorder.js';
import { recordingView } from '../ui-bridge/recording-view.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { DoctorView } from '../../../../preload/src/contract.js';
import { createInjectionBackend, type InjectionBackend } from '../../tools/inject/injection-backend.js';
import { injectRoutes } from '../../tools/inject/inject-routes.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import { consentControlEvents, toConsentPromptView } from '../control/consent-views.js';
import type { GrantCache } from '../auth/grant-cache.js';
import { OAuthGatewayEvent, type OAuthGrant } from '../../../../platform/src/wire/index.js';
import type { PlatformSession, SessionStatus } from '../session/platform-session.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import type { SocialService } from '../social/social-service.js';
import { SocialError } from '../social/social-error.js';
import type { WebUiBackend } from '../../shells/web/web-ui-server.js';

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
  /** The RPC WebSocket's port, null when it is not listening. */
  readonly webSocketPort?: () => number | null;
  /** The recorder and where the UI's recordings go (`<data dir>/recordings`). */
  readonly recorder?: { readonly recorder: HostRecorder; readonly dir: string };
  /** `companion doctor` in the host's environment (the UI's Settings panel). */
  readonly doctor?: () => Promise<DoctorView>;
  readonly logger: RpcLogger;
  /** The embedded emulator's admin token (QA token-error injection); absent with another platform. */
  readonly platformAdminToken?: string | null;
  /** Web origins of the RPC WebSocket waiting for, or given, the player's answer. */
  readonly origins?: OriginApprovals;
  /** Presence arbitration, privacy and relay outcomes (`/v1/presence`, `presence-*` events). */
  readonly presence?: PresenceService;
}

export interface HostControl {
  readonly url: string;
  readonly token: string;
  /** The control API's backend, plus what only the UI does (dismissing a consent prompt). */
  readonly backend: WebUiBackend;
  /** QA event and fault injection, as the control API's `/v1/inject` serves it. */
  readonly inject: InjectionBackend;
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
  if (options.origins !== undefined) originControlEvents(options.origins, publish);
  if (options.presence !== undefined) presenceControlEvents(options.presence, publish);
  options.recorder?.recorder.on('status', () => publish({ type: 'recording', data: recordingView(options.recorder!.recorder.status()) }));
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
    const webSocketPort = options.webSocketPort?.() ?? null;
    return {
      version: options.version,
      account: user === null ? null : { user },
      gateway: { status: gatewayState(session.status.status), detail: session.status.detail },
      ipc: ipc === null ? null : { path: ipc },
      websocket: webSocketPort === null ? null : { port: webSocketPort },
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
          transport: connection.transport,
          client_library: server.clientGuess(connection),
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
    declineInvite: (id) => mapped(Promise.resolve().then(() => social.declineInvite(id))),
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
    originRequests: () => options.origins?.pending() ?? [],
    originDecisions: () => options.origins?.decisions() ?? [],
    decideOrigin: async (id, decision) => {
      const origins = options.origins;
      const found = origins === undefined ? false : decision === 'approve' ? await origins.approve(id) : origins.deny(id);
      if (!found) throw new ControlError(404, `No pending origin request ${id}`);
    },
    recording: () => (options.recorder === undefined ? null : recordingView(options.recorder.recorder.status())),
    setRecording: async (on) => {
      const target = options.recorder;
      if (target === undefined) throw new ControlError(409, 'this host has no recorder');
      if (!on) return recordingView(await target.recorder.stop());
      await mkdir(target.dir, { recursive: true, mode: 0o700 });
      const file = join(target.dir, `recording-${new Date().toISOString().replace(/[:.]/g, '-')}.rec`);
      try {
        return recordingView(await target.recorder.start(file, { secrets: false }));
      } catch (error) {
        if (error instanceof RecorderBusyError) throw new ControlError(409, error.message);
        throw error;
      }
    },
    presence: () => (options.presence === undefined ? null : presenceView(options.presence.view(SNAPSHOT_OUTCOMES))),
    updatePresence: async (patch) => {
      if (options.presence === undefined) throw new ControlError(409, 'this host has no presence settings');
      try {
        return presenceSettingsView(await options.presence.updateSettings(patch as PresenceSettingsPatch));
      } catch (error) {
        if (error instanceof PresenceSettingsError) throw new ControlError(400, error.message);
        throw error;
      }
    },
    doctor: async () => {
      if (options.doctor === undefined) throw new ControlError(409, 'this host does not run the doctor');
      return options.doctor();
    },
    forgetOrigin: async (id) => {
      if (options.origins === undefined || !(await options.origins.forget(id))) throw new ControlError(404, `No origin decision ${id}`);
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

  const adminToken = options.platformAdminToken ?? null;
  const inject = createInjectionBackend({
    server,
    gateway: () => session.gatewayFaults(),
    gatewayStatus: () => `${session.status.status}: ${session.status.detail}`,
    platformAdmin: adminToken === null ? null : { url: options.platform.url, adminToken },
  });
  const started = await startControlServer({
    backend,
    extraRoutes: injectRoutes(inject),
    logger: options.logger,
    ...(options.origins === undefined ? {} : { origins: options.origins }),
    ...(options.presence === undefined ? {} : { presence: options.presence }),
  });
  return { url: started.url, token: started.token, backend, inject, close: () => started.close() };
}
