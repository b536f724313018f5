import type { VoiceSettingsStore } from '../voice/voice-settings-store.js';
import type {
  PlacedListener,
  ResolvedPrefix,
  RpcServer,
  SkippedDirectory,
  SlotReport,
} from '../../../../rpc/src/index.js';
import type { ConsentBroker } from '../auth/consent-broker.js';
import type { GrantCache } from '../auth/grant-cache.js';
import type { OriginApprovals } from '../auth/origin-approvals.js';
import type { FriendPresences } from '../presence/friend-presences.js';
import type { PresenceRelay } from '../presence/presence-relay.js';
import type { DetectionService } from '../detection/detection-service.js';
import type { PresenceService } from '../presence/presence-service.js';
import type { HostRecorder } from '../record/host-recorder.js';
import type { PlatformSession } from '../session/platform-session.js';
import type { SocialService } from '../social/social-service.js';
import type { HostEvents } from '../record/host-events.js';
import type { UiImages } from '../ui-bridge/ui-images.js';
import type { FrameLinter } from '../ui-bridge/frame-log.js';
import type { WebUi } from '../ui-bridge/web-ui-port.js';
import type { EmbeddedPlatform } from './embedded-platform.js';
import type { SignInOutcome } from './first-sign-in.js';
import type { HostControl } from './host-control.js';
import { assembleHost, type HostParts } from './host-assembly.js';
import { releaseBoundAtStart } from './bound-at-start.js';
import { claimDirectories } from './host-directories.js';
import type { HostOptions, HostTuning } from './host-options.js';
import { Teardown } from './teardown.js';

export type { SignInOutcome } from './first-sign-in.js';
export type { ConsentOptions, HostOptions, HostTuning, ListenOptions, PlatformOptions, RecordOptions, UiOptions } from './host-options.js';
export type { QaExtension, QaHostParts } from './qa-extension.js';

export interface Host {
  readonly prefix: ResolvedPrefix;
  readonly ipcPath: string;
  readonly ipcIndex: number;
  /** What each discord-ipc-N looked like before binding. */
  readonly slots: readonly SlotReport[];
  /** Every socket Companion listens on (the primary first): the prefix, Flatpak, Snap, macOS extras. */
  readonly listeners: readonly PlacedListener[];
  /** Directories where Companion does not listen, and why. */
  readonly skippedListeners: readonly SkippedDirectory[];
  /** For a process exiting without close(): removes the socket files synchronously. */
  removeSocketFilesSync(): void;
  /** The runtime file: host.json, or host-<index>.json for a second host (--allow-second). */
  readonly runtimeFile: string | null;
  readonly server: RpcServer;
  readonly session: PlatformSession;
  readonly relay: PresenceRelay;
  /** Arbitration and privacy settings (`presence.json`), each update's outcome, app announcements. */
  readonly presence: PresenceService;
  /** Game detection: the detectable list, the player's switches and games, the scanner's finds as activities. */
  readonly detection: DetectionService;
  /** The player's voice settings (GET/SET_VOICE_SETTINGS); a change is sent as VOICE_SETTINGS_UPDATE. */
  readonly voice: VoiceSettingsStore;
  readonly friends: FriendPresences;
  readonly social: SocialService;
  readonly control: HostControl;
  /** The headless UI, or null without one (no `ui.start`). */
  readonly webUi: WebUi | null;
  /** The inspector's lints for SET_ACTIVITY frames (the desktop shell's bridge uses it too). */
  readonly frameLinter: FrameLinter;
  /** The host's side of the conversation for the inspector (the desktop shell's bridge uses it too). */
  readonly hostEvents: HostEvents;
  /** The pictures the UI shows, from the platform's CDN (the desktop shell serves them too). */
  readonly images: UiImages;
  /** Records RPC traffic to a file: started by `record`, or at runtime (a UI toggle) with start/stop. */
  readonly recorder: HostRecorder;
  readonly consent: ConsentBroker;
  readonly grants: GrantCache;
  /** A message for the player when the grants cache had to be set aside, else null. */
  readonly grantsWarning: string | null;
  /** The port of the RPC WebSocket transport, or null (turned off, or all ports taken). */
  readonly rpcWebSocketPort: number | null;
  /** Web origins that asked for the RPC WebSocket, and the player's answers (`rpc-origins.json`). */
  readonly origins: OriginApprovals;
  /** A message for the player when `rpc-origins.json` had to be set aside, else null. */
  readonly originsWarning: string | null;
  readonly platform: { readonly url: string; readonly embedded: EmbeddedPlatform | null };
  /**
   * The first sign-in: the user, an error (bad credentials), or 'retrying' when the platform
   * could not be reached (the session keeps trying in the background).
   */
  readonly signedIn: SignInOutcome;
  close(): Promise<void>;
  /** Resolves once close() has finished. */
  readonly closed: Promise<void>;
}

/**
 * Composes the headless host: the platform (embedded emulator or another one), the account
 * and its gateway connection, the RPC server on the first free discord-ipc-N, the presence
 * relay, game invites, the control API, and the runtime file that marks this host as
 * running. The desktop shell wraps the same host. `tuning` is for tests only.
 */
export async function startHost(options: HostOptions, tuning: HostTuning = {}): Promise<Host> {
  const bound = options.boundAtStart;
  const claimed = bound?.claimed ?? (await claimDirectories(options));
  const teardown = new Teardown();
  // Last of all: the runtime file (and the sockets bound at start, with any connections still waiting).
  if (bound !== undefined) teardown.add(() => releaseBoundAtStart(bound));
  else if (claimed.runtime !== null) teardown.add(() => claimed.runtime?.release());
  try {
    return new RunningHost(await assembleHost(options, tuning, claimed, teardown), teardown);
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

/**
 * A started host: its parts, and how it stops. Stopping takes the parts in reverse order of
 * their start (see assembleHost): the runtime file first (a second host's), then the sockets
 * and the WebSocket, the web UI, the control API, the origin approvals, the presence service,
 * guild commands, the recorder, the consent broker, grant sync and the grants cache, the RPC
 * server's connections, the relay and the presence settings, the platform session, the
 * embedded emulator, and last the runtime file's lock (host.json).
 */
class RunningHost implements Host {
  readonly prefix;
  readonly ipcPath;
  readonly ipcIndex;
  readonly slots;
  readonly listeners;
  readonly skippedListeners;
  readonly runtimeFile;
  readonly server;
  readonly session;
  readonly relay;
  readonly presence;
  readonly detection;
  readonly voice;
  readonly friends;
  readonly social;
  readonly control;
  readonly webUi;
  readonly frameLinter;
  readonly hostEvents;
  readonly images;
  readonly recorder;
  readonly consent;
  readonly grants;
  readonly grantsWarning;
  readonly rpcWebSocketPort;
  readonly origins;
  readonly originsWarning;
  readonly platform;
  readonly signedIn;
  readonly closed: Promise<void>;
  private markClosed: () => void = () => undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly parts: HostParts,
    private readonly teardown: Teardown,
  ) {
    const { listening } = parts;
    const primary = listening.ipc.primary;
    this.prefix = parts.prefix;
    this.ipcPath = primary.path;
    this.ipcIndex = primary.index;
    this.slots = primary.slots;
    this.listeners = listening.ipc.listeners;
    this.skippedListeners = listening.ipc.skipped;
    this.runtimeFile = parts.runtimeFile;
    this.server = parts.server;
    this.session = parts.platform.session;
    this.relay = parts.relay.relay;
    this.presence = parts.presence;
    this.detection = parts.detection;
    this.voice = parts.voice.store;
    this.friends = parts.social.friends;
    this.social = parts.social.social;
    this.control = parts.control.control;
    this.webUi = parts.control.webUi;
    this.frameLinter = parts.control.frameLinter;
    this.hostEvents = parts.control.hostEvents;
    this.images = parts.control.images;
    this.recorder = parts.auth.recorder;
    this.consent = parts.auth.broker;
    this.grants = parts.auth.grants;
    this.grantsWarning = parts.auth.grantsWarning;
    this.rpcWebSocketPort = listening.webSocket?.port ?? null;
    this.origins = parts.origins;
    this.originsWarning = parts.originsWarning;
    this.platform = { url: parts.platform.url, embedded: parts.platform.embedded };
    this.signedIn = parts.signedIn;
    this.closed = new Promise<void>((resolve) => (this.markClosed = resolve));
  }

  removeSocketFilesSync(): void {
    this.parts.listening.ipc.removeFilesSync();
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    // Stop accepting first, so no client can arrive between the two steps; then the same
    // teardown as a failed start.
    const ipcClosed = this.parts.listening.closeIpc();
    await this.server.closeAll();
    await ipcClosed;
    await this.teardown.run();
    this.markClosed();
  }
}
