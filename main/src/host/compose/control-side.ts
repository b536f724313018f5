import type { VoiceSide } from './voice-side.js';
import { voiceRoutes } from '../control/voice-routes.js';
import { join } from 'node:path';
import type { RpcServer } from '../../../../rpc/src/index.js';
import type { DoctorView } from '../../../../preload/src/contract.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { DetectionService } from '../detection/detection-service.js';
import type { PresenceService } from '../presence/presence-service.js';
import { frameLinter } from '../ui-bridge/frame-lints.js';
import { HostEvents } from '../record/host-events.js';
import { UiImages } from '../ui-bridge/ui-images.js';
import { ExternalImages } from '../ui-bridge/external-images.js';
import { suppliedImages } from '../ui-bridge/supplied-images.js';
import type { FrameLinter } from '../ui-bridge/frame-log.js';
import { hostSettings, logLevelOf } from '../ui-bridge/host-settings.js';
import type { WebUi } from '../ui-bridge/web-ui-port.js';
import { ControlError } from '../control/control-backend.js';
import type { ControlRouteEntry } from '../control/control-routes.js';
import { deviceCodeRoutes } from '../control/device-code-routes.js';
import type { AuthorizationSide } from './authorization-side.js';
import { startHostControl, type HostControl } from './host-control.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { PlatformSide } from './platform-side.js';
import type { SocialSide } from './social-side.js';
import type { Teardown } from './teardown.js';

/** The control API and the headless UI over it. */
export interface ControlSide {
  readonly control: HostControl;
  /** The headless UI, or null when turned off. */
  readonly webUi: WebUi | null;
  readonly frameLinter: FrameLinter;
  /** The host's side of the conversation for the inspector (the desktop shell's bridge uses it too). */
  readonly hostEvents: HostEvents;
  /** The pictures the UI shows, from the platform's CDN (the desktop shell serves them too). */
  readonly images: UiImages;
}

export interface ControlSideParts {
  readonly platform: PlatformSide;
  readonly server: RpcServer;
  readonly social: SocialSide;
  readonly auth: AuthorizationSide;
  readonly presence: PresenceService;
  /** The player's voice settings (GET/PATCH /v1/voice/settings) and voice channel (GET/PATCH /v1/voice). */
  readonly voice: Pick<VoiceSide, 'store' | 'panel'>;
  readonly origins: OriginApprovals;
  /** Asked only by API requests, which come once the host listens. */
  readonly ipcPath: () => string | null;
  readonly webSocketPort: () => number | null;
  readonly doctor: () => Promise<DoctorView>;
  /** Game detection: its games, settings and events. */
  readonly detection: DetectionService;
}

/**
 * The control API (with QA mode's routes when the host has it) and the UI for headless hosts:
 * the same contract as the Electron preload, over a WebSocket.
 */
export async function startControlSide(options: HostOptions, parts: ControlSideParts, teardown: Teardown, tuning: Pick<HostTuning, 'externalImages'> = {}): Promise<ControlSide> {
  const { platform, server, auth } = parts;
  const { session, embedded } = platform;
  // The web UI starts after the control API, which serves its one-time links (`companion ui`).
  let webUi: WebUi | null = null;
  const extraRoutes = [
    uiLinkRoute(() => webUi),
    inspectorFramesRoute(() => webUi),
    ...deviceCodeRoutes(() => session.authedApi()),
    ...voiceRoutes(parts.voice.store, parts.voice.panel),
    ...(options.qa?.controlRoutes({
      server,
      session,
      platformAdmin: embedded === null ? null : { url: platform.url, adminToken: embedded.adminToken },
    }) ?? []),
  ];
  const control = await startHostControl({
    recorder: { recorder: auth.recorder, dir: join(options.dataDir, 'recordings') },
    origins: parts.origins,
    presence: parts.presence,
    detection: parts.detection,
    version: options.version,
    broker: auth.broker,
    grants: auth.grants,
    grantList: () => auth.grantSync.list(),
    revokeGrant: (applicationId) => auth.grantSync.revoke(applicationId),
    session,
    server,
    friends: parts.social.friends,
    social: parts.social.social,
    reads: parts.social.reads,
    opens: parts.social.opens,
    deviceScreens: parts.social.deviceScreens,
    relationships: parts.social.relationships,
    relationshipActions: parts.social.relationshipActions,
    platform: { url: platform.url, embedded: embedded !== null },
    ipcPath: parts.ipcPath,
    webSocketPort: parts.webSocketPort,
    doctor: parts.doctor,
    voice: parts.voice.panel,
    logger: options.logger,
    extraRoutes,
  });
  teardown.add(() => control.close());

  const lint = frameLinter(server, session.publicApi);
  // Recordings carry the lints the live inspector shows (issue 26 §9).
  auth.recorder.lintWith(lint);
  const hostEvents = new HostEvents({ server, consent: auth.broker, gateway: session, detection: parts.detection });
  const external = new ExternalImages({ supplied: suppliedImages(control.backend) }, tuning.externalImages);
  const images = new UiImages({ cdnBase: () => platform.url, assets: (applicationId) => session.publicApi.assets(applicationId), external });
  const logLevel = logLevelOf(options.logger);
  const start = options.ui?.start;
  webUi =
    start === undefined
      ? null
      : await start({
          backend: control.backend,
          server,
          settings: hostSettings({ broker: auth.broker, logger: options.logger, ...(logLevel === undefined ? {} : { logLevel }) }),
          lint,
          hostEvents,
          images,
          logger: options.logger,
          ...(options.ui?.rendererDir === undefined ? {} : { rendererDir: options.ui.rendererDir }),
        });
  const started = webUi;
  if (started !== null) teardown.add(() => started.close());
  return { control, webUi: started, frameLinter: lint, hostEvents, images };
}

/**
 * `GET /v1/inspector/frames/:since`: the inspector's rows the host keeps whose seq is above
 * `since` (0: all of them, every connection's from its first byte), as the UI gets them, with
 * `dropped_before` where rows were dropped, and the newest seq (to ask from next).
 */
function inspectorFramesRoute(webUi: () => WebUi | null): ControlRouteEntry {
  return [
    'GET',
    '/v1/inspector/frames/:since',
    async ({ params }) => {
      const frames = webUi()?.frames;
      if (frames === undefined) throw new ControlError(404, 'This host keeps no inspector rows (it serves no web UI)');
      const since = Number(params['since']);
      if (!Number.isSafeInteger(since) || since < 0) throw new ControlError(400, "'since' must be a non-negative integer", 'invalid_request');
      return { last_seq: frames.lastSeq, frames: frames.since(since) };
    },
  ];
}

/** `POST /v1/ui/links`: a URL that opens the web UI once (`companion ui`). */
function uiLinkRoute(webUi: () => WebUi | null): ControlRouteEntry {
  return [
    'POST',
    '/v1/ui/links',
    async () => {
      const ui = webUi();
      if (ui === null) throw new ControlError(404, 'This host serves no web UI (it is the desktop app: open its window)');
      return { url: ui.oneTimeUrl() };
    },
  ];
}
