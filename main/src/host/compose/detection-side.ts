import type { RpcServer } from '../../../../rpc/src/index.js';
import { detectableOsOf } from '../detection/detectable-index.js';
import { DetectableListFile } from '../detection/detectable-list-file.js';
import { DetectableList } from '../detection/detectable-list.js';
import { DetectionService } from '../detection/detection-service.js';
import { DetectionSettingsStore } from '../detection/detection-settings-store.js';
import { GameDetector } from '../detection/game-detector.js';
import { defaultProcessSource } from '../detection/default-process-source.js';
import type { PresenceRelay } from '../presence/presence-relay.js';
import type { PresenceService } from '../presence/presence-service.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { HostOptions, HostTuning } from './host-options.js';
import type { Teardown } from './teardown.js';

/** The scanner where this OS has a process source (Linux, Windows), else none; the source is closed when the host stops. */
function detectorFor(options: HostOptions, tuning: HostTuning, teardown: Teardown): GameDetector | null {
  const source = options.gameDetection === false || tuning.detection?.scan === false ? null : defaultProcessSource();
  if (source === null) return null;
  teardown.add(() => source.close?.());
  return new GameDetector({
    source,
    ...(tuning.detection?.intervalMs === undefined ? {} : { interval: tuning.detection.intervalMs }),
    onError: (error) => options.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'game detection: a scan failed'),
  });
}

/**
 * Game detection: the detectable list (its cached copy first, then fetched at each sign-in and
 * kept fresh while signed in), the player's detection settings (`detection.json`), the scanner,
 * and their wiring to the session (sign-in and sign-out), the relay, and the games' RPC
 * activities (which win over a detected one). Call after `relayGameActivities`: an RPC change
 * is then in the relay when the detected activity looks at it.
 */
export async function startDetectionSide(
  options: HostOptions,
  tuning: HostTuning,
  parts: { readonly session: PlatformSession; readonly server: RpcServer; readonly relay: PresenceRelay; readonly presence: PresenceService },
  teardown: Teardown,
): Promise<DetectionService> {
  const { session, server } = parts;
  const list = new DetectableList({ fetch: (etag) => session.publicApi.detectableApplications(etag), file: new DetectableListFile(options.dataDir), logger: options.logger });
  await list.loadCache();
  const { store } = await DetectionSettingsStore.load(options.dataDir, { logger: options.logger });
  teardown.add(() => store.flush());
  const service = new DetectionService({
    list,
    settings: store,
    detector: detectorFor(options, tuning, teardown),
    ...(options.gameDetection === false ? { noScannerReason: 'game detection is off for this run (serve --no-game-detection): only games that speak RPC show' } : {}),
    relay: parts.relay,
    os: detectableOsOf(process.platform) ?? 'linux',
  });
  teardown.add(async () => {
    service.dispose();
    await list.flush();
  });
  // A sign-in fetches the list once (the cached account at start and its confirmation are one).
  let signedInAs: string | null = null;
  const follow = (user: { readonly id: string } | null): void => {
    const id = user?.id ?? null;
    if (id === signedInAs) return;
    signedInAs = id;
    if (id === null) service.signOut();
    else void service.signIn();
  };
  session.on('account', follow);
  // The platform is back after a fetch failed: ask again now rather than at the retry.
  session.on('ready', () => {
    if (list.status().last_error !== null) void list.refresh();
  });
  if (session.user !== null) follow(session.user);
  // The player is told once that a game's activity is shared, detected or not.
  service.on('start', (game) => parts.presence.detectedActivity(game.applicationId, game.name));
  server.on('activity', (change) => {
    const applicationId = change.connection.clientId;
    if (applicationId !== null) service.rpcActivityChanged(applicationId);
  });
  return service;
}
