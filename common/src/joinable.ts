import { ActivityFlags } from './activity-flags.js';

/** The fields of a friend's activity (as the platform shows it to others) that say whether it can be joined. */
export interface JoinableFields {
  readonly application_id?: string;
  readonly party?: { readonly id?: string; readonly size?: readonly number[] };
  readonly flags?: number;
}

/**
 * How a friend's activity can be joined from here: 'join' at once (a public party), 'ask' (a
 * join request the friend's game answers), or null. The platform's rule, seen from the friend's
 * side where the join secret is not shown: a game, a party with an id, its size with a free
 * slot (or no maximum), and the JOIN flag the RPC server sets on an activity that has a join
 * secret. The UI offers the buttons by it and the host refuses a join request by it, before
 * asking the platform.
 */
export function joinability(activity: JoinableFields): 'join' | 'ask' | null {
  if (activity.application_id === undefined || activity.party?.id === undefined || activity.party.id === '') return null;
  const size = activity.party.size;
  if (size === undefined || size.length < 2) return null;
  const [current = 0, max = 0] = size;
  if (max !== 0 && current >= max) return null;
  const flags = activity.flags ?? 0;
  if ((flags & ActivityFlags.Join) === 0) return null;
  return (flags & ActivityFlags.PartyPrivacyFriends) !== 0 ? 'join' : 'ask';
}
