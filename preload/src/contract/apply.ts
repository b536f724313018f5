import type { TopicPush } from './channels.js';
import { RECENT_OUTCOMES, type HostData, type RelayOutcomeView } from './views.js';

/**
 * How a UI applies the host's pushes to the state it holds (the renderer's store, the desktop
 * shell's tray and notifications): pure functions, a new object each time.
 */

/** Replaces one topic; presence keeps the outcomes it has (they stream on their own). */
export function applyTopic(data: HostData, push: TopicPush): HostData {
  if (push.topic !== 'presence') return { ...data, [push.topic]: push.value };
  const presence = push.value;
  return { ...data, presence: presence === null ? null : { ...presence, recent_outcomes: data.presence?.recent_outcomes ?? [] } };
}

/** `presence.recent_outcomes` replaced by the host's list (an inspector's catch-up), keeping the newest RECENT_OUTCOMES. */
export function replaceOutcomes(data: HostData, outcomes: readonly RelayOutcomeView[]): HostData {
  if (data.presence === null) return data;
  return { ...data, presence: { ...data.presence, recent_outcomes: outcomes.slice(-RECENT_OUTCOMES) } };
}

/** Appends outcomes to `presence.recent_outcomes`, keeping the newest RECENT_OUTCOMES. */
export function appendOutcomes(data: HostData, outcomes: readonly RelayOutcomeView[]): HostData {
  if (data.presence === null || outcomes.length === 0) return data;
  const recent_outcomes = [...data.presence.recent_outcomes, ...outcomes].slice(-RECENT_OUTCOMES);
  return { ...data, presence: { ...data.presence, recent_outcomes } };
}
