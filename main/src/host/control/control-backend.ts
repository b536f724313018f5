import type { PlatformUser, PresenceStatus, WireActivity } from '../../../../platform/src/wire/index.js';
import type { OAuthGrant } from '../../../../platform/src/wire/oauth.js';
import type { GatewayActivity } from '../../../../rpc/src/index.js';

/**
 * What the control API asks of the host. The host implements it; the HTTP layer only
 * validates, authenticates and maps results and errors. Field names are snake_case like the
 * JSON the API serves.
 *
 * A method may throw a `ControlError` (or any error with a numeric `status`, 400-599) to
 * answer with that status and its message; the message is shown to the API client, so it
 * must not contain secrets. Any other error is a 500 with a generic message.
 */
export interface ControlBackend {
  status(): ControlStatus;
  /** Connected RPC games. */
  games(): GameView[];
  friends(): FriendView[];
  /** Incoming join requests still open. */
  joinRequests(): JoinRequestView[];
  acceptJoinRequest(id: string): Promise<void>;
  declineJoinRequest(id: string): Promise<void>;
  /** Invites received. */
  invites(): InviteView[];
  acceptInvite(id: string): Promise<{ secret_delivered: boolean }>;
  /** Forgets an invite (nobody is told, as on the real service). */
  declineInvite(id: string): Promise<void>;
  sendInvite(input: SendInviteInput): Promise<{ message_id: string }>;
  /** joined: the party is public and the join secret went to the game; else a join request was sent. */
  requestToJoin(input: RequestToJoinInput): Promise<{ joined: boolean }>;
  login(input: LoginInput): Promise<ControlAccount | null>;
  logout(): Promise<void>;
  /**
   * Consent prompts (RPC AUTHORIZE) waiting for the player: the visible ones first, then the
   * queued ones in order (ConsentBroker.pending()).
   */
  consentRequests(): ConsentPromptView[];
  /**
   * Approves a pending consent request (visible or queued): the game gets its code. Throws a
   * ControlError 404 when no pending request has that id (unknown, or already settled).
   */
  approveConsent(id: string): Promise<void>;
  /** Denies a pending consent request: the game gets access_denied at once. 404 as approveConsent. */
  denyConsent(id: string): Promise<void>;
  /** The player's OAuth2 grants (the host's cache, refreshed from the platform when it chooses). */
  grants(): Promise<GrantView[]>;
  /**
   * Revokes every grant of the application on the platform (which deletes its tokens at once)
   * and forgets it in the cache. Throws a ControlError 404 when the app has no grant; a
   * platform failure should be a 502.
   */
  revokeGrant(applicationId: string): Promise<void>;
  /**
   * Sends the AUTHORIZE_REQUEST event to the games of that application that subscribed to it;
   * `delivered` counts them (0 when none is connected or subscribed, which is not an error).
   */
  sendAuthorizeRequest(applicationId: string): Promise<{ delivered: number }>;
  /**
   * State changes, streamed as Server-Sent Events. Returns the unsubscribe function. Consent
   * events: `consent-request` (ConsentPromptView), `consent-settled` (ConsentSettledEvent),
   * `consent-auto-approved` (ConsentPromptView); `consentControlEvents()` in
   * main/src/host/control/consent-views.ts maps the broker's events to them.
   */
  subscribe(listener: (event: ControlEvent) => void): () => void;
}

/** A scope and what the player reads for it. */
export interface ScopeDescriptionView {
  readonly scope: string;
  readonly text: string;
}

/** One consent request as the control API serves it. Times are epoch ms. */
export interface ConsentPromptView {
  readonly id: string;
  readonly application: { readonly id: string; readonly name: string; readonly icon: string | null; readonly verified: boolean };
  /** As requested. */
  readonly scopes: readonly string[];
  /** Umbrellas expanded: what the player grants. */
  readonly expanded_scopes: readonly string[];
  /** One per expanded scope, in order. */
  readonly descriptions: readonly ScopeDescriptionView[];
  readonly integration_type: number | null;
  readonly prompt: 'consent' | 'none' | null;
  readonly connection_id: string | null;
  /** `visible`: shown, its time limit running; `queued`: waiting its turn; `settled`: in events only. */
  readonly state: 'queued' | 'visible' | 'settled';
  readonly created_at: number;
  readonly visible_at: number | null;
  /** null while queued: the time limit counts from when the prompt becomes visible. */
  readonly expires_at: number | null;
}

/** How a consent request ended (rows of AUTHORIZE_OUTCOMES); `remembered`: approved by a grant, no prompt. */
export type ConsentOutcomeView =
  | { readonly kind: 'approved'; readonly remembered: boolean }
  | { readonly kind: 'denied' | 'dismissed' | 'timed-out' };

/** Data of the `consent-settled` event. */
export interface ConsentSettledEvent {
  readonly request: ConsentPromptView;
  readonly outcome: ConsentOutcomeView;
}

/** A grant as the control API serves it: the platform's shape. */
export type GrantView = OAuthGrant;

export interface ControlAccount {
  readonly user: PlatformUser;
}

/** Gateway connection state as the UI shows it. */
export type GatewayState = 'disconnected' | 'connecting' | 'ready' | 'reconnecting';

export interface ControlStatus {
  readonly version: string;
  readonly account: ControlAccount | null;
  /** `detail`: a human-readable reason (last close, retry time), null when nothing to say. */
  readonly gateway: { readonly status: GatewayState; readonly detail: string | null };
  /** The RPC IPC endpoint, null when IPC is not listening. */
  readonly ipc: { readonly path: string } | null;
  /** The RPC WebSocket (`ws://127.0.0.1:PORT`), null when it is not listening. */
  readonly websocket: { readonly port: number } | null;
  /** `embedded`: the host runs the platform emulator in-process. */
  readonly platform: { readonly url: string; readonly embedded: boolean };
}

export interface GameView {
  readonly connection_id: string;
  readonly client_id: string;
  readonly application_name: string;
  readonly pid: number | null;
  /** 'ipc', or 'websocket' for the loopback WebSocket transport. */
  readonly transport: string;
  /** Which client library the game probably uses, and why (a guess from its nonces and activity). */
  readonly client_library: { readonly library: string; readonly reason: string };
  readonly activity: GatewayActivity | null;
  /** Epoch ms. */
  readonly connected_at: number;
}

export interface FriendView {
  readonly user: PlatformUser;
  readonly presence: {
    readonly status: PresenceStatus;
    readonly activities: readonly WireActivity[];
  };
}

export interface JoinRequestView {
  readonly id: string;
  readonly user: PlatformUser;
  readonly application_id: string;
  readonly channel_id: string;
  readonly message_id: string;
  /** Epoch ms. */
  readonly received_at: number;
}

export interface InviteView {
  readonly id: string;
  readonly user: PlatformUser;
  readonly application_id: string;
  /** The inviter's activity when the invite was sent (without secrets). */
  readonly activity: WireActivity | null;
  readonly channel_id: string;
  readonly message_id: string;
  /** Epoch ms. */
  readonly received_at: number;
  /** false once expired or once the inviter left that party. */
  readonly valid: boolean;
}

export interface SendInviteInput {
  readonly user_id: string;
  readonly application_id?: string;
  readonly content?: string;
}

export interface RequestToJoinInput {
  readonly user_id: string;
  readonly application_id?: string;
}

export type LoginInput = { readonly username: string } | { readonly token: string };

export interface ControlEvent {
  readonly type: string;
  readonly data: unknown;
}

/*
 * Presence routes (main/src/host/control/presence-routes.ts; the types live in
 * main/src/host/presence/presence-service.ts, presence-privacy.ts and relay-outcomes.ts). Times are epoch ms.
 *
 * GET /v1/presence → {
 *   policy: 'most-recent' | 'first-connected', pinned_application_id: string | null, hide_all: boolean,
 *   rules: {[application_id]: {mode: 'hide'} | {mode: 'redact', fields: ('details' | 'state' | 'party' | 'buttons' | 'assets' | 'timestamps')[]}},
 *   games: [{connection_id, application_id, application_name, shown (what friends see now), outcome: RelayOutcome | null}],
 *   recent_outcomes: RelayOutcome[] (oldest first, at most 200),
 *   announced_applications: [{application_id, application_name, at}] }
 * RelayOutcome: {connection_id, application_id, update (nth update of the connection), cause: 'command' | 'disconnect',
 *   cleared, at, kind} plus, by kind: 'sent' | 'unchanged' nothing; 'coalesced' {count}; 'held' {until, count};
 *   'shadowed' {by_application_id, by_connection_id}; 'hidden' {rule: 'hide-all' | 'app'};
 *   'rejected' {reason ('rate_limited'), retry_after_ms: number | null}.
 * PATCH /v1/presence/settings {policy?, pinned_application_id?: id | null, hide_all?, rules?: {[id]: {mode: 'share' | 'hide'}
 *   | {mode: 'redact', fields?} | null}} → the four settings fields. Rules merge per app (share or null removes one);
 *   unknown fields are a 400.
 * Events: presence-outcome (RelayOutcome), presence-announcement ({application_id, application_name, at}: an app's
 *   first activity ever, once per app across restarts), presence-settings (the four settings fields).
 */

/** An error the API answers with its own status and message (e.g. 404 unknown invite, 409 expired). */
export class ControlError extends Error {
  override readonly name = 'ControlError';

  constructor(
    readonly status: number,
    message: string,
    /** The `error` code in the JSON body; derived from the status when absent. */
    readonly code?: string,
  ) {
    super(message);
  }
}
