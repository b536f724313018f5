import type { ResolvedPrefix, RpcServer } from '../../../../rpc/src/index.js';
import type { PresenceUpdateCommand } from '../../../../platform/src/wire/index.js';
import type { DoctorView } from '../../../../preload/src/contract.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { PresenceService } from '../presence/presence-service.js';
import { darwinUserTempDir } from '../../base/darwin-temp-dir.js';
import { startAuthorizationSide, type AuthorizationSide } from './authorization-side.js';
import { startControlSide, type ControlSide } from './control-side.js';
import { startDetectionSide } from './detection-side.js';
import type { DetectionService } from '../detection/detection-service.js';
import { firstSignIn, type SignInOutcome } from './first-sign-in.js';
import type { ClaimedDirectories } from './host-directories.js';
import type { HostOptions, HostTuning } from './host-options.js';
import { startListening, type Listening } from './listening.js';
import { startPlatformSide, type PlatformSide } from './platform-side.js';
import { createPresenceService, relayGameActivities, startPresenceRelay, type PresenceRelaySide } from './presence-side.js';
import { loadOriginApprovals } from './rpc-websocket.js';
import { createRpcSide } from './rpc-side.js';
import { publishRuntimeInfo } from './runtime-record.js';
import { Later } from './later.js';
import { followSession } from './session-wiring.js';
import { refusePlatformCommandsWhileBanned } from '../session/banned-account-gate.js';
import { createSocialSide, loadDmReadMarks, type SocialSide } from './social-side.js';
import type { Teardown } from './teardown.js';
import { startVoiceSide, type VoiceSide } from './voice-side.js';
import { platformGuildSource } from '../guilds/platform-guild-source.js';

/** Everything a started host is made of. */
export interface HostParts {
  readonly prefix: ResolvedPrefix;
  readonly platform: PlatformSide;
  readonly relay: PresenceRelaySide;
  readonly server: RpcServer;
  readonly social: SocialSide;
  readonly auth: AuthorizationSide;
  readonly presence: PresenceService;
  readonly detection: DetectionService;
  readonly voice: VoiceSide;
  readonly origins: OriginApprovals;
  readonly originsWarning: string | null;
  readonly control: ControlSide;
  readonly signedIn: SignInOutcome;
  readonly listening: Listening;
  readonly runtimeFile: string;
}

/**
 * Starts the host's parts in order, each registering its stop step with `teardown`: the
 * platform and session, the relay, the RPC server, the social side, authorization, the
 * presence service and the session's followers, the origin approvals, the control side, the
 * first sign-in, then the listeners (games can connect from here on) and the runtime file.
 */
export async function assembleHost(options: HostOptions, tuning: HostTuning, claimed: ClaimedDirectories, teardown: Teardown): Promise<HostParts> {
  const { logger } = options;
  // The session asks for the presence only once the gateway connects, after the relay exists.
  const laterRelay = new Later<PresenceRelaySide>('the presence relay');
  const platform = await startPlatformSide(options, tuning, teardown, (): PresenceUpdateCommand => laterRelay.get().relay.current());
  const { session } = platform;
  const relay = laterRelay.set(await startPresenceRelay(options, tuning, session, teardown));
  const perProgram = options.listen?.maxConnectionsPerProgram;
  const { server, apps } = createRpcSide(session, platform.url, logger, teardown, perProgram === undefined ? {} : { maxConnectionsPerPeer: perProgram });
  const social = createSocialSide(options, tuning, { session, server, readMarks: await loadDmReadMarks(options, teardown) });
  const auth = await startAuthorizationSide(options, tuning, { session, server, relay: relay.relay }, teardown);
  relayGameActivities(server, relay.relay);
  const presence = createPresenceService(options, { server, relay }, teardown);
  const detection = await startDetectionSide(options, tuning, { session, server, relay: relay.relay, presence }, teardown);
  auth.recorder.followDetection(detection);
  const voice = await startVoiceSide(
    options,
    { server, session, channels: platformGuildSource(() => session.authedApi()), users: social.users, opens: social.opens, platformUrl: platform.url },
    teardown,
  );
  followSession({ session, server, relay: relay.relay, ...social, grantSync: auth.grantSync, guilds: auth.guilds, logger });
  // Last: it wraps the handlers installed above.
  refusePlatformCommandsWhileBanned(server, () => session.banned);

  const { approvals: origins, warning: originsWarning } = await loadOriginApprovals({ dataDir: options.dataDir, platformUrl: platform.url, apps, logger });
  teardown.add(() => origins.flush());
  // macOS: the GUI session's TMPDIR (a `getconf` run), for the listeners and the doctor alike.
  const guiTempDir = options.boundAtStart?.guiTempDir ?? options.listen?.guiTempDir ?? (await darwinUserTempDir());
  const laterListening = new Later<Listening>('the listeners');
  const control = await startControlSide(
    options,
    {
      platform,
      server,
      social,
      auth,
      presence,
      voice,
      origins,
      ipcPath: () => laterListening.peek()?.ipc.primary.path ?? null,
      webSocketPort: () => laterListening.peek()?.webSocket?.port ?? null,
      doctor: () => runDoctor(options, guiTempDir),
      detection,
    },
    teardown,
    tuning,
  );

  const credentials = options.platform?.credentials ?? (platform.embedded === null ? undefined : { username: platform.embedded.firstUsername });
  const signedIn = await firstSignIn(session, credentials);
  const listening = laterListening.set(await startListening(options, tuning, { server, origins, guiTempDir }, teardown));
  const runtimeFile = await publishRuntimeInfo(claimed, runtimeInfo(options, claimed, platform, control, listening), teardown);
  return { prefix: claimed.prefix, platform, relay, server, social, auth, presence, detection, voice, origins, originsWarning, control, signedIn, listening, runtimeFile };
}

/** `companion doctor` for the UI, loaded when the player asks: the host does not carry its code otherwise. */
async function runDoctor(options: HostOptions, guiTempDir: string | undefined): Promise<DoctorView> {
  const [{ buildDoctorReport }, { doctorView }] = await Promise.all([import('../../diagnostics/doctor/doctor-report.js'), import('../ui-bridge/doctor-view.js')]);
  const report = await buildDoctorReport({ env: options.env, runtimeDir: options.listen?.runtimeDir, guiTempDir });
  return doctorView(report, Date.now());
}

function runtimeInfo(options: HostOptions, claimed: ClaimedDirectories, platform: PlatformSide, control: ControlSide, listening: Listening): Parameters<typeof publishRuntimeInfo>[1] {
  const primary = listening.ipc.primary;
  const { embedded } = platform;
  const webUi = control.webUi;
  return {
    pid: process.pid,
    version: options.version,
    startedAt: claimed.startedAt,
    ipc: { path: primary.path, index: primary.index },
    listeners: listening.ipc.listeners.map(({ directory, listener }) => ({ path: listener.path, index: listener.index, kind: directory.kind })),
    control: { url: control.control.url, token: control.control.token },
    ...(webUi === null ? {} : { webUi: { url: webUi.baseUrl, token: webUi.token } }),
    platform: { url: platform.url, embedded: embedded !== null, ...(embedded === null ? {} : { adminToken: embedded.adminToken }) },
  };
}
