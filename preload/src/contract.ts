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
  readonly platform: { readonly url: string; readonly embedded: boolean };
}

export interface GameView {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
  readonly pid: number | null;
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
}

export interface SettingsView {
  readonly consent_policy: 'prompt' | 'approve' | 'deny';
  /** A request with `prompt: consent` always asks, as the real client does. */
  readonly consent_always_ask: boolean;
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
  'companion:request-to-join': { args: [userId: string, applicationId: string | null]; result: { joined: boolean } };
  'companion:send-invite': { args: [userId: string, applicationId: string | null]; result: { message_id: string } };
  'companion:revoke-grant': { args: [applicationId: string]; result: null };
  'companion:send-authorize-request': { args: [applicationId: string]; result: { delivered: number } };
  'companion:login': { args: [username: string]; result: StatusView };
  'companion:logout': { args: []; result: StatusView };
  'companion:update-settings': { args: [settings: Partial<SettingsView>]; result: SettingsView };
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
  'companion:request-to-join',
  'companion:send-invite',
  'companion:revoke-grant',
  'companion:send-authorize-request',
  'companion:login',
  'companion:logout',
  'companion:update-settings',
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
