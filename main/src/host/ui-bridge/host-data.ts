import type { HostData } from '../../../../preload/src/contract.js';
import type { WebUiSettings } from './host-settings.js';
import {
  consentPromptView,
  friendView,
  gameView,
  grantView,
  inviteView,
  joinRequestView,
  originDecisionView,
  originRequestView,
  relationshipView,
  settingsView,
  statusView,
} from './views.js';
import type { WebUiBackend } from './web-ui-backend.js';

/**
 * The host's state as the UI sees it (the snapshot without frames), read from the backend in
 * the contract's shapes: after the grants (the one asynchronous read), everything in one
 * synchronous step, so the state is of one moment. `recentOutcomes` limits the presence's
 * recent outcomes (default the snapshot's count): a topic round, which pushes presence without
 * them, reads none.
 */
export async function readHostData(backend: WebUiBackend, settings: WebUiSettings, recentOutcomes?: number): Promise<HostData> {
  const grants = await backend.grants();
  return {
    status: statusView(backend.status()),
    games: backend.games().map(gameView),
    friends: backend.friends().map(friendView),
    relationships: backend.relationships().map(relationshipView),
    join_requests: backend.joinRequests().map(joinRequestView),
    invites: backend.invites().map(inviteView),
    conversations: backend.conversations(),
    consent_requests: backend.consentRequests().map(consentPromptView),
    grants: grants.map(grantView),
    origin_requests: backend.originRequests().map(originRequestView),
    origins: backend.originDecisions().map(originDecisionView),
    presence: backend.presence(recentOutcomes),
    recording: backend.recording(),
    settings: settingsView(settings.get()),
    detection: backend.detection?.() ?? null,
    voice: backend.voice?.() ?? null,
  };
}
