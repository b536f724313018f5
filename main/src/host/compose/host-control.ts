import type { RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import type { DoctorView } from '../../../../preload/src/contract.js';
import type { OAuthGrant } from '../../../../platform/src/wire/index.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import type { GrantCache } from '../auth/grant-cache.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { ControlStatus } from '../control/control-backend.js';
import { startControlServer, type ControlRouteEntry } from '../control/control-server.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import type { PresenceService } from '../presence/presence-service.js';
import type { HostRecorder } from '../record/host-recorder.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { RelationshipActions } from '../social/relationship-actions.js';
import type { RelationshipBook } from '../social/relationship-book.js';
import type { DmReadState } from '../social/dm-read-state.js';
import type { SocialService } from '../social/social-service.js';
import type { OpenInCompanion } from '../social/open-in-companion.js';
import type { DeviceScreens } from '../social/device-screen.js';
import { deviceCodeCalls } from '../control/device-code-routes.js';
import type { WebUiBackend } from '../ui-bridge/web-ui-backend.js';
import type { DetectionService } from '../detection/detection-service.js';
import type { VoicePanel } from '../voice/voice-panel.js';
import { authorizationActions, detectionActions, doctorAction, originActions, presenceActions, recordingActions, relationshipActions, socialActions } from './control-actions.js';
import { ControlEvents } from './control-events.js';
import { gameViews, gatewayState } from './control-views.js';

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
  /** Which direct messages the player has not read; absent: every conversation shows 0 unread. */
  readonly reads?: DmReadState;
  /** The views games ask Companion to show: streamed as `open-view` events. */
  readonly opens?: OpenInCompanion;
  /** The "Link a device" screen games open: the window says when it closes it. */
  readonly deviceScreens?: DeviceScreens;
  /** Friend requests and blocks (from the session), and the player's changes to them. */
  readonly relationships: RelationshipBook;
  readonly relationshipActions: RelationshipActions;
  readonly platform: { readonly url: string; readonly embedded: boolean };
  readonly ipcPath: () => string | null;
  /** The RPC WebSocket's port, null when it is not listening. */
  readonly webSocketPort?: () => number | null;
  /** The recorder and where the UI's recordings go (`<data dir>/recordings`). */
  readonly recorder?: { readonly recorder: HostRecorder; readonly dir: string };
  /** `companion doctor` in the host's environment (the UI's Settings panel). */
  readonly doctor?: () => Promise<DoctorView>;
  readonly logger: RpcLogger;
  /** Web origins of the RPC WebSocket waiting for, or given, the player's answer. */
  readonly origins?: OriginApprovals;
  /** Presence arbitration, privacy and relay outcomes (`/v1/presence`, `presence-*` events). */
  readonly presence?: PresenceService;
  /** Game detection (`detected: true` games, the Settings screen's list, `detection-*` events). */
  readonly detection?: DetectionService;
  /** The player's voice channel and mute/deafen (the UI's voice panel); absent: none. */
  readonly voice?: VoicePanel;
  /** Routes beside the product's (QA mode's `/v1/inject/*`); absent: none. */
  readonly extraRoutes?: readonly ControlRouteEntry[];
}

export interface HostControl {
  readonly url: string;
  readonly token: string;
  /** The control API's backend, plus what only the UI does (dismissing a consent prompt). */
  readonly backend: WebUiBackend;
  close(): Promise<void>;
}

/** The host's side of the control API: views of its state, the actions on it, its events. */
export function hostControlBackend(options: HostControlOptions): WebUiBackend {
  const { session, server, friends, social } = options;
  const events = new ControlEvents();
  events.follow({ ...options, recorder: options.recorder?.recorder });
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
  return {
    status,
    games: () => gameViews(server),
    ...socialActions(session, friends, social, options.reads),
    ...relationshipActions(options.relationships, options.relationshipActions),
    ...authorizationActions(options.broker, server, { list: options.grantList, revoke: options.revokeGrant }),
    ...originActions(options.origins),
    ...recordingActions(options.recorder),
    ...presenceActions(options.presence),
    ...doctorAction(options.doctor),
    ...deviceActions(session, options.deviceScreens),
    ...detectionActions(options.detection),
    ...voiceActions(options.voice),
    subscribe: events.subscribe,
  };
}

/** The voice panel's calls, when the host has a voice side. */
function voiceActions(panel: VoicePanel | undefined): Pick<WebUiBackend, 'voice' | 'setVoice'> {
  if (panel === undefined) return {};
  return { voice: () => panel.view(), setVoice: (patch) => panel.set(patch) };
}

/** The "Link a device" screen's calls: the device flow with the signed-in player's account, and the screen closing. */
function deviceActions(session: PlatformSession, screens: DeviceScreens | undefined): Pick<WebUiBackend, 'previewDeviceCode' | 'decideDeviceCode' | 'closeDeviceScreen' | 'deviceScreen'> {
  const calls = deviceCodeCalls(() => session.authedApi());
  return {
    previewDeviceCode: (userCode) => calls.preview(userCode),
    decideDeviceCode: (userCode, authorize) => calls.decide(userCode, authorize),
    closeDeviceScreen: (screenId) => screens?.closedByWindow(screenId),
    deviceScreen: () => {
      const open = screens?.open() ?? null;
      return open === null ? null : { view: 'authorize-device', screen_id: open.screenId, application_id: open.applicationId, user_code: open.userCode };
    },
  };
}

/** The control API's HTTP server on the host's backend (and QA mode's routes, when given). */
export async function startHostControl(options: HostControlOptions): Promise<HostControl> {
  const backend = hostControlBackend(options);
  const started = await startControlServer({
    backend,
    logger: options.logger,
    ...(options.extraRoutes === undefined ? {} : { extraRoutes: options.extraRoutes }),
    ...(options.origins === undefined ? {} : { origins: options.origins }),
    ...(options.presence === undefined ? {} : { presence: options.presence }),
  });
  return { url: started.url, token: started.token, backend, close: () => started.close() };
}
