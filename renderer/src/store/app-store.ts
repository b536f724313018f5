import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import {
  appendOutcomes,
  replaceOutcomes,
  applyTopic,
  type CompanionBridge,
  type ConsentPromptView,
  type DetectionPatch,
  type DoctorView,
  type FrameView,
  type RunningProgramView,
  type HostData,
  type InviteView,
  type InvokeChannel,
  type InvokeChannels,
  type PresencePatch,
  type RelationshipAction,
  type RelayOutcomeView,
  type SettingsView,
  type Snapshot,
  type SocialOutcomeView,
  type TopicPush,
} from '../../../preload/src/contract';
import { hasLink } from '../bridge/link';
import { appendCapped, createFramePairer, EMPTY_FILTER, rowsOf, type FrameFilter, type FramePairer, type FrameRow } from './frames';
import { parseRecording, type LoadedRecording } from '../lib/recording-file';
import { playerErrorText } from '../lib/player-error';
import { appNameOr } from '../lib/app-names';
import { createNavigationSlice, screenFromHash, type NavigationSlice } from './navigation';

/**
 * The renderer's store: a projection of the host's state (main is the source of truth).
 * `createAppStore(bridge)` subscribes to the bridge's pushes once, then asks `companion:ready`
 * for the snapshot (and again whenever a web bridge reconnects). After it, pushes are changes:
 * a topic's new value replaces it, frames and relay outcomes are appended (each arrives once).
 * Pushes that arrive while `companion:ready` is in flight are older than its answer and are
 * dropped. Actions call `bridge.invoke` and never change host data themselves: the host
 * pushes the topics they changed.
 */

// ---- slices

export type ConnectionStatus = 'connecting' | 'ready' | 'lost' | 'failed';

export interface ConnectionSlice {
  readonly connection: {
    readonly status: ConnectionStatus;
    /** Why the last `companion:ready` failed (status `failed`), else null. */
    readonly error: string | null;
    /** Reconnect attempt of a web bridge (0 when connected). */
    readonly attempt: number;
    readonly retryInMs: number | null;
  };
  /** Asks `companion:ready` again and applies the snapshot. */
  refresh(): Promise<void>;
}

/** The snapshot without its frames (those live in the inspector slice). */
export type { HostData } from '../../../preload/src/contract';

/** The store's clock: one tick a second, for what expires (invites) without a timer per item. */
export interface ClockSlice {
  /** Epoch ms of the last tick. */
  readonly now: number;
  tick(now: number): void;
}

export interface DataSlice {
  readonly data: HostData | null;
  /** The answer of `companion:ready`: the whole state, and the inspector's ring. */
  applySnapshot(snapshot: Snapshot): void;
  /** One topic pushed by the host. */
  applyTopic(push: TopicPush): void;
  /** Relay outcomes pushed by the host (appended to presence.recent_outcomes). */
  appendOutcomes(outcomes: readonly RelayOutcomeView[]): void;
}

export type ConsentDecision = InvokeChannels['companion:decide-consent']['args'][1];

export interface ConsentSlice {
  /** Requests decided here and not yet gone from the host's snapshot: hidden meanwhile. */
  readonly decidedConsentIds: readonly string[];
  decideConsent(id: string, decision: ConsentDecision): Promise<boolean>;
}

export interface InspectorSlice {
  /** What the inspector lists, oldest first, at most `frameCap`. */
  readonly frames: readonly FrameRow[];
  /** Frames that arrived while paused (shown on resume), at most `frameCap`. */
  readonly held: readonly FrameRow[];
  readonly paused: boolean;
  /** Frames dropped by the cap since start. */
  readonly droppedFrames: number;
  /** Highest seq received (a ready snapshot's ring continues after it; a lower one means another host). */
  readonly lastSeq: number;
  readonly selectedSeq: number | null;
  readonly frameCap: number;
  ingestFrames(frames: readonly FrameView[]): void;
  /**
   * The inspector is on screen: fetches the frames it has not seen and the recent relay
   * outcomes, and keeps both coming (call again within INSPECTOR_LEASE_MS).
   */
  watchInspector(): Promise<void>;
  setPaused(paused: boolean): void;
  selectFrame(seq: number | null): void;
  clearFrames(): void;
  /** A recording file opened in the inspector instead of the live frames; null: live. */
  readonly recording: { readonly file: LoadedRecording; readonly rows: readonly FrameRow[] } | null;
  /** Reads a recording file's bytes; false (and a message) when it is not one. */
  openRecording(name: string, bytes: Uint8Array): Promise<boolean>;
  closeRecording(): void;
  /** The finished recording whose "Last recording" banner the player dismissed (a new recording shows again). */
  readonly dismissedRecordingFile: string | null;
  dismissRecordingBanner(file: string): void;
}

export interface FilterSlice {
  readonly filter: FrameFilter;
  setFilter(patch: Partial<FrameFilter>): void;
}

export interface UiMessage {
  readonly id: number;
  readonly kind: 'error' | 'info';
  readonly text: string;
  /** What the message is about (an action's busy key): a newer message on it replaces this one. */
  readonly topic?: string;
  /** The precise text behind the player's words (an error as the host said it), for the banner's Details. */
  readonly detail?: string;
}

/** How long an informational message stays; errors stay until dismissed or resolved. */
export const INFO_MESSAGE_MS = 8000;

export interface MessagesSlice {
  readonly messages: readonly UiMessage[];
  /** Shows a message; one with a `topic` replaces the earlier message on that topic (its outcome arrived). `detail`: the precise text, behind Details. */
  notify(kind: UiMessage['kind'], text: string, topic?: string, detail?: string): void;
  /** The messages on `topic` are settled: they go. */
  resolveMessages(topic: string): void;
  /** What became of the player's own join: replaces its "waiting for an answer" message. */
  socialOutcome(outcome: SocialOutcomeView): void;
  dismissMessage(id: number): void;
}

export interface ActionsSlice {
  /** Keys of actions in flight (`revoke:<appId>`…), for disabling their buttons. */
  readonly busy: readonly string[];
  acceptJoinRequest(id: string): Promise<boolean>;
  declineJoinRequest(id: string): Promise<boolean>;
  acceptInvite(id: string): Promise<boolean>;
  declineInvite(id: string): Promise<boolean>;
  requestToJoin(userId: string, applicationId: string | null): Promise<boolean>;
  /** Invites a friend to one of the player's joinable games. */
  sendInvite(userId: string, applicationId: string): Promise<boolean>;
  /** Sends a friend a direct message. */
  sendDm(userId: string, content: string): Promise<boolean>;
  /**
   * The conversation with a friend is on screen (`showing`), or just left it: the host marks it
   * read (see `companion:read-conversation`). A failure says nothing: the next call retries.
   */
  readConversation(userId: string, showing: boolean): Promise<void>;
  /** Accepts or ignores a friend request, cancels one, removes a friend, blocks or unblocks (busy key `relationship:<userId>`). */
  changeRelationship(userId: string, action: RelationshipAction): Promise<boolean>;
  /** Sends a friend request by username (busy key `friend-request`). */
  sendFriendRequest(username: string): Promise<boolean>;
  sendAuthorizeRequest(applicationId: string): Promise<boolean>;
  revokeGrant(applicationId: string): Promise<boolean>;
  /** Lets a web page's origin use the RPC WebSocket for that app, or refuses it. */
  decideOrigin(id: string, decision: 'approve' | 'deny'): Promise<boolean>;
  forgetOrigin(id: string): Promise<boolean>;
  /** The last doctor report (Settings' troubleshooting panel), null until run. */
  readonly doctor: DoctorView | null;
  runDoctor(): Promise<boolean>;
  updatePresence(patch: PresencePatch): Promise<boolean>;
  /** Starts (a new file in the host's data directory) or stops the host's recorder. */
  setRecording(on: boolean): Promise<boolean>;
  /** Mutes or deafens the player (the voice settings games read with GET_VOICE_SETTINGS); busy key `voice`. */
  setVoice(patch: { readonly mute?: boolean; readonly deaf?: boolean }): Promise<boolean>;
  login(username: string): Promise<boolean>;
  logout(): Promise<boolean>;
  updateSettings(patch: Partial<SettingsView>): Promise<boolean>;
  /** Game detection: the global switch or one game's (busy key `detection`). */
  updateDetection(patch: DetectionPatch): Promise<boolean>;
  /** The running programs that are no known game, as last asked for ("Add it"); null until asked. */
  readonly programs: readonly RunningProgramView[] | null;
  listPrograms(): Promise<boolean>;
  /** Names a running program as a game (busy key `detection`). */
  addGame(executable: string, name: string): Promise<boolean>;
  removeGame(id: string): Promise<boolean>;
}

export type AppState = ConnectionSlice & ClockSlice & DataSlice & ConsentSlice & InspectorSlice & FilterSlice & MessagesSlice & ActionsSlice & NavigationSlice;

export type AppStore = StoreApi<AppState> & {
  /** Unsubscribes from the bridge; the store keeps its last state. */
  dispose(): void;
  /** Settles when the first `companion:ready` has been answered (or failed). */
  readonly started: Promise<void>;
};

export interface AppStoreOptions {
  /** Inspector memory cap (rows kept). Default 10,000. */
  readonly frameCap?: number;
  /** How many messages (errors, notices) are kept. Default 5. */
  readonly maxMessages?: number;
  /** How often the store's clock ticks (ms). Default 1000. */
  readonly clockMs?: number;
}

type Slice<T> = StateCreator<AppState, [], [], T>;

interface Context {
  readonly bridge: CompanionBridge;
  readonly pairer: FramePairer;
  readonly options: Required<AppStoreOptions>;
  /** Bumped by every refresh and by dispose: a stale answer is ignored. */
  generation: number;
  /** No ready answer applied since the last (re)connect: pushes are older than the coming one. */
  syncing: boolean;
  disposed: boolean;
}

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  if (typeof error === 'string' && error !== '') return error;
  return 'Something went wrong';
}

function without<T>(list: readonly T[], item: T): readonly T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : list;
}

const createClockSlice: Slice<ClockSlice> = (set) => ({
  now: Date.now(),
  tick(now) {
    set({ now });
  },
});

const createConnectionSlice =
  (ctx: Context): Slice<ConnectionSlice> =>
  (set, get) => ({
    connection: { status: 'connecting', error: null, attempt: 0, retryInMs: null },
    async refresh() {
      const generation = ++ctx.generation;
      ctx.syncing = true;
      try {
        const snapshot = await ctx.bridge.invoke('companion:ready');
        if (ctx.disposed || generation !== ctx.generation) return;
        get().applySnapshot(snapshot);
        ctx.syncing = false;
        set({ connection: { status: 'ready', error: null, attempt: 0, retryInMs: null } });
      } catch (error) {
        if (ctx.disposed || generation !== ctx.generation) return;
        const bridge = ctx.bridge;
        if (hasLink(bridge) && bridge.linkState() !== 'open') {
          // The socket dropped while asking: the bridge reconnects and the store asks again.
          set((s) => ({ connection: { ...s.connection, status: 'lost', error: null } }));
        } else {
          set((s) => ({ connection: { ...s.connection, status: 'failed', error: errorText(error) } }));
        }
      }
    },
  });

/** Local consent decisions the host no longer lists are forgotten. */
function stillPending(decided: readonly string[], data: HostData): readonly string[] {
  const present = new Set(data.consent_requests.filter((r) => r.state !== 'settled').map((r) => r.id));
  return decided.filter((id) => present.has(id));
}

const createDataSlice =
  (ctx: Context): Slice<DataSlice> =>
  (set, get) => ({
    data: null,
    applySnapshot(snapshot) {
      const { frames, device_screen: deviceScreen, ...data } = snapshot;
      // A game's "Link a device" screen opened (or closed) while this window was away.
      get().followDeviceScreen(deviceScreen ?? null);
      set((s) => ({ data, decidedConsentIds: stillPending(s.decidedConsentIds, data) }));
      const newest = frames[frames.length - 1];
      if (newest !== undefined && newest.seq < get().lastSeq) {
        // Sequence numbers went back: this is another host process. Start the inspector over.
        ctx.pairer.reset();
        set({ frames: [], held: [], lastSeq: 0, selectedSeq: null });
      }
      // A reconnect gets the ring again: only its part after what is held is new.
      const lastSeq = get().lastSeq;
      get().ingestFrames(lastSeq === 0 ? frames : frames.filter((frame) => frame.seq > lastSeq));
    },
    applyTopic(push) {
      const before = get().data;
      if (before === null) return;
      const data = applyTopic(before, push);
      // An app's first activity ever is announced once: apps added since the last push.
      if (push.topic === 'presence' && before.presence !== null && data.presence !== null) {
        const known = new Set(before.presence.announced.map((app) => app.application_id));
        for (const app of data.presence.announced) {
          if (!known.has(app.application_id)) {
            get().notify('info', `${app.application_name} now shares your activity with friends. You can hide it, or show only the game and time, on the Games screen.`);
          }
        }
      }
      set((s) => ({ data, decidedConsentIds: push.topic === 'consent_requests' ? stillPending(s.decidedConsentIds, data) : s.decidedConsentIds }));
    },
    appendOutcomes(outcomes) {
      const before = get().data;
      if (before !== null) set({ data: appendOutcomes(before, outcomes) });
    },
  });

const createConsentSlice =
  (ctx: Context): Slice<ConsentSlice> =>
  (set, get) => ({
    decidedConsentIds: [],
    async decideConsent(id, decision) {
      if (get().decidedConsentIds.includes(id)) return false;
      set((s) => ({ decidedConsentIds: [...s.decidedConsentIds, id] }));
      try {
        await ctx.bridge.invoke('companion:decide-consent', id, decision);
        return true;
      } catch (error) {
        set((s) => ({ decidedConsentIds: without(s.decidedConsentIds, id) }));
        const raw = errorText(error);
        const plain = playerErrorText(raw);
        get().notify('error', `Could not ${decision === 'dismiss' ? 'cancel' : decision} the request: ${plain}`, undefined, plain === raw ? undefined : raw);
        return false;
      }
    },
  });

const createInspectorSlice =
  (ctx: Context): Slice<InspectorSlice> =>
  (set, get) => ({
    frames: [],
    held: [],
    paused: false,
    droppedFrames: 0,
    lastSeq: 0,
    selectedSeq: null,
    frameCap: ctx.options.frameCap,
    recording: null,
    async openRecording(name, bytes) {
      let file: LoadedRecording;
      try {
        file = await parseRecording(name, bytes);
      } catch (error) {
        get().notify('error', `Could not open the recording: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
      const pairer = createFramePairer();
      set({ recording: { file, rows: file.frames.map((frame) => pairer.pair(frame)) }, selectedSeq: null });
      if (file.truncated) get().notify('info', `${name} ends inside a record (cut off by a kill?): showing what was written before it`);
      return true;
    },
    closeRecording() {
      set({ recording: null, selectedSeq: null });
    },
    dismissedRecordingFile: null,
    dismissRecordingBanner(file) {
      set({ dismissedRecordingFile: file });
    },
    ingestFrames(arrived) {
      // Frames come in seq order (pushes, and the inspector's catch-up): a frame at or below
      // lastSeq is one this UI already has (a catch-up answer and a push may overlap).
      const known = get().lastSeq;
      const incoming = arrived.filter((frame) => frame.seq > known);
      if (incoming.length === 0) return;
      // Rows the host dropped from a connection's ring are shown where they were (a marker).
      const rows = rowsOf(incoming, ctx.pairer);
      const lastSeq = Math.max(known, incoming[incoming.length - 1]?.seq ?? 0);
      const cap = ctx.options.frameCap;
      set((s) => {
        if (s.paused) {
          const held = appendCapped(s.held, rows, cap);
          return { held, lastSeq, droppedFrames: s.droppedFrames + (s.held.length + rows.length - held.length) };
        }
        const frames = appendCapped(s.frames, rows, cap);
        return { frames, lastSeq, droppedFrames: s.droppedFrames + (s.frames.length + rows.length - frames.length) };
      });
    },
    async watchInspector() {
      try {
        const catchUp = await ctx.bridge.invoke('companion:watch-inspector', get().lastSeq);
        get().ingestFrames(catchUp.frames);
        const data = get().data;
        if (data !== null) set({ data: replaceOutcomes(data, catchUp.outcomes) });
      } catch {
        // The connection is down: the store reconnects and asks for a snapshot, and the
        // inspector asks again at its next renewal.
      }
    },
    setPaused(paused) {
      set((s) => {
        if (s.paused === paused) return {};
        if (paused) return { paused: true };
        const frames = appendCapped(s.frames, s.held, ctx.options.frameCap);
        return { paused: false, held: [], frames, droppedFrames: s.droppedFrames + (s.frames.length + s.held.length - frames.length) };
      });
    },
    selectFrame(seq) {
      set({ selectedSeq: seq });
    },
    clearFrames() {
      set({ frames: [], held: [], selectedSeq: null });
    },
  });

const createFilterSlice: Slice<FilterSlice> = (set) => ({
  filter: EMPTY_FILTER,
  setFilter(patch) {
    set((s) => ({ filter: { ...s.filter, ...patch } }));
  },
});

/** What became of a join, in the player's words (how the game gets in is the host's business, and the inspector's). */
const SOCIAL_OUTCOME_TEXT: Readonly<Record<SocialOutcomeView['type'], string>> = {
  'join-delivered': 'Joined: your game is joining the party',
  'join-pending': 'Joining: start the game and it joins the party',
  'request-declined': 'Your request to join was declined',
};

/** What accepting an invite came to; says the same as the host's outcome for it, whichever arrives last. */
const INVITE_ACCEPTED_TEXT = {
  delivered: 'Invite accepted: your game is joining the party',
  pending: 'Invite accepted: the game is not running yet; start it and it joins the party',
} as const;

const createMessagesSlice =
  (ctx: Context): Slice<MessagesSlice> =>
  (set) => {
    let nextId = 1;
    const notify: MessagesSlice['notify'] = (kind, text, topic, detail) => {
      const message: UiMessage = { id: nextId++, kind, text, ...(topic === undefined ? {} : { topic }), ...(detail === undefined || detail === text ? {} : { detail }) };
      set((s) => ({ messages: [...s.messages.filter((m) => topic === undefined || m.topic !== topic), message].slice(-ctx.options.maxMessages) }));
      if (kind === 'info') setTimeout(() => set((s) => ({ messages: s.messages.filter((m) => m.id !== message.id) })), INFO_MESSAGE_MS);
    };
    return {
      messages: [],
      notify,
      socialOutcome(outcome) {
        notify('info', SOCIAL_OUTCOME_TEXT[outcome.type], outcome.user_id === null ? undefined : `join:${outcome.user_id}`);
      },
      resolveMessages(topic) {
        set((s) => (s.messages.some((m) => m.topic === topic) ? { messages: s.messages.filter((m) => m.topic !== topic) } : {}));
      },
      dismissMessage(id) {
        set((s) => ({ messages: s.messages.filter((m) => m.id !== id) }));
      },
    };
  };

/** One invoke with a busy key; a failure becomes an error message. */
type RunAction = <C extends InvokeChannel>(
  key: string,
  failure: string,
  channel: C,
  args: InvokeChannels[C]['args'],
  onResult?: (result: InvokeChannels[C]['result']) => void,
) => Promise<boolean>;

const RELATIONSHIP_FAILURE: Readonly<Record<RelationshipAction, string>> = {
  accept: 'Could not accept the friend request',
  ignore: 'Could not ignore the friend request',
  cancel: 'Could not cancel the friend request',
  remove: 'Could not remove the friend',
  block: 'Could not block',
  unblock: 'Could not unblock',
};

const RELATIONSHIP_DONE: Readonly<Record<RelationshipAction, (name: string) => string>> = {
  accept: (name) => `You and ${name} are now friends`,
  ignore: (name) => `Friend request from ${name} ignored`,
  cancel: (name) => `Friend request to ${name} cancelled`,
  remove: (name) => `${name} is no longer your friend`,
  block: (name) => `${name} is blocked`,
  unblock: (name) => `${name} is unblocked`,
};

/** How the UI names a user it knows (a friend, a request, a block), for its messages. */
function knownName(data: HostData | null, userId: string): string {
  const user = data?.friends.find((f) => f.user.id === userId)?.user ?? data?.relationships.find((r) => r.user.id === userId)?.user;
  return user === undefined ? 'that user' : (user.global_name ?? user.username);
}

/** Friend requests, friends removed, blocks: the actions of the Friends screen's relationships. */
function relationshipActions(run: RunAction, get: () => AppState): Pick<ActionsSlice, 'changeRelationship' | 'sendFriendRequest'> {
  return {
    changeRelationship: (userId, action) => {
      const name = knownName(get().data, userId);
      return run(`relationship:${userId}`, RELATIONSHIP_FAILURE[action], 'companion:change-relationship', [userId, action], () => {
        get().notify('info', RELATIONSHIP_DONE[action](name), `relationship:${userId}`);
      });
    },
    sendFriendRequest: (username) => {
      const name = username.trim().replace(/^@/, '');
      return run('friend-request', 'Could not send the friend request', 'companion:send-friend-request', [username], (result) => {
        get().notify('info', result.accepted ? `You and ${name} are now friends: they had asked you first` : `Friend request sent to ${name}`, 'friend-request');
      });
    },
  };
}

/** Tells the host a conversation is on screen (or left it); a failure says nothing: the next call retries. */
async function readConversation(ctx: Context, userId: string, showing: boolean): Promise<void> {
  try {
    await ctx.bridge.invoke('companion:read-conversation', userId, showing);
  } catch {
    // The connection is down: the store reconnects, and the conversation on screen calls again.
  }
}

/** The Settings screen's "Detected games": switches, the running programs, games the player adds. */
function detectionActions(
  run: RunAction,
  get: () => AppState,
  set: (partial: Partial<ActionsSlice>) => void,
  patchData: (patch: Partial<HostData>) => void,
): Pick<ActionsSlice, 'updateDetection' | 'programs' | 'listPrograms' | 'addGame' | 'removeGame'> {
  return {
    updateDetection: (patch) => run('detection', 'Could not change game detection', 'companion:update-detection', [patch], (detection) => patchData({ detection })),
    programs: null,
    listPrograms: () => run('programs', 'Could not list the running programs', 'companion:running-programs', [], (programs) => set({ programs })),
    addGame: (executable, name) =>
      run('detection', 'Could not add the game', 'companion:add-game', [executable, name], (detection) => {
        patchData({ detection });
        const programs = get().programs;
        if (programs !== null) set({ programs: programs.filter((program) => program.executable !== executable) });
        get().notify('info', `${name.trim()} is one of your games: Companion shows it when it runs`, 'detection');
      }),
    removeGame: (id) => run('detection', 'Could not remove the game', 'companion:remove-game', [id], (detection) => patchData({ detection })),
  };
}

const createActionsSlice =
  (ctx: Context): Slice<ActionsSlice> =>
  (set, get) => {
    /** Runs one invoke with a busy key; failures become an error message. */
    const run: RunAction = async (key, failure, channel, args, onResult) => {
      if (get().busy.includes(key)) return false;
      set((s) => ({ busy: [...s.busy, key] }));
      try {
        const result = await ctx.bridge.invoke(channel, ...args);
        // Done: an earlier failure of the same action is no longer true.
        get().resolveMessages(key);
        onResult?.(result);
        return true;
      } catch (error) {
        // Plain words for the player; the host's precise text stays behind the banner's Details.
        const raw = errorText(error);
        const plain = playerErrorText(raw);
        get().notify('error', `${failure}: ${plain}`, key, plain === raw ? undefined : raw);
        return false;
      } finally {
        set((s) => ({ busy: without(s.busy, key) }));
      }
    };
    const patchData = (patch: Partial<HostData>): void => set((s) => (s.data === null ? {} : { data: { ...s.data, ...patch } }));
    return {
      busy: [],
      acceptJoinRequest: (id) => run(`join-request:${id}`, 'Could not accept the join request', 'companion:accept-join-request', [id]),
      declineJoinRequest: (id) => run(`join-request:${id}`, 'Could not decline the join request', 'companion:decline-join-request', [id]),
      acceptInvite: (id) => {
        // One message per friend's game: the host's own word on this join (`join-pending`…) shares it.
        const senderId = get().data?.invites.find((i) => i.id === id)?.user.id;
        return run(`invite:${id}`, 'Could not accept the invite', 'companion:accept-invite', [id], (result) => {
          get().notify(
            'info',
            result.secret_delivered ? INVITE_ACCEPTED_TEXT.delivered : INVITE_ACCEPTED_TEXT.pending,
            senderId === undefined ? `invite:${id}` : `join:${senderId}`,
          );
        });
      },
      declineInvite: (id) => run(`invite:${id}`, 'Could not decline the invite', 'companion:decline-invite', [id]),
      requestToJoin: (userId, applicationId) =>
        run(`join:${userId}`, 'Could not join', 'companion:request-to-join', [userId, applicationId], (result) => {
          get().notify('info', result.joined ? SOCIAL_OUTCOME_TEXT['join-delivered'] : 'Join request sent: waiting for an answer', `join:${userId}`);
        }),
      sendInvite: (userId, applicationId) => {
        const friend = get().data?.friends.find((f) => f.user.id === userId)?.user;
        const game = get().data?.games.find((g) => g.client_id === applicationId)?.application_name ?? 'your game';
        const name = friend === undefined ? 'your friend' : (friend.global_name ?? friend.username);
        return run(`send-invite:${userId}`, `Could not invite ${name}`, 'companion:send-invite', [userId, applicationId], () => {
          get().notify('info', `Invite to ${game} sent to ${name}`, `send-invite:${userId}`);
        });
      },
      sendDm: (userId, content) => run(`dm:${userId}`, 'Could not send the message', 'companion:send-dm', [userId, content]),
      readConversation: (userId, showing) => readConversation(ctx, userId, showing),
      ...relationshipActions(run, get),
      ...detectionActions(run, get, set, patchData),
      sendAuthorizeRequest: (applicationId) =>
        run(`authorize:${applicationId}`, 'Could not send the link request', 'companion:send-authorize-request', [applicationId], (result) => {
          const name = appNameOr(get().data, applicationId, 'The game');
          get().notify(
            'info',
            result.delivered > 0 ? `Link request sent to ${name}: it asks for your permission next` : `${name} is not ready to link your account right now`,
            `authorize:${applicationId}`,
            `companion:send-authorize-request delivered to ${result.delivered} connection(s)`,
          );
        }),
      revokeGrant: (applicationId) => {
        const name = get().data?.grants.find((g) => g.application.id === applicationId)?.application.name ?? appNameOr(get().data, applicationId, 'The app');
        return run(`revoke:${applicationId}`, 'Could not revoke the authorization', 'companion:revoke-grant', [applicationId], () => {
          get().notify('info', `${name} can no longer use your account`, `revoke:${applicationId}`);
        });
      },
      decideOrigin: (id, decision) => run(`origin:${id}`, 'Could not answer the web page', 'companion:decide-origin', [id, decision]),
      forgetOrigin: (id) => run(`origin:${id}`, 'Could not forget the web page', 'companion:forget-origin', [id]),
      doctor: null,
      updatePresence: (patch) =>
        run('presence', 'Could not change what friends see', 'companion:update-presence', [patch], (settings) => {
          const presence = get().data?.presence;
          if (presence !== null && presence !== undefined) patchData({ presence: { ...presence, ...settings } });
        }),
      setRecording: (on) =>
        run('recording', on ? 'Could not start recording' : 'Could not stop recording', 'companion:set-recording', [on], (recording) => {
          patchData({ recording });
          // Started: the inspector's own banner says where it records (a second line saying it would repeat it).
          // Saved: the file, without the writer's count (it includes the file's header, so it never matched
          // the rows the opened recording shows).
          if (!on) get().notify('info', `Recording saved: ${recording.file ?? ''}`, 'recording');
        }),
      setVoice: (patch) => run('voice', 'Could not change your mute or deafen', 'companion:set-voice', [patch], (voice) => patchData({ voice })),
      runDoctor: () => run('doctor', 'Could not run the doctor', 'companion:doctor', [], (doctor) => set({ doctor })),
      login: (username) => run('account', 'Could not sign in', 'companion:login', [username], (status) => patchData({ status })),
      logout: () => run('account', 'Could not sign out', 'companion:logout', [], (status) => patchData({ status })),
      updateSettings: (patch) => run('settings', 'Could not save the settings', 'companion:update-settings', [patch], (settings) => patchData({ settings })),
    };
  };

// ---- selectors

/** The consent request to show: the host's visible one, unless it was just decided here. */
export function selectVisibleConsent(state: AppState): ConsentPromptView | null {
  const requests = state.data?.consent_requests ?? [];
  return requests.find((r) => r.state === 'visible' && !state.decidedConsentIds.includes(r.id)) ?? null;
}

/**
 * What waits for the player's answer (the Friends badge): join requests, friend requests, and
 * invites still open. An expired invite (past its expiry, or its sender left that game or
 * party) can no longer be accepted: it is not counted.
 */
export function selectWaitingCount(state: AppState): number {
  const data = state.data;
  if (data === null) return 0;
  const invites = data.invites.filter((invite) => invite.valid && !inviteTimedOut(invite, state.now)).length;
  return data.join_requests.length + invites + data.relationships.filter((r) => r.type === 'incoming').length;
}

/**
 * How many direct messages the signed-in player has not read, over the conversations with
 * friends (the Friends badge, the window title): a conversation kept with someone who is no
 * longer a friend has no row to open it from, so it does not count.
 */
export function selectUnreadCount(state: AppState): number {
  const data = state.data;
  if (data === null) return 0;
  const friends = new Set(data.friends.map((friend) => friend.user.id));
  return data.conversations.reduce((sum, conversation) => sum + (friends.has(conversation.user_id) ? conversation.unread : 0), 0);
}

/** Past its expiry time: it leaves the Friends screen's list and the badge. */
export function inviteTimedOut(invite: InviteView, now: number): boolean {
  return invite.expires_at <= now;
}

/** The ids of the invites past their expiry, as one string (stable between ticks, for a selector). */
export function selectTimedOutInviteIds(state: AppState): string {
  return (state.data?.invites ?? [])
    .filter((invite) => inviteTimedOut(invite, state.now))
    .map((invite) => invite.id)
    .join(' ');
}

export function selectQueuedConsentCount(state: AppState): number {
  return (state.data?.consent_requests ?? []).filter((r) => r.state === 'queued').length;
}

// ---- the factory

export function createAppStore(bridge: CompanionBridge, options: AppStoreOptions = {}): AppStore {
  const ctx: Context = {
    bridge,
    pairer: createFramePairer(),
    options: { frameCap: options.frameCap ?? 10_000, maxMessages: options.maxMessages ?? 5, clockMs: options.clockMs ?? 1000 },
    generation: 0,
    syncing: true,
    disposed: false,
  };
  const store = createStore<AppState>()((...a) => ({
    ...createConnectionSlice(ctx)(...a),
    ...createClockSlice(...a),
    ...createDataSlice(ctx)(...a),
    ...createConsentSlice(ctx)(...a),
    ...createInspectorSlice(ctx)(...a),
    ...createFilterSlice(...a),
    ...createMessagesSlice(ctx)(...a),
    ...createActionsSlice(ctx)(...a),
    ...createNavigationSlice<AppState>(bridge, typeof window === 'undefined' ? 'games' : screenFromHash(window.location.hash))(...a),
  }));

  // Subscribe first, then ask for the snapshot: what is pushed while it is in flight is
  // older than its answer (dropped); what is pushed after it is new.
  const live = (): boolean => !ctx.disposed && !ctx.syncing;
  const clock = setInterval(() => store.getState().tick(Date.now()), ctx.options.clockMs);
  const unsubscribers: (() => void)[] = [
    () => clearInterval(clock),
    bridge.on('companion:topic', (push) => {
      if (live()) store.getState().applyTopic(push);
    }),
    bridge.on('companion:outcomes', (outcomes) => {
      if (live() && Array.isArray(outcomes)) store.getState().appendOutcomes(outcomes);
    }),
    bridge.on('companion:social', (outcome) => {
      if (live()) store.getState().socialOutcome(outcome);
    }),
    // Where a game asks the window to go: not state, so not dropped while a snapshot is on its way.
    bridge.on('companion:open-view', (push) => {
      if (!ctx.disposed) store.getState().openView(push);
    }),
    bridge.on('companion:frames', (frames) => {
      if (live() && Array.isArray(frames)) store.getState().ingestFrames(frames);
    }),
  ];

  let started: Promise<void>;
  if (hasLink(bridge)) {
    let resolveStarted: () => void = () => undefined;
    started = new Promise<void>((resolve) => {
      resolveStarted = resolve;
    });
    const refreshAndSettle = (): void => {
      void store.getState().refresh().then(resolveStarted);
    };
    unsubscribers.push(
      bridge.onLinkState((state, detail) => {
        if (ctx.disposed) return;
        if (state === 'open') {
          refreshAndSettle();
        } else if (state === 'lost') {
          ctx.generation += 1; // an answer still on its way belongs to the old socket
          ctx.syncing = true;
          store.setState({ connection: { status: 'lost', error: null, attempt: detail.attempt, retryInMs: detail.retryInMs } });
        }
      }),
    );
    if (bridge.linkState() === 'open') refreshAndSettle();
  } else {
    started = store.getState().refresh();
  }

  return Object.assign(store, {
    started,
    dispose() {
      if (ctx.disposed) return;
      ctx.disposed = true;
      ctx.generation += 1;
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    },
  });
}
