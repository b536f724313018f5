import type { PlatformUser, PresenceStatus, WireActivity } from '../../../../platform/src/wire/index.js';
import type { GatewayActivity } from '../../../../rpc/src/index.js';
import type * as contract from '../../../../preload/src/contract.js';
import type { GrantView as ContractGrantView } from '../../../../preload/src/contract.js';
import type { DetectedGameListing } from '../detection/detection-service.js';
import type { DetectionDiagnosis } from '../../diagnostics/doctor/detection-section.js';

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
  /** Games found running by game detection (`detected: true`); absent on a host without it. */
  detectedGames?(): DetectedGameListing[];
  /** Why each running program is detected or not (`companion doctor`); absent on a host without detection. */
  detectionDiagnosis?(): Promise<DetectionDiagnosis>;
  friends(): FriendView[];
  /** Friend requests both ways and blocked users (friends: `friends()`), from the host's gateway session. */
  relationships(): RelationshipView[];
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

/*
 * The views are the contract's (preload/src/contract/views.ts), defined once. The control API
 * serves them with a few host-only fields on top (ids of the platform's messages, the full
 * platform user, the consent request's timing): those are the extensions below. The UI bridge
 * maps them back to the contract's shapes (main/src/host/ui-bridge/views.ts).
 */

export type { GatewayState } from '../../../../preload/src/contract.js';
/** A grant as the control API serves it; the UI's view adds the scopes in words. */
export type GrantView = Omit<ContractGrantView, 'descriptions'>;

/** One consent request as the control API serves it: the UI's view plus its timing and origin. Times are epoch ms. */
export interface ConsentPromptView extends contract.ConsentPromptView {
  readonly prompt: 'consent' | 'none' | null;
  readonly connection_id: string | null;
  readonly created_at: number;
  readonly visible_at: number | null;
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

export interface ControlAccount {
  readonly user: PlatformUser;
}

/** The status as the UI sees it, with the full platform user. */
export interface ControlStatus extends Omit<contract.StatusView, 'account'> {
  readonly account: ControlAccount | null;
}

/** A game as the UI sees it, with the activity the host holds (never with secrets). */
export interface GameView extends Omit<contract.GameView, 'activity'> {
  readonly activity: GatewayActivity | null;
}

export interface FriendView extends Omit<contract.FriendView, 'user' | 'presence'> {
  readonly user: PlatformUser;
  readonly presence: { readonly status: PresenceStatus; readonly activities: readonly WireActivity[] };
}

/** A friend request either way, or a block, with the full platform user. */
export interface RelationshipView extends Omit<contract.RelationshipView, 'user'> {
  readonly user: PlatformUser;
}

/** A join request with the platform message it came in. */
export interface JoinRequestView extends Omit<contract.JoinRequestView, 'user'> {
  readonly user: PlatformUser;
  readonly channel_id: string;
  readonly message_id: string;
}

/** An invite with the platform message it came in; `activity` is the inviter's, without secrets. */
export interface InviteView extends Omit<contract.InviteView, 'user' | 'activity'> {
  readonly user: PlatformUser;
  readonly activity: WireActivity | null;
  readonly channel_id: string;
  readonly message_id: string;
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
 *   games: [{connection_id, application_id, application_name, shown (what friends see now), outcome: RelayOutcome | null,
 *     friends_see: the activity as the relay sends it when this game is shown (redact rules applied) | null (hidden, or none)}],
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
