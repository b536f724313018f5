/**
 * The one contract between the host (main) and the UI (renderer). The Electron preload, the
 * headless host's WebSocket bridge and the renderer's `CompanionBridge` all derive from it:
 * `invoke` channels are request/response calls with typed results, `push` channels are what
 * main sends on its own. Every channel starts with `companion:`, so both ends can refuse
 * anything else. Types are plain JSON (they cross a process or a socket): no functions, no
 * class instances. Tokens and join secrets never appear in any of them.
 *
 * This file imports nothing: the renderer may depend on it and on nothing else of ours.
 */

export const CHANNEL_PREFIX = 'companion:';

// ---- views (the JSON the host's control API serves; snake_case like the platform's JSON)

export interface UserView {
  readonly id: string;
  readonly username: string;
  readonly discriminator: string;
  readonly global_name: string | null;
  readonly avatar: string | null;
}

/** An activity as the host holds it (never with secrets). Fields come from untrusted games. */
export interface ActivityView {
  readonly name?: string;
  readonly type?: number;
  readonly application_id?: string;
  readonly details?: string;
  readonly state?: string;
  readonly details_url?: string;
  readonly state_url?: string;
  readonly timestamps?: { readonly start?: number; readonly end?: number };
  readonly assets?: Readonly<Record<string, string>>;
  readonly party?: { readonly id?: string; readonly size?: readonly number[] };
  readonly buttons?: readonly (string | { readonly label: string; readonly url: string })[];
  readonly metadata?: { readonly button_urls?: readonly string[] };
  readonly flags?: number;
  readonly created_at?: number;
}

export type GatewayState = 'disconnected' | 'connecting' | 'ready' | 'reconnecting';

export interface StatusView {
  readonly version: string;
  readonly account: { readonly user: UserView } | null;
  readonly gateway: { readonly status: GatewayState; readonly detail: string | null };
  readonly ipc: { readonly path: string } | null;
  /** The RPC WebSocket on 127.0.0.1 (6463-6472), null when it is not listening. */
  readonly websocket: { readonly port: number } | null;
  readonly platform: { readonly url: string; readonly embedded: boolean };
}

export interface GameView {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
  readonly pid: number | null;
  /** 'ipc' (discord-ipc-N) or 'websocket' (127.0.0.1:6463-6472). */
  readonly transport: string;
  /** The client library the game probably uses (from its nonces and activity), and why. */
  readonly client_library: { readonly library: string; readonly reason: string };
  readonly activity: ActivityView | null;
  /** Epoch ms. */
  readonly connected_at: number;
}

export interface FriendView {
  readonly user: UserView;
  readonly presence: { readonly status: string; readonly activities: readonly ActivityView[] };
}

export interface JoinRequestView {
  readonly id: string;
  readonly user: UserView;
  readonly application_id: string;
  readonly received_at: number;
}

export interface InviteView {
  readonly id: string;
  readonly user: UserView;
  readonly application_id: string;
  readonly activity: ActivityView | null;
  readonly received_at: number;
  readonly valid: boolean;
}

export interface ConsentPromptView {
  readonly id: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null; readonly verified: boolean };
  readonly scopes: readonly string[];
  readonly expanded_scopes: readonly string[];
  readonly descriptions: readonly { readonly scope: string; readonly text: string }[];
  /** 0 guild install, 1 user install, null when not given. */
  readonly integration_type: number | null;
  readonly state: 'queued' | 'visible' | 'settled';
  readonly expires_at: number | null;
}

export interface GrantView {
  readonly id: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null };
  readonly scopes: readonly string[];
  readonly integration_type: number | null;
  readonly created_at: string;
}

/** A web page that tried the RPC WebSocket from an origin the player has not approved. Times are epoch ms. */
export interface OriginRequestView {
  readonly id: string;
  /** `scheme://host[:port]`, from the page's Origin header (untrusted text). */
  readonly origin: string;
  readonly client_id: string;
  readonly application_name: string | null;
  readonly created_at: number;
  readonly last_attempt_at: number;
  readonly attempts: number;
}

/** An answer the player gave to an origin (approved ones are remembered across runs). */
export interface OriginDecisionView {
  readonly id: string;
  readonly origin: string;
  readonly client_id: string;
  readonly application_name: string | null;
  readonly decision: 'approved' | 'denied';
  readonly decided_at: number;
}

/** `companion doctor` as the Settings panel shows it: where games look and what they find (no secrets). */
export interface DoctorView {
  /** Epoch ms. */
  readonly generated_at: number;
  /** The directories Companion listens in, and why each. */
  readonly directories: readonly { readonly dir: string; readonly kind: string; readonly why: string }[];
  /** What is at each discord-ipc-N there (absent ones left out). */
  readonly sockets: readonly { readonly path: string; readonly state: string; readonly holder: 'companion' | 'another server' | null }[];
  /** The socket each known client library would pick in the host's environment. */
  readonly clients: readonly {
    readonly name: string;
    readonly rule: string;
    readonly outcome: 'connects' | 'fails' | 'not-checked';
    readonly path: string | null;
    readonly reason: string | null;
    readonly reaches: 'companion' | 'another server' | null;
  }[];
  /** Linux: Flatpak apps and whether they can see Companion's sockets; null elsewhere. */
  readonly flatpak: readonly { readonly id: string; readonly exposes: 'directory' | 'socket' | 'none'; readonly detail: string; readonly fix: string | null }[] | null;
  /** What to do, most important first. */
  readonly findings: readonly string[];
}

/** What the real client accepts but shows badly, for one SET_ACTIVITY (the wire answer is unchanged). */
export interface LintView {
  readonly code: string;
  readonly field: string;
  readonly message: string;
  readonly severity: 'warning' | 'info';
}

/** What became of one game update on its way to the platform (the relay's outcome). Times are epoch ms. */
export interface RelayOutcomeView {
  readonly connection_id: string;
  readonly application_id: string;
  /** Which update of that connection (1 = its first SET_ACTIVITY; the close counts too). */
  readonly update: number;
  readonly cause: 'command' | 'disconnect';
  readonly cleared: boolean;
  readonly at: number;
  readonly kind: 'sent' | 'coalesced' | 'held' | 'shadowed' | 'hidden' | 'rejected' | 'unchanged';
  /** coalesced: updates merged into one send; held: updates held so far. */
  readonly count?: number;
  /** held: when the rate limit lets it go. */
  readonly until?: number;
  /** shadowed: the game whose activity is shown instead. */
  readonly by_application_id?: string;
  /** hidden: by "hide everything" or by this app's rule. */
  readonly rule?: 'hide-all' | 'app';
  /** rejected: the platform's reason, and when it may be sent again. */
  readonly reason?: string;
  readonly retry_after_ms?: number | null;
}

export type RedactableField = 'details' | 'state' | 'party' | 'buttons' | 'assets' | 'timestamps';

export type AppRuleView = { readonly mode: 'hide' } | { readonly mode: 'redact'; readonly fields: readonly RedactableField[] };

/** The player's presence settings: which game is shown, and what friends may see of each. */
export interface PresenceSettingsView {
  readonly policy: 'most-recent' | 'first-connected';
  /** This app's activity wins whenever it has one. */
  readonly pinned_application_id: string | null;
  /** No game activity reaches the platform. */
  readonly hide_all: boolean;
  /** Apps without an entry share their activity. */
  readonly rules: Readonly<Record<string, AppRuleView>>;
}

export interface PresenceView extends PresenceSettingsView {
  readonly games: readonly {
    readonly connection_id: string;
    readonly application_id: string;
    readonly application_name: string;
    /** Its activity is what friends see now. */
    readonly shown: boolean;
    readonly outcome: RelayOutcomeView | null;
  }[];
  /** The latest outcomes of every game, oldest first (at most 50). */
  readonly recent_outcomes: readonly RelayOutcomeView[];
  /** Apps whose first activity was announced to the player, oldest first. */
  readonly announced: readonly { readonly application_id: string; readonly application_name: string; readonly at: number }[];
}

/** A change to the presence settings: absent fields are kept; a rule of null or share removes the app's rule. */
export interface PresencePatch {
  readonly policy?: PresenceSettingsView['policy'];
  readonly pinned_application_id?: string | null;
  readonly hide_all?: boolean;
  readonly rules?: Readonly<
    Record<string, { readonly mode: 'share' } | { readonly mode: 'hide' } | { readonly mode: 'redact'; readonly fields?: readonly RedactableField[] } | null>
  >;
}

/** The host's recorder (`serve --record`, or the inspector's Record button). */
export interface RecordingView {
  readonly recording: boolean;
  /** The file being written, or the last one written (null before any). */
  readonly file: string | null;
  /** ISO time the recording started, or null. */
  readonly started_at: string | null;
  readonly records: number;
  /** Records lost because the disk did not keep up. */
  readonly dropped: number;
  /** The recording keeps secrets (only `serve --record-secrets` does). */
  readonly secrets: boolean;
  /** Why the last recording stopped by itself, else null. */
  readonly error: string | null;
}

/** One RPC frame for the inspector. */
export interface FrameView {
  /** Increasing per host, for ordering and de-duplication. */
  readonly seq: number;
  readonly connection_id: string;
  readonly direction: 'in' | 'out';
  readonly opcode: number;
  /** Epoch ms. */
  readonly at: number;
  readonly cmd: string | null;
  readonly evt: string | null;
  readonly nonce: string | null;
  /** The decoded payload with secrets redacted (tokens, codes, join secrets). */
  readonly payload: unknown;
  /** An incoming SET_ACTIVITY's lints (empty when it shows as meant); absent on other frames. */
  readonly lints?: readonly LintView[];
}

export interface SettingsView {
  readonly consent_policy: 'prompt' | 'approve' | 'deny';
  /** A request with `prompt: consent` always asks, as the real client does. */
  readonly consent_always_ask: boolean;
  /** The host's log level; changes apply at once. */
  readonly log_level: 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Start Companion when the player logs in; null where this runtime cannot (the headless host). */
  readonly start_at_login: boolean | null;
}

/** Everything the UI shows, in one snapshot (sent when the UI says it is ready). */
export interface Snapshot {
  readonly status: StatusView;
  readonly games: readonly GameView[];
  readonly friends: readonly FriendView[];
  readonly join_requests: readonly JoinRequestView[];
  readonly invites: readonly InviteView[];
  readonly consent_requests: readonly ConsentPromptView[];
  readonly grants: readonly GrantView[];
  /** Web pages waiting for the player's answer (RPC WebSocket origins). */
  readonly origin_requests: readonly OriginRequestView[];
  readonly origins: readonly OriginDecisionView[];
  /** Presence arbitration, privacy and relay outcomes; null when this host has none. */
  readonly presence: PresenceView | null;
  /** The recorder; null when this host has none. */
  readonly recording: RecordingView | null;
  readonly settings: SettingsView;
  /** The most recent frames (at most 1,000). */
  readonly frames: readonly FrameView[];
}

// ---- channels

/** Request/response calls: `args` in, `result` out (or an error with a message). */
export interface InvokeChannels {
  /** The UI is ready: pushes queued for it start flowing; answers the current snapshot. */
  'companion:ready': { args: []; result: Snapshot };
  'companion:decide-consent': { args: [id: string, decision: 'approve' | 'deny' | 'dismiss']; result: null };
  'companion:accept-join-request': { args: [id: string]; result: null };
  'companion:decline-join-request': { args: [id: string]; result: null };
  'companion:accept-invite': { args: [id: string]; result: { secret_delivered: boolean } };
  /** Forgets an invite: the protocol has no answer for declining one, so the sender is not told. */
  'companion:decline-invite': { args: [id: string]; result: null };
  'companion:request-to-join': { args: [userId: string, applicationId: string | null]; result: { joined: boolean } };
  'companion:send-invite': { args: [userId: string, applicationId: string | null]; result: { message_id: string } };
  'companion:revoke-grant': { args: [applicationId: string]; result: null };
  'companion:send-authorize-request': { args: [applicationId: string]; result: { delivered: number } };
  'companion:login': { args: [username: string]; result: StatusView };
  'companion:logout': { args: []; result: StatusView };
  'companion:update-settings': { args: [settings: Partial<SettingsView>]; result: SettingsView };
  /** Lets a web origin use the RPC WebSocket for that app, or refuses it. */
  'companion:decide-origin': { args: [id: string, decision: 'approve' | 'deny']; result: null };
  /** Forgets an origin answer: that page asks again next time. */
  'companion:forget-origin': { args: [id: string]; result: null };
  /** Runs `companion doctor` in the host's environment. */
  'companion:doctor': { args: []; result: DoctorView };
  /** Changes the presence settings (policy, pin, hide everything, per-app rules). */
  'companion:update-presence': { args: [patch: PresencePatch]; result: PresenceSettingsView };
  /**
   * Starts recording every frame to a new file the host names in its data directory (secrets
   * redacted), or stops. The UI never chooses the path.
   */
  'companion:set-recording': { args: [on: boolean]; result: RecordingView };
}

/** What main sends on its own. */
export interface PushChannels {
  /** Something changed: the UI replaces its snapshot (cheap at this scale, never out of order). */
  'companion:snapshot': Snapshot;
  /** Frames since the last push, in order (batched: at most one push per 50 ms). */
  'companion:frames': readonly FrameView[];
}

export type InvokeChannel = keyof InvokeChannels;
export type PushChannel = keyof PushChannels;

export const INVOKE_CHANNELS: readonly InvokeChannel[] = [
  'companion:ready',
  'companion:decide-consent',
  'companion:accept-join-request',
  'companion:decline-join-request',
  'companion:accept-invite',
  'companion:decline-invite',
  'companion:request-to-join',
  'companion:send-invite',
  'companion:revoke-grant',
  'companion:send-authorize-request',
  'companion:login',
  'companion:logout',
  'companion:update-settings',
  'companion:decide-origin',
  'companion:forget-origin',
  'companion:doctor',
  'companion:update-presence',
  'companion:set-recording',
];

export const PUSH_CHANNELS: readonly PushChannel[] = ['companion:snapshot', 'companion:frames'];

/** What the renderer gets: the preload's `window.companion`, or the web bridge. */
export interface CompanionBridge {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']>;
  /** Returns the unsubscribe function. */
  on<C extends PushChannel>(channel: C, listener: (payload: PushChannels[C]) => void): () => void;
}

// ---- the web bridge's wire (headless hosts): JSON messages over one WebSocket

export type BridgeClientMessage = { readonly id: number; readonly channel: InvokeChannel; readonly args: readonly unknown[] };

export type BridgeServerMessage =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }
  | { readonly push: PushChannel; readonly payload: unknown };
