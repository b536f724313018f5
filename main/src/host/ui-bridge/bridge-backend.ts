import { INSPECTOR_LEASE_MS, type InspectorCatchUp, type OpenViewPush, type SocialOutcomeView, type InvokeChannel, type InvokeChannels, type RelayOutcomeView, type Snapshot } from '../../../../preload/src/contract.js';
import { isInvokeChannel, parseChannelArgs } from '../../../../preload/src/contract/schemas.js';
import type { FrameTrace, RpcServer } from '../../../../rpc/src/index.js';
import type { ControlEvent } from '../control/control-backend.js';
import type { ControlLogger } from '../control/control-server.js';
import { PRESENCE_EVENTS } from '../control/presence-routes.js';
import type { RelayOutcome } from '../presence/relay-outcomes.js';
import type { OpenViewRequest } from '../social/open-in-companion.js';
import { BatchStream } from './batch-stream.js';
import type { BridgeBackend, PushMessage } from './bridge-port.js';
import type { HostEvent, HostEvents } from '../record/host-events.js';
import { FrameLog, type FrameLinter, type LogEntry } from './frame-log.js';
import { readHostData } from './host-data.js';
import type { WebUiSettings } from './host-settings.js';
import { relayOutcomeView, SNAPSHOT_OUTCOMES } from './presence-view.js';
import { PushFanout } from './push-fanout.js';
import { ThrottledTask } from './throttled-task.js';
import { TopicCache, topicValues } from './topic-cache.js';
import { READ_ONLY_ACTIONS, UI_ACTIONS, type ActionContext } from './ui-actions.js';
import type { WebUiBackend } from './web-ui-backend.js';

export type { WebUiSettings } from './host-settings.js';
export type { WebUiBackend } from './web-ui-backend.js';

/**
 * The contract mapped onto the host, once for both UIs: the Electron shell (through the IPC
 * guard and the windows' ready queues) and the headless web UI (through its WebSocket
 * bridge). Calls are validated again here (whoever forwards them) and run by their handler
 * (ui-actions.ts). Pushes are changes only: a topic when its value changed (at most one push
 * per topic per snapshot interval), inspector frames and relay outcomes as append-only
 * batches, the player's own join outcomes as they come. Every connection's conversation is
 * recorded from the bridge's start into bounded rings (FrameLog), whether or not a UI is
 * open; frames and relay outcomes are pushed only while a window shows the
 * inspector (its `companion:watch-inspector` lease): an open UI on any other screen costs the
 * host no work per frame beyond recording it (the ui-bridge bench phase). `snapshot()` (what
 * `companion:ready` answers) first sends what waits to the UIs already ready, so that
 * everything pushed after it is newer than it. Nothing here knows about Electron, HTTP or
 * sockets.
 */

export interface BridgeBackendOptions {
  readonly backend: WebUiBackend;
  /** Where frames come from (the inspector); listened to from the bridge's start to its close. */
  readonly server: Pick<RpcServer, 'on' | 'off'>;
  readonly settings: WebUiSettings;
  /** The inspector's ring (default a new FrameLog, with `lint`). */
  readonly frameLog?: FrameLog;
  /** Lints for incoming SET_ACTIVITY frames, shown in the inspector. */
  readonly lint?: FrameLinter;
  /** The host's side of the conversation (connections, consent, gateway), listed among the frames. */
  readonly hostEvents?: Pick<HostEvents, 'subscribe'>;
  readonly logger?: ControlLogger;
  /** Minimum time between two topic rounds (default SNAPSHOT_INTERVAL_MS). */
  readonly snapshotIntervalMs?: number;
  /** Minimum time between two frame batches, and two relay outcome batches (default 250 ms). */
  readonly framesIntervalMs?: number;
  /** The clock of the inspector's lease (default Date.now). */
  readonly now?: () => number;
}

export interface SubscribeOptions {
  /**
   * Whether this subscriber wants pushes now (the web UI: while one of its pages is ready).
   * Default: always. While nobody wants them, changes build nothing and frames only go to
   * the ring (the next `companion:ready` snapshot carries them).
   */
  readonly wants?: () => boolean;
}

export interface HostBridge extends BridgeBackend {
  /** Every push, in order; the first subscriber starts listening to the host, the last one's unsubscribe stops it. */
  subscribe(listener: (message: PushMessage) => void, options?: SubscribeOptions): () => void;
  /** The current snapshot (what `companion:ready` answers); pushes after it carry only what is newer. */
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

/**
 * Topic rounds: at most two a second. Each reads the host's state and sends what changed; with a
 * game at 50 SET_ACTIVITY/s and 5 friends changing presence, the games and presence topics
 * change every round. Four rounds a second cost the host about 2 ms of CPU a second (perf in
 * the ui-bridge bench phase, 2026-11-26: reading the state about 0.9 ms/s, sending about 1 ms/s);
 * a player does not tell half a second from a quarter on these screens.
 */
export const SNAPSHOT_INTERVAL_MS = 500;
export const FRAMES_INTERVAL_MS = 250;
/** Relay outcomes stream to the inspector like its frames. */
const OUTCOMES_INTERVAL_MS = 250;
/** Frames waiting for the next batch; beyond this the oldest go (the UI sees the gap in `seq`). */
const MAX_PENDING_FRAMES = 10_000;
const MAX_PENDING_OUTCOMES = 1_000;

const silentLogger: ControlLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export class UiBridge implements HostBridge {
  readonly frames: FrameLog;
  private readonly backend: WebUiBackend;
  private readonly logger: ControlLogger;
  private readonly fanout: PushFanout;
  private readonly topics = new TopicCache();
  private readonly topicRounds: ThrottledTask;
  private readonly frameStream: BatchStream<LogEntry>;
  private readonly outcomeStream: BatchStream<RelayOutcomeView>;
  private readonly actions: ActionContext;
  private unsubscribeBackend: (() => void) | undefined;
  /** The recording of every conversation into `frames`: from the bridge's start, whether or not a UI is open. */
  private stopRecording: (() => void) | undefined;
  private closed = false;
  /** Frames and relay outcomes are pushed until then (the inspector's lease). */
  private inspectorWatchedUntil = 0;
  private readonly now: () => number;

  constructor(private readonly options: BridgeBackendOptions) {
    this.backend = options.backend;
    this.logger = options.logger ?? silentLogger;
    this.frames = options.frameLog ?? new FrameLog(undefined, options.lint);
    this.fanout = new PushFanout(this.logger, () => this.attachSources(), () => this.detachSources());
    this.topicRounds = new ThrottledTask(options.snapshotIntervalMs ?? SNAPSHOT_INTERVAL_MS, () => this.pushTopics());
    this.now = options.now ?? Date.now;
    this.frameStream = new BatchStream(options.framesIntervalMs ?? FRAMES_INTERVAL_MS, MAX_PENDING_FRAMES, (batch) =>
      this.fanout.emit({ channel: 'companion:frames', payload: batch.flatMap((entry) => entry.viewIfKept() ?? []) }),
    );
    this.outcomeStream = new BatchStream(options.framesIntervalMs ?? OUTCOMES_INTERVAL_MS, MAX_PENDING_OUTCOMES, (batch) =>
      this.fanout.emit({ channel: 'companion:outcomes', payload: batch }),
    );
    this.actions = { backend: this.backend, settings: options.settings, snapshot: () => this.snapshot(), watchInspector: (since) => this.watchInspector(since) };
    this.stopRecording = this.startRecording();
  }

  /**
   * Every connection's conversation goes to the rings from here on (the host starts the bridge
   * before it listens): frames, host events, relay outcomes. A UI that opens later gets them.
   */
  private startRecording(): () => void {
    this.options.server.on('frame', this.onFrame);
    const hostEvents = this.options.hostEvents?.subscribe(this.onHostEvent);
    const backend = this.backend.subscribe(this.onRelayOutcome);
    return () => {
      this.options.server.off('frame', this.onFrame);
      hostEvents?.();
      backend();
    };
  }

  async invoke<C extends InvokeChannel>(channel: C, args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
    if (!isInvokeChannel(channel)) throw new BridgeCallRefused('unknown channel');
    const parsed = parseChannelArgs(channel, args as readonly unknown[]);
    if (!parsed.ok) throw new BridgeCallRefused(parsed.reason);
    const handler = UI_ACTIONS[channel] as (context: ActionContext, ...args: readonly unknown[]) => Promise<InvokeChannels[C]['result']>;
    const result = await handler(this.actions, ...(parsed.args as readonly unknown[]));
    // Not every change is a backend event (settings, a grant cache update): look at the topics again.
    if (!READ_ONLY_ACTIONS.has(channel)) this.changed();
    return result;
  }

  subscribe(listener: (message: PushMessage) => void, options: SubscribeOptions = {}): () => void {
    if (this.closed) return () => undefined;
    return this.fanout.add(listener, options.wants ?? (() => true));
  }

  async snapshot(): Promise<Snapshot> {
    const data = await readHostData(this.backend, this.options.settings);
    // From here on synchronous: the UIs already ready get what changed and what waits, the
    // new one gets the same state whole; whatever is pushed next is newer for both.
    const changed = this.topics.take(topicValues(data));
    if (this.wanted()) {
      for (const push of changed) this.fanout.emit({ channel: 'companion:topic', payload: push });
      this.outcomeStream.flush();
      this.frameStream.flush();
    }
    return { ...data, frames: this.frames.list(), device_screen: this.backend.deviceScreen() };
  }

  /**
   * A window shows the inspector: frames and outcomes are pushed for a lease. Answers the frames
   * above `since` and the recent outcomes; what waited to be pushed goes first, so that every
   * push after the answer is newer than it.
   */
  async watchInspector(since: number): Promise<InspectorCatchUp> {
    const outcomes = this.backend.presence(SNAPSHOT_OUTCOMES)?.recent_outcomes ?? [];
    if (this.wanted()) {
      this.outcomeStream.flush();
      this.frameStream.flush();
    }
    this.inspectorWatchedUntil = this.now() + INSPECTOR_LEASE_MS;
    return { frames: this.frames.since(since), outcomes };
  }

  /**
   * Asked for every frame and relay outcome: no clock is read unless a lease is on (it was four
   * Date.now() calls a SET_ACTIVITY with no inspector shown); an expired lease is cleared.
   */
  private inspectorWatched(): boolean {
    if (this.inspectorWatchedUntil === 0 || !this.wanted()) return false;
    if (this.now() < this.inspectorWatchedUntil) return true;
    this.inspectorWatchedUntil = 0;
    return false;
  }

  close(): void {
    this.closed = true;
    this.fanout.clear();
    this.detachSources();
    this.stopRecording?.();
    this.stopRecording = undefined;
  }

  private wanted(): boolean {
    return !this.closed && this.fanout.wanted();
  }

  /** Something changed: the topics are looked at again, at most once per interval. */
  private changed(): void {
    if (this.wanted()) this.topicRounds.request(); // else whoever becomes ready gets a fresh snapshot
  }

  private async pushTopics(): Promise<void> {
    if (!this.wanted()) return;
    try {
      // Presence is pushed without its recent outcomes (they stream on their own): none are read.
      const data = await readHostData(this.backend, this.options.settings, 0);
      if (!this.wanted()) return;
      for (const push of this.topics.take(topicValues(data))) this.fanout.emit({ channel: 'companion:topic', payload: push });
    } catch (error) {
      this.logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'bridge: reading the host state failed');
    }
  }

  private readonly onFrame = (trace: FrameTrace): void => {
    this.listed(this.frames.record(trace));
  };

  /** A row in the ring; pushed at once while the inspector is shown. Else the ring keeps it: the inspector asks when it opens, a `ready` snapshot carries it. */
  private listed(entry: LogEntry): void {
    if (this.inspectorWatched()) this.frameStream.add(entry);
  }

  private readonly onHostEvent = (event: HostEvent): void => {
    if (event.kind === 'close') {
      const { probe, ...close } = event;
      // A probe's `open` row goes with it: otherwise every probe would leave a ring behind.
      if (probe) this.frames.forgetConnection(close.connection);
      else this.listed(this.frames.recordEvent(close, this.now()));
      return;
    }
    this.listed(this.frames.recordEvent(event, this.now()));
  };

  /** A relay outcome is a row of its connection's conversation (and streams to a shown inspector). */
  private readonly onRelayOutcome = (event: ControlEvent): void => {
    if (event.type !== PRESENCE_EVENTS.outcome) return;
    const outcome = event.data as RelayOutcome;
    this.listed(this.frames.recordRelay(outcome, this.now()));
    if (this.inspectorWatched()) this.outcomeStream.add(relayOutcomeView(outcome));
  };

  private readonly onEvent = (event: ControlEvent): void => {
    const social = socialOutcomeView(event);
    if (social !== null && this.wanted()) this.fanout.emit({ channel: 'companion:social', payload: social });
    const open = event.type === 'open-view' ? openViewPush(event.data as OpenViewRequest) : null;
    if (open !== null && this.wanted()) this.fanout.emit({ channel: 'companion:open-view', payload: open });
    if (open === null) this.changed();
  };

  private attachSources(): void {
    this.unsubscribeBackend = this.backend.subscribe(this.onEvent);
  }

  private detachSources(): void {
    if (this.unsubscribeBackend === undefined) return;
    this.unsubscribeBackend();
    this.unsubscribeBackend = undefined;
    this.frameStream.clear();
    this.outcomeStream.clear();
    this.topicRounds.cancel();
    this.topics.clear();
  }
}

const SOCIAL_OUTCOMES: ReadonlySet<string> = new Set(['join-delivered', 'join-pending', 'request-declined']);

/** The player's own join outcomes among the host's events, in the contract's shape. */
function socialOutcomeView(event: ControlEvent): SocialOutcomeView | null {
  if (!SOCIAL_OUTCOMES.has(event.type)) return null;
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as { user_id?: unknown; application_id?: unknown };
  return {
    type: event.type as SocialOutcomeView['type'],
    user_id: typeof data.user_id === 'string' ? data.user_id : null,
    application_id: typeof data.application_id === 'string' ? data.application_id : null,
  };
}

/** A game's request to show a view, cut to what the window needs (no connection ids). */
function openViewPush(request: OpenViewRequest): OpenViewPush {
  switch (request.view) {
    case 'authorized-apps':
      return { view: 'authorized-apps', application_id: request.application_id };
    case 'conversation':
      return { view: 'conversation', user_id: request.user_id, message_id: request.message_id };
    case 'authorize-device':
      return { view: 'authorize-device', screen_id: request.screen_id, application_id: request.application_id, user_code: request.user_code };
    case 'close-authorize-device':
      return { view: 'close-authorize-device', screen_id: request.screen_id };
    case 'voice-channel':
      return { view: 'voice-channel', channel_id: request.channel_id };
  }
}

export function createBridgeBackend(options: BridgeBackendOptions): HostBridge {
  return new UiBridge(options);
}
