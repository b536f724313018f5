import { RECENT_OUTCOMES, type AppRuleView, type PresenceSettingsView, type PresenceView, type RelayOutcomeView } from '../../../../preload/src/contract.js';
import type { PresenceSettings } from '../presence/presence-privacy.js';
import type { PresenceView as HostPresenceView } from '../presence/presence-service.js';
import type { RelayOutcome } from '../presence/relay-outcomes.js';
import { activityView } from './views.js';

/** Outcomes a snapshot carries (the control API serves all 200). */
export const SNAPSHOT_OUTCOMES = RECENT_OUTCOMES;

export function relayOutcomeView(outcome: RelayOutcome): RelayOutcomeView {
  const base = {
    connection_id: outcome.connection_id,
    application_id: outcome.application_id,
    update: outcome.update,
    cause: outcome.cause,
    cleared: outcome.cleared,
    at: outcome.at,
  };
  switch (outcome.kind) {
    case 'coalesced':
      return { ...base, kind: outcome.kind, count: outcome.count };
    case 'held':
      return { ...base, kind: outcome.kind, until: outcome.until, count: outcome.count };
    case 'shadowed':
      return { ...base, kind: outcome.kind, by_application_id: outcome.by_application_id, by_connection_id: outcome.by_connection_id };
    case 'hidden':
      return { ...base, kind: outcome.kind, rule: outcome.rule };
    case 'rejected':
      return { ...base, kind: outcome.kind, reason: outcome.reason.slice(0, 256), retry_after_ms: outcome.retry_after_ms };
    default:
      return { ...base, kind: outcome.kind };
  }
}

export function presenceSettingsView(settings: PresenceSettings): PresenceSettingsView {
  const rules: Record<string, AppRuleView> = {};
  for (const [applicationId, rule] of Object.entries(settings.rules)) {
    if (rule.mode === 'hide') rules[applicationId] = { mode: 'hide' };
    else if (rule.mode === 'redact') rules[applicationId] = { mode: 'redact', fields: [...rule.fields] };
  }
  return { policy: settings.policy, pinned_application_id: settings.pinned_application_id, hide_all: settings.hide_all, rules };
}

export function presenceView(view: HostPresenceView): PresenceView {
  return {
    ...presenceSettingsView(view),
    games: view.games.map((game) => ({
      connection_id: game.connection_id,
      application_id: game.application_id,
      application_name: game.application_name.slice(0, 128),
      shown: game.shown,
      outcome: game.outcome === null ? null : relayOutcomeView(game.outcome),
      friends_see: activityView(game.friends_see),
    })),
    recent_outcomes: view.recent_outcomes.slice(-SNAPSHOT_OUTCOMES).map(relayOutcomeView),
    announced: view.announced_applications.map((app) => ({ application_id: app.application_id, application_name: app.application_name.slice(0, 128), at: app.at })),
  };
}
