/**
 * The views: every JSON shape that crosses from the host to the UI, defined once. The host's
 * control API serves the same shapes (plus host-only fields, as extensions of these), the
 * bridge pushes them, the renderer shows them. snake_case like the platform's JSON; plain JSON
 * (no functions, no class instances); tokens and join secrets never appear in any of them.
 *
 * Imports nothing.
 */

/** The host log levels the Settings screen offers, most severe first. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const ARBITRATION_POLICIES = ['most-recent', 'first-connected'] as const;
export const REDACTABLE_FIELDS = ['details', 'state', 'party', 'buttons', 'assets', 'timestamps'] as const;
/** Relay outcomes the UI keeps (a snapshot carries the latest this many; pushes append). */
export const RECENT_OUTCOMES = 50;
/** Inspector rows the host keeps over every connection's ring, and a snapshot carries at most. */
export const FRAME_RING_SIZE = 20_000;

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

/** `banned`: the platform refuses the signed-in account for a ban; Companion signs in again by itself once it is lifted. */
export type GatewayState = 'disconnected' | 'connecting' | 'ready' | 'reconnecting' | 'banned';

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
  /** The game subscribed to AUTHORIZE_REQUEST: it can be asked to start linking the player's account. */
  readonly link_requests: boolean;
}

export interface FriendView {
  readonly user: UserView;
  readonly presence: { readonly status: string; readonly activities: readonly ActivityView[] };
}

/**
 * A relationship other than friendship, as the desktop client's Friends screen lists it:
 * `incoming` a friend request to the player, `outgoing` one the player sent, `blocked` a user
 * the player blocked (the platform's relationship types 3, 4 and 2). Friends are in `friends`.
 */
export const RELATIONSHIP_KINDS = ['incoming', 'outgoing', 'blocked'] as const;
export type RelationshipKind = (typeof RELATIONSHIP_KINDS)[number];

export interface RelationshipView {
  readonly user: UserView;
  readonly type: RelationshipKind;
}

/**
 * What the player can do about a relationship (`companion:change-relationship`): `accept` or
 * `ignore` a friend request to them, `cancel` theirs, `remove` a friend, `block` anyone,
 * `unblock` a blocked user.
 */
export const RELATIONSHIP_ACTIONS = ['accept', 'ignore', 'cancel', 'remove', 'block', 'unblock'] as const;
export type RelationshipAction = (typeof RELATIONSHIP_ACTIONS)[number];

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
  /** The sender's message with the invite ('' for none); untrusted text, at most 1024 characters. */
  readonly content: string;
  readonly received_at: number;
  /** Epoch ms after which it can no longer be accepted: the UI drops it from the list and the badge then. */
  readonly expires_at: number;
  /** False once its sender left that game or party (shown as expired, not counted as waiting). */
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
  /** The scopes in the consent prompt's words. */
  readonly descriptions: readonly { readonly scope: string; readonly text: string }[];
  readonly integration_type: number | null;
  readonly created_at: string;
}

/** A web page that tried the RPC WebSocket from an origin the player has not approved. Times are epoch ms. */
export interface OriginRequestView {
  /** Random, url-safe (base64url, 16 characters). */
  readonly id: string;
  /** Normalised `scheme://host[:port]`, from the page's Origin header (untrusted text). */
  readonly origin: string;
  readonly client_id: string;
  readonly application_name: string | null;
  readonly created_at: number;
  /** The latest refused connection; the request expires a while after it. */
  readonly last_attempt_at: number;
  /** Refused connections so far. */
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
  /** shadowed: that game's connection (several games of one app tell apart by it). */
  readonly by_connection_id?: string;
  /** hidden: by "hide everything" or by this app's rule. */
  readonly rule?: 'hide-all' | 'app';
  /** rejected: the platform's reason, and when it may be sent again. */
  readonly reason?: string;
  readonly retry_after_ms?: number | null;
}

export type RedactableField = (typeof REDACTABLE_FIELDS)[number];

export type AppRuleView = { readonly mode: 'hide' } | { readonly mode: 'redact'; readonly fields: readonly RedactableField[] };

/** The player's presence settings: which game is shown, and what friends may see of each. */
export interface PresenceSettingsView {
  readonly policy: (typeof ARBITRATION_POLICIES)[number];
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
    /** What friends see of its activity when it is shown (the relay's own copy, redact rules applied); null: hidden, or none. */
    readonly friends_see: ActivityView | null;
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

/**
 * One row of the inspector: an RPC frame ('in' from the game, 'out' to it), or a host-side
 * event ('host': a connection opening, its handshake, its close with code and reason, a consent
 * decision, a relay outcome, a gateway dispatch), with opcode HOST_EVENT_OPCODE, the event's
 * name as `cmd` and its gist as `evt` (common/src/recording/host-event-row.ts).
 */
export interface FrameView {
  /** The inspector stream's sequence number: increasing per host, one per row. */
  readonly seq: number;
  readonly connection_id: string;
  readonly direction: 'in' | 'out' | 'host';
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
  /**
   * Set on a connection's first row after older rows of it were dropped from the host's ring
   * (the reader never got them): how many. The inspector shows "N older frames dropped" there.
   */
  readonly dropped_before?: number;
}

export interface SettingsView {
  readonly consent_policy: 'prompt' | 'approve' | 'deny';
  /** A request with `prompt: consent` always asks, as the real client does. */
  readonly consent_always_ask: boolean;
  /** The host's log level; changes apply at once. */
  readonly log_level: LogLevelName;
  /** Start Companion when the player logs in; null where this runtime cannot (the headless host). */
  readonly start_at_login: boolean | null;
}

/** A direct message with a friend. */
export interface DmView {
  readonly id: string;
  readonly author_id: string;
  /** Untrusted text. */
  readonly content: string;
  /** The game that sent it (with the player's or the friend's game token), or null for a typed one. */
  readonly application_id: string | null;
  /** That game's name, once the host has it from the platform (null until then). */
  readonly application_name: string | null;
  /** Epoch ms. */
  readonly at: number;
  /** Epoch ms of its author's last edit, or null (the UI marks it "edited"). */
  readonly edited_at: number | null;
}

/** The conversation with one friend: its messages, oldest first (at most 50). */
export interface ConversationView {
  readonly user_id: string;
  readonly messages: readonly DmView[];
  /**
   * How many of the friend's messages the signed-in player has not read: those after the
   * player's read mark (kept by the host per player, across restarts) and after the player's
   * own newest message. A UI reads a conversation by showing it (`companion:read-conversation`).
   */
  readonly unread: number;
}

/**
 * What became of a detected game: `shown` to friends as "Playing <name>"; `excluded` by the
 * player's switch; `rpc`: the game speaks RPC, its own activity is shown instead; `off`: the
 * global switch is off; `ended`: the program exited.
 */
export const DETECTED_GAME_STATES = ['shown', 'excluded', 'rpc', 'off', 'ended'] as const;
export type DetectedGameState = (typeof DETECTED_GAME_STATES)[number];

/** A game Companion found among the running programs (game detection). */
export interface DetectedGameView {
  readonly application_id: string;
  readonly name: string;
  /** The executable that matched (its path as the process has it, or its name). */
  readonly executable: string;
  readonly pid: number | null;
  /** When the program started (epoch ms): the activity's start time. */
  readonly started_at: number;
  /** When Companion saw it (epoch ms). */
  readonly detected_at: number;
  /** When it exited (epoch ms); null while it runs. */
  readonly ended_at: number | null;
  readonly state: DetectedGameState;
  /** A program the player named as a game (not on the platform's list). */
  readonly custom: boolean;
}

/** A program the player named as a game: kept on this machine, detected like the platform's. */
export interface CustomGameView {
  readonly id: string;
  readonly name: string;
  readonly executable: string;
  readonly os: 'win32' | 'linux' | 'darwin';
  readonly added_at: number;
}

/** A running program that is not a known game, which the player may name as one ("Add it"). */
export interface RunningProgramView {
  readonly pid: number;
  /** What a custom entry would match: the executable's name (a Windows game's `.exe` for Wine and Proton ones). */
  readonly executable: string;
  /** The full path, when known. */
  readonly path: string | null;
}

/** Game detection as the Settings screen shows it. */
export interface DetectionView {
  /** The global switch. */
  readonly enabled: boolean;
  /** Detected games, the running ones first, then the ended ones most recent first. */
  readonly games: readonly DetectedGameView[];
  /** Games the player switched off (they may not be running). */
  readonly excluded: readonly { readonly application_id: string; readonly name: string }[];
  readonly custom: readonly CustomGameView[];
  /** The platform's list the scanner uses: where it came from (`cache`: the platform could not be reached), how many, and when. */
  readonly list: { readonly source: 'none' | 'cache' | 'platform'; readonly applications: number; readonly fetched_at: number | null; readonly last_error: string | null };
}

/** A change to game detection: the global switch, or one game shown or not. */
export interface DetectionPatch {
  readonly enabled?: boolean;
  readonly game?: { readonly application_id: string; readonly shown: boolean };
}

/** Everything the UI shows, in one snapshot (sent when the UI says it is ready). */
/** Someone in the player's voice channel, as the voice panel shows them. */
export interface VoiceMemberView {
  readonly user: UserView;
  readonly self_mute: boolean;
  readonly self_deaf: boolean;
  /** Speaking now (the ring around their avatar). */
  readonly speaking: boolean;
  /** The player themselves. */
  readonly me: boolean;
}

/**
 * The player's voice: the server voice channel they are in (null: none) with who is in it and
 * who speaks, and their mute and deafen (the voice settings GET_VOICE_SETTINGS reports). The
 * host's voice connection carries no audio (state only): `audio` is always false.
 */
export interface VoiceView {
  readonly channel: { readonly id: string; readonly guild_id: string; readonly name: string | null } | null;
  readonly members: readonly VoiceMemberView[];
  readonly mute: boolean;
  readonly deaf: boolean;
  /** VOICE_CONNECTION_STATUS's state (DISCONNECTED, CONNECTING, VOICE_CONNECTED). */
  readonly connection: string;
  readonly audio: false;
}

export interface Snapshot {
  readonly status: StatusView;
  readonly games: readonly GameView[];
  readonly friends: readonly FriendView[];
  /** Friend requests both ways and blocked users (friends are in `friends`), from the host's gateway session. */
  readonly relationships: readonly RelationshipView[];
  readonly join_requests: readonly JoinRequestView[];
  readonly invites: readonly InviteView[];
  /** Direct messages with friends, the most recent conversation first. */
  readonly conversations: readonly ConversationView[];
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
  /** Game detection (the Settings screen's "Detected games"); null or absent when this host has none. */
  readonly detection?: DetectionView | null;
  /** The player's voice channel and mute/deafen; null when the host has no voice side. */
  readonly voice: VoiceView | null;
  /** The rows the host keeps of every connection's conversation, in seq order (at most FRAME_RING_SIZE). */
  readonly frames: readonly FrameView[];
  /**
   * The "Link a device" screen a game has open now (as its `companion:open-view` push said), for a
   * window that opens, reloads or reconnects after the request; null (or absent) when none is.
   */
  readonly device_screen?: DeviceScreenView | null;
}


/** The snapshot without its frames (and the open device screen, which is where the window is, not state): what the UI holds as the host's state. */
export type HostData = Omit<Snapshot, 'frames' | 'device_screen'>;

/** Presence as a topic push carries it: the outcomes stream separately (`companion:outcomes`). */
export type PresenceStateView = Omit<PresenceView, 'recent_outcomes'>;

/**
 * What became of the player's own join: the game got the secret (`join-delivered`), it will
 * when it starts (`join-pending`), or the friend declined the request (`request-declined`).
 * `user_id`: whose game it is (joined, or whose answer was no), when known: the UI keeps one
 * message per friend's game, the latest.
 */
export interface SocialOutcomeView {
  readonly type: 'join-delivered' | 'join-pending' | 'request-declined';
  readonly user_id: string | null;
  readonly application_id: string | null;
}

/**
 * A view a game asked Companion to show (the Social SDK's OpenConnectedGamesSettingsInDiscord,
 * OpenMessageInDiscord, Open/CloseAuthorizeDeviceScreen), pushed as `companion:open-view`; only
 * what the window needs to show it:
 * - `authorized-apps`: the Authorized apps, with the asking game's application picked out;
 * - `conversation`: the conversation with `user_id`, at the message `message_id`;
 * - `authorize-device`: the "Link a device" screen with the game's `user_code` filled in, for
 *   the application the code is for. `screen_id` names this opening: the window says when it
 *   closes it (`companion:close-device-screen`), and the host tells the game;
 * - `close-authorize-device`: the game (or another window) closed that screen;
 * - `voice-channel`: the voice channel a game joined for the player (SELECT_VOICE_CHANNEL with
 *   `navigate: true`).
 */
export type OpenViewPush =
  | { readonly view: 'authorized-apps'; readonly application_id: string }
  | { readonly view: 'conversation'; readonly user_id: string; readonly message_id: string }
  | { readonly view: 'authorize-device'; readonly screen_id: string; readonly application_id: string; readonly user_code: string }
  | { readonly view: 'close-authorize-device'; readonly screen_id: string }
  | { readonly view: 'voice-channel'; readonly channel_id: string };

/** A game's "Link a device" screen, as `companion:open-view` opens it. */
export type DeviceScreenView = Extract<OpenViewPush, { readonly view: 'authorize-device' }>;

/** What a device flow's user code asks of the player: the application and the scopes (in the consent prompt's words). */
export interface DeviceCodePreviewView {
  /** The code as the platform writes it (`XXXX-XXXX`). */
  readonly user_code: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null };
  readonly scopes: readonly string[];
  readonly descriptions: readonly { readonly scope: string; readonly text: string }[];
}

/** What an inspector coming on screen gets: the frames it has not seen that the host still has, and the recent outcomes. */
export interface InspectorCatchUp {
  readonly frames: readonly FrameView[];
  readonly outcomes: readonly RelayOutcomeView[];
}

/** The parts of the host's state pushed one by one, each whole, only when it changed. */
export type TopicValues = Omit<HostData, 'presence'> & { readonly presence: PresenceStateView | null };
export type Topic = keyof TopicValues;

const TOPIC_SET: { readonly [T in Topic]: true } = {
  status: true,
  games: true,
  friends: true,
  relationships: true,
  join_requests: true,
  invites: true,
  conversations: true,
  consent_requests: true,
  grants: true,
  origin_requests: true,
  origins: true,
  presence: true,
  recording: true,
  settings: true,
  detection: true,
  voice: true,
};
export const TOPICS = Object.keys(TOPIC_SET) as readonly Topic[];
