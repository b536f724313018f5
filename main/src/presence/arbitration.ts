import type { GatewayActivity } from '../../../rpc/src/index.js';

/** A game's current activity as the relay holds it: one per RPC connection with an activity. */
export interface LiveActivity {
  readonly connectionId: string;
  readonly applicationId: string;
  readonly activity: GatewayActivity;
  /** When the connection last set this activity (the relay's clock, ms). */
  readonly updatedAt: number;
  readonly pid: number | null;
}

/**
 * Chooses the one game activity the platform shows, from every connection's live activity.
 * Candidates come in connection order: the order in which connections set their activity
 * (a connection that clears and sets again counts as later). undefined: show none.
 */
export type ArbitrationPolicy = (candidates: readonly LiveActivity[]) => LiveActivity | undefined;

/** Default policy: the activity updated last; on equal times the later connection wins. */
export const mostRecentlyUpdated: ArbitrationPolicy = (candidates) => {
  let winner: LiveActivity | undefined;
  for (const candidate of candidates) {
    // `>=` so that a later candidate with the same time replaces an earlier one.
    if (winner === undefined || candidate.updatedAt >= winner.updatedAt) winner = candidate;
  }
  return winner;
};
