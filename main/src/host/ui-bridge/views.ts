import type {
  ActivityView,
  ConsentPromptView,
  DeviceCodePreviewView,
  FriendView,
  GameView,
  GrantView,
  InviteView,
  JoinRequestView,
  OriginDecisionView,
  OriginRequestView,
  RelationshipView,
  SettingsView,
  StatusView,
  UserView,
} from '../../../../preload/src/contract.js';
import { expandScopes, type DeviceVerifyPreview } from '../../../../platform/src/wire/index.js';
import { describeScopes } from '../auth/consent-broker.js';
import type * as control from '../control/control-backend.js';

/**
 * The control API's views (the contract's plus host-only fields) cut back to the contract's:
 * only what the contract names reaches the UI (no channel or message ids, no extra user
 * fields), untrusted text is bounded, and activities lose any `secrets` object on the way,
 * whatever the backend handed over.
 */

/** Only the contract's user fields (a platform user has more). */
export function userView(user: UserView): UserView {
  return { id: user.id, username: user.username, discriminator: user.discriminator, global_name: user.global_name, avatar: user.avatar };
}

/** An activity from a game or a friend, as shown: untrusted text, never join secrets. */
export function activityView(activity: object | null | undefined): ActivityView | null {
  if (activity === null || activity === undefined) return null;
  const { secrets: _secrets, ...rest } = activity as Record<string, unknown>;
  return rest as ActivityView;
}

export function statusView(status: control.ControlStatus): StatusView {
  return {
    version: status.version,
    account: status.account === null ? null : { user: userView(status.account.user) },
    gateway: { status: status.gateway.status, detail: status.gateway.detail },
    ipc: status.ipc === null ? null : { path: status.ipc.path },
    websocket: status.websocket === null ? null : { port: status.websocket.port },
    platform: { url: status.platform.url, embedded: status.platform.embedded },
  };
}

export function gameView(game: control.GameView): GameView {
  return {
    connection_id: game.connection_id,
    client_id: game.client_id,
    application_name: game.application_name,
    pid: game.pid,
    transport: game.transport.slice(0, 32),
    client_library: { library: game.client_library.library.slice(0, 64), reason: game.client_library.reason.slice(0, 256) },
    activity: activityView(game.activity),
    connected_at: game.connected_at,
    link_requests: game.link_requests,
  };
}

export function friendView(friend: control.FriendView): FriendView {
  return {
    user: userView(friend.user),
    presence: {
      status: friend.presence.status,
      activities: friend.presence.activities.map((activity) => activityView(activity)).filter((activity): activity is ActivityView => activity !== null),
    },
  };
}

export function relationshipView(relationship: control.RelationshipView): RelationshipView {
  return { user: userView(relationship.user), type: relationship.type };
}

export function joinRequestView(request: control.JoinRequestView): JoinRequestView {
  return { id: request.id, user: userView(request.user), application_id: request.application_id, received_at: request.received_at };
}

export function inviteView(invite: control.InviteView): InviteView {
  return {
    id: invite.id,
    user: userView(invite.user),
    application_id: invite.application_id,
    activity: activityView(invite.activity),
    content: invite.content.slice(0, 1024),
    received_at: invite.received_at,
    expires_at: invite.expires_at,
    valid: invite.valid,
  };
}

export function consentPromptView(request: control.ConsentPromptView): ConsentPromptView {
  return {
    id: request.id,
    application: { id: request.application.id, name: request.application.name, icon: request.application.icon, verified: request.application.verified },
    scopes: [...request.scopes],
    expanded_scopes: [...request.expanded_scopes],
    descriptions: request.descriptions.map(({ scope, text }) => ({ scope, text })),
    integration_type: request.integration_type,
    state: request.state,
    expires_at: request.expires_at,
  };
}

export function grantView(grant: control.GrantView): GrantView {
  return {
    id: grant.id,
    application: { id: grant.application.id, name: grant.application.name, icon: grant.application.icon },
    scopes: [...grant.scopes],
    descriptions: describeScopes(grant.scopes).map(({ scope, text }) => ({ scope, text })),
    integration_type: grant.integration_type,
    created_at: grant.created_at,
  };
}

/** What a device flow's user code asks, with the scopes in the consent prompt's words (umbrellas such as sdk.social_layer expanded, as it shows them). */
export function deviceCodePreviewView(preview: DeviceVerifyPreview): DeviceCodePreviewView {
  return {
    user_code: preview.user_code,
    application: { id: preview.application.id, name: preview.application.name, icon: preview.application.icon },
    scopes: [...preview.scopes],
    descriptions: describeScopes(expandScopes(preview.scopes)).map(({ scope, text }) => ({ scope, text })),
  };
}

export function settingsView(settings: SettingsView): SettingsView {
  return {
    consent_policy: settings.consent_policy,
    consent_always_ask: settings.consent_always_ask,
    log_level: settings.log_level,
    start_at_login: settings.start_at_login,
  };
}

/** Origins come from a page's header: kept as the host normalised them, bounded like other untrusted text. */
export function originRequestView(request: OriginRequestView): OriginRequestView {
  return {
    id: request.id,
    origin: request.origin.slice(0, 256),
    client_id: request.client_id,
    application_name: request.application_name === null ? null : request.application_name.slice(0, 128),
    created_at: request.created_at,
    last_attempt_at: request.last_attempt_at,
    attempts: request.attempts,
  };
}

export function originDecisionView(decision: OriginDecisionView): OriginDecisionView {
  return {
    id: decision.id,
    origin: decision.origin.slice(0, 256),
    client_id: decision.client_id,
    application_name: decision.application_name === null ? null : decision.application_name.slice(0, 128),
    decision: decision.decision,
    decided_at: decision.decided_at,
  };
}
