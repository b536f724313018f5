import type { GatewayActivity } from '../../../../rpc/src/index.js';
import { hiddenBy, type ArbitrationPolicyName, type PresenceSettings } from './presence-privacy.js';

/** A game's current activity as the relay holds it: one per RPC connection with an activity. */
export interface LiveActivity {
  readonly connectionId: string;
  readonly applicationId: string;
  readonly activity: GatewayActivity;
  /** When the connection last set this activity (the relay's clock, ms). */
  readonly updatedAt: number;
  readonly pid: number | null;
  /** When the game's RPC connection was established (epoch ms); absent when not known. */
  readonly connectedAt?: number;
  /** Counts the relay's updates: orders updates made in the same millisecond. */
  readonly updateSeq?: number;
}

/**
 * Chooses the one game activity the platform shows, from every connection's live activity.
 * Candidates come in connection order: the order in which connections set their activity
 * (a connection that clears and sets again counts as later). undefined: show none.
 */
export type ArbitrationPolicy = (candidates: readonly LiveActivity[]) => LiveActivity | undefined;

/**
 * Default policy: the activity updated last. On equal times (the same millisecond) the later
 * update wins (`updateSeq`), else the later candidate.
 */
export const mostRecentlyUpdated: ArbitrationPolicy = (candidates) => {
  let winner: LiveActivity | undefined;
  for (const candidate of candidates) {
    if (
      winner === undefined ||
      candidate.updatedAt > winner.updatedAt ||
      (candidate.updatedAt === winner.updatedAt && (candidate.updateSeq ?? 0) >= (winner.updateSeq ?? 0))
    ) {
      winner = candidate;
    }
  }
  return winner;
};

/**
 * The game that connected first, among those with an activity. A candidate without a known
 * connection time counts by its connection order, after those with one.
 */
export const firstConnected: ArbitrationPolicy = (candidates) => {
  let winner: LiveActivity | undefined;
  for (const candidate of candidates) {
    if (winner === undefined) winner = candidate;
    else if (candidate.connectedAt !== undefined && (winner.connectedAt === undefined || candidate.connectedAt < winner.connectedAt)) winner = candidate;
  }
  return winner;
};

export const POLICIES: Readonly<Record<ArbitrationPolicyName, ArbitrationPolicy>> = {
  'most-recent': mostRecentlyUpdated,
  'first-connected': firstConnected,
};

/**
 * The activity the platform is to show under the player's settings: none with hide-all;
 * otherwise among the apps not hidden, the pinned app's when it has one, else `policy`'s
 * choice (`policy` defaults to the settings' policy).
 */
export function chooseShown(candidates: readonly LiveActivity[], settings: PresenceSettings, policy: ArbitrationPolicy = POLICIES[settings.policy]): LiveActivity | undefined {
  if (settings.hide_all) return undefined;
  const pinnedId = settings.pinned_application_id;
  // The common case (no rules, no pin) allocates nothing.
  const visible = hasRules(settings) ? candidates.filter((c) => hiddenBy(settings, c.applicationId) === undefined) : candidates;
  if (pinnedId !== null) {
    const pinned = visible.filter((candidate) => candidate.applicationId === pinnedId);
    if (pinned.length > 0) return policy(pinned);
  }
  return policy(visible);
}

/**
 * Whether the shown activity is simply the one updated last: the default policy with no pin,
 * no per-app rule and nothing hidden. The relay then knows the winner of an update without
 * looking at the other games (the hot path of SET_ACTIVITY).
 */
export function isPlainMostRecent(settings: PresenceSettings, policy: ArbitrationPolicy = POLICIES[settings.policy]): boolean {
  return policy === mostRecentlyUpdated && !settings.hide_all && settings.pinned_application_id === null && !hasRules(settings);
}

function hasRules(settings: PresenceSettings): boolean {
  for (const key in settings.rules) if (Object.hasOwn(settings.rules, key)) return true;
  return false;
}
