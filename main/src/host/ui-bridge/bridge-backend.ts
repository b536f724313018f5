import type { DoctorView, RecordingView, PresencePatch, PresenceSettingsView, PresenceView, FrameView, InvokeChannel, InvokeChannels, OriginDecisionView, OriginRequestView, Snapshot } from '../../../../preload/src/contract.js';
import type { FrameTrace, RpcServer } from '../../../../rpc/src/index.js';
import type { ControlBackend } from '../control/control-backend.js';
import type { ControlLogger } from '../control/control-server.js';
import type { BridgeBackend, PushMessage } from './bridge-port.js';
import { isInvokeChannel, parseChannelArgs } from './bridge-schemas.js';
import { FrameLog, type FrameLinter } from './frame-log.js';
import type { WebUiSettings } from './host-settings.js';

export type { WebUiSettings } from './host-settings.js';
import {
  consentPromptView,
  friendView,
  gameView,
  grantView,
  inviteView,
  joinRequestView,
  originDecisionView,
  originRequestView,
  settingsView,
  statusView,
} from './views.js';

/**
 * The contract mapped onto the host, once for both UIs: the Electron shell (through the IPC
 * guard and the windows' ready queues) and the headless web UI (through its WebSocket
 * bridge). Calls are validated again here (whoever forwards them), mapped to the host's
 * control backend, and followed by a snapshot push; pushes are a throttled snapshot stream
 * and batched inspector frames. Nothing here knows about Electron, HTTP or sockets.
 */

/** The control backend plus what only the UI does: closing a consent prompt without a decision. */
export interface WebUiBackend extends ControlBackend {
  /**
   * Dismisses a pending consent request (the player closed the prompt): the game gets the
   * cancellation error. Throws a ControlError 404 when no pending request has that id.
   */
  dismissConsent(id: string): Promise<void>;
  /** Web pages waiting for the player's answer before they may use the RPC WebSocket. */
  originRequests(): readonly OriginRequestView[];
  /** The answers given (approved ones are remembered across runs). */
  originDecisions(): readonly OriginDecisionView[];
  /** Answers an origin request; ControlError 404 when no pending request has that id. */
  decideOrigin(id: string, decision: 'approve' | 'deny'): Promise<void>;
  /** Forgets an answer, so that origin asks again; ControlError 404 when unknown. */
  forgetOrigin(id: string): Promise<void>;
  /** `companion doctor` in the host's environment. */
  doctor(): Promise<DoctorView>;
  /** Arbitration, privacy and relay outcomes; null when the host has no presence service. */
  presence(): PresenceView | null;
  /** Applies a presence patch; a ControlError 400 names a field it cannot apply. */
  updatePresence(patch: PresencePatch): Promise<PresenceSettingsView>;
  /** The recorder's state; null when the host has none. */
  recording(): RecordingView | null;
  /** Starts a recording in the host's recordings directory, or stops it. */
  setRecording(on: boolean): Promise<RecordingView>;
}

export interface BridgeBackendOptions {
  readonly backend: WebUiBackend;
  /** Where frames come from (the inspector); listened to only while someone is subscribed. */
  readonly server: Pick<RpcServer, 'on' | 'off'>;
  readonly settings: WebUiSettings;
  /** The inspector's ring (default a new FrameLog, with `lint`). */
  readonly frameLog?: FrameLog;
  /** Lints for incoming SET_ACTIVITY frames, shown in the inspector. */
  readonly lint?: FrameLinter;
  readonly logger?: ControlLogger;
  /** Minimum time between two snapshot pushes (default 100 ms). */
  readonly snapshotIntervalMs?: number;
  /** Minimum time between two frame batches (default 50 ms). */
  readonly framesIntervalMs?: number;
}

export interface SubscribeOptions {
  /**
   * Whether this subscriber wants pushes now (the web UI: while one of its pages is ready).
   * Default: always. While nobody wants them, changes build no snapshot and frames only go
   * to the ring (the next `companion:ready` snapshot carries them).
   */
  readonly wants?: () => boolean;
}

export interface HostBridge extends BridgeBackend {
  /** Every push, in order; the first subscriber starts listening to the host, the last one's unsubscribe stops it. */
  subscribe(listener: (message: PushMessage) => void, options?: SubscribeOptions): () => void;
  /** The current snapshot (what `companion:ready` answers). */
  snapshot(): Promise<Snapshot>;
  readonly frames: FrameLog;
  /** Stops every push and timer; later calls to invoke still work, subscriptions get nothing. */
  close(): void;
}

/** A call whose channel or arguments are not the contract's (status 400, like the control API's errors). */
export class BridgeCallRefused extends Error {
  override readonly name = 'BridgeCallRefused';
  readonly status = 400;
}

export const SNAPSHOT_INTERVAL_MS = 100;
export const FRAMES_INTERVAL_MS = 50;
/** Frames waiting for the next batch; beyond this the oldest go (the UI sees the gap in `seq`). */
const MAX_PENDING_FRAMES = 10_000;

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface Subscriber {
  readonly listener: (message: PushMessage) => void;
  readonly wants: () => boolean;
}

export function createBridgeBackend(options: BridgeBackendOptions): HostBridge {
  const { backend, settings } = options;
  const logger = options.logger ?? silentLogger;
  const frames = options.frameLog ?? new FrameLog(undefined, options.lint);
  const snapshotIntervalMs = options.snapshotIntervalMs ?? SNAPSHOT_INTERVAL_MS;
  const framesIntervalMs = options.framesIntervalMs ?? FRAMES_INTERVAL_MS;
  const subscribers = new Set<Subscriber>();
  let closed = false;

  function wanted(): boolean {
    if (closed) return false;
    for (const subscriber of subscribers) if (subscriber.wants()) return true;
    return false;
  }

  function emit(message: PushMessage): void {
    for (const subscriber of [...subscribers]) {
      try {
        subscriber.listener(message);
      } catch (error) {
        logger.warn({ channel: message.channel, error: error instanceof Error ? error.name : typeof error }, 'bridge: a push listener failed');
      }
    }
  }

  // ---- calls

  async function dispatch(call: { [C in InvokeChannel]: { readonly channel: C; readonly args: InvokeChannels[C]['args'] } }[InvokeChannel]): Promise<unknown> {
    switch (call.channel) {
      case 'companion:ready':
        return buildSnapshot();
      case 'companion:decide-consent': {
        const [id, decision] = call.args;
        if (decision === 'approve') await backend.approveConsent(id);
        else if (decision === 'deny') await backend.denyConsent(id);
        else await backend.dismissConsent(id);
        return null;
      }
      case 'companion:accept-join-request':
        await backend.acceptJoinRequest(call.args[0]);
        return null;
      case 'companion:decline-join-request':
        await backend.declineJoinRequest(call.args[0]);
        return null;
      case 'companion:accept-invite': {
        const result = await backend.acceptInvite(call.args[0]);
        return { secret_delivered: result.secret_delivered };
      }
      case 'companion:decline-invite':
        await backend.declineInvite(call.args[0]);
        return null;
      case 'companion:request-to-join': {
        const [userId, applicationId] = call.args;
        const result = await backend.requestToJoin({ user_id: userId, ...(applicationId === null ? {} : { application_id: applicationId }) });
        return { joined: result.joined };
      }
      case 'companion:send-invite': {
        const [userId, applicationId] = call.args;
        const result = await backend.sendInvite({ user_id: userId, ...(applicationId === null ? {} : { application_id: applicationId }) });
        return { message_id: result.message_id };
      }
      case 'companion:revoke-grant':
        await backend.revokeGrant(call.args[0]);
        return null;
      case 'companion:send-authorize-request': {
        const result = await backend.sendAuthorizeRequest(call.args[0]);
        return { delivered: result.delivered };
      }
      case 'companion:login':
        await backend.login({ username: call.args[0] });
        return statusView(backend.status());
      case 'companion:logout':
        await backend.logout();
        return statusView(backend.status());
      case 'companion:decide-origin':
        await backend.decideOrigin(call.args[0], call.args[1]);
        return null;
      case 'companion:forget-origin':
        await backend.forgetOrigin(call.args[0]);
        return null;
      case 'companion:doctor':
        return backend.doctor();
      case 'companion:update-presence':
        return backend.updatePresence(call.args[0]);
      case 'companion:set-recording':
        return backend.setRecording(call.args[0]);
      case 'companion:update-settings':
        return settingsView(await settings.update(call.args[0]));
    }
  }

  async function invoke<C extends InvokeChannel>(channel: C, args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
    if (!isInvokeChannel(channel)) throw new BridgeCallRefused('unknown channel');
    const parsed = parseChannelArgs(channel, args as readonly unknown[]);
    if (!parsed.ok) throw new BridgeCallRefused(parsed.reason);
    const result = await dispatch({ channel, args: parsed.args } as Parameters<typeof dispatch>[0]);
    // Not every change is a backend event (settings, a grant cache update): push a snapshot.
    if (channel !== 'companion:ready' && channel !== 'companion:doctor') changed();
    return result as InvokeChannels[C]['result'];
  }

  // ---- snapshots

  async function buildSnapshot(): Promise<Snapshot> {
    const grants = await backend.grants();
    // Everything else in one synchronous step, so the frames' watermark matches what was sent.
    return {
      status: statusView(backend.status()),
      games: backend.games().map(gameView),
      friends: backend.friends().map(friendView),
      join_requests: backend.joinRequests().map(joinRequestView),
      invites: backend.invites().map(inviteView),
      consent_requests: backend.consentRequests().map(consentPromptView),
      grants: grants.map(grantView),
      origin_requests: backend.originRequests().map(originRequestView),
      origins: backend.originDecisions().map(originDecisionView),
      presence: backend.presence(),
      recording: backend.recording(),
      settings: settingsView(settings.get()),
      frames: frames.list(),
    };
  }

  let snapshotTimer: NodeJS.Timeout | undefined;
  let snapshotDirty = false;
  let snapshotBuilding = false;
  let lastSnapshotAt = Number.NEGATIVE_INFINITY;

  /** Something changed: a snapshot is pushed, at most one per snapshotIntervalMs. */
  function changed(): void {
    if (!wanted()) return; // whoever becomes ready gets a fresh one
    snapshotDirty = true;
    if (snapshotTimer !== undefined || snapshotBuilding) return;
    // A timer even when idle: the changes of this tick (and the microtasks after) land in one snapshot.
    snapshotTimer = setTimeout(() => void pushSnapshot(), Math.max(0, lastSnapshotAt + snapshotIntervalMs - Date.now()));
  }

  async function pushSnapshot(): Promise<void> {
    snapshotTimer = undefined;
    if (!snapshotDirty || closed) return;
    snapshotDirty = false;
    snapshotBuilding = true;
    lastSnapshotAt = Date.now();
    try {
      const snapshot = await buildSnapshot();
      if (closed) return;
      emit({ channel: 'companion:snapshot', payload: snapshot });
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'bridge: snapshot failed');
    } finally {
      snapshotBuilding = false;
      if (snapshotDirty) {
        snapshotDirty = false;
        changed();
      }
    }
  }

  // ---- frames

  let pendingFrames: FrameView[] = [];
  let framesTimer: NodeJS.Timeout | undefined;
  let lastFramesAt = Number.NEGATIVE_INFINITY;

  function onFrame(trace: FrameTrace): void {
    const view = frames.record(trace);
    if (!wanted()) return; // the ready snapshot carries the ring
    pendingFrames.push(view);
    if (pendingFrames.length > MAX_PENDING_FRAMES) pendingFrames.splice(0, pendingFrames.length - MAX_PENDING_FRAMES);
    framesTimer ??= setTimeout(pushFrames, Math.max(0, lastFramesAt + framesIntervalMs - Date.now()));
  }

  function pushFrames(): void {
    framesTimer = undefined;
    const batch = pendingFrames;
    pendingFrames = [];
    if (batch.length === 0 || closed) return;
    lastFramesAt = Date.now();
    emit({ channel: 'companion:frames', payload: batch });
  }

  // ---- sources

  let unsubscribeBackend: (() => void) | undefined;

  function attachSources(): void {
    options.server.on('frame', onFrame);
    unsubscribeBackend = backend.subscribe(() => changed());
  }

  function detachSources(): void {
    if (unsubscribeBackend === undefined) return;
    options.server.off('frame', onFrame);
    unsubscribeBackend();
    unsubscribeBackend = undefined;
    pendingFrames = [];
    if (framesTimer !== undefined) clearTimeout(framesTimer);
    framesTimer = undefined;
    if (snapshotTimer !== undefined) clearTimeout(snapshotTimer);
    snapshotTimer = undefined;
    snapshotDirty = false;
  }

  return {
    invoke,
    frames,
    snapshot: buildSnapshot,
    subscribe(listener, subscribeOptions = {}) {
      if (closed) return () => undefined;
      const subscriber: Subscriber = { listener, wants: subscribeOptions.wants ?? (() => true) };
      subscribers.add(subscriber);
      if (subscribers.size === 1) attachSources();
      return () => {
        if (!subscribers.delete(subscriber)) return;
        if (subscribers.size === 0) detachSources();
      };
    },
    close() {
      closed = true;
      subscribers.clear();
      detachSources();
    },
  };
}
