import type { GatewayActivity } from '../../../../rpc/src/index.js';

/**
 * Whether others can join this activity: a party id, a size with a free slot (a max of 0
 * means no limit shown, so always room) and a join secret. The platform checks the same on
 * its side; checking here first gives the game a clear error without a round trip.
 */
export function isJoinable(activity: GatewayActivity | null | undefined): activity is GatewayActivity & { party: { id: string } } {
  if (activity === null || activity === undefined) return false;
  const party = activity.party;
  if (party?.id === undefined || party.id === '') return false;
  if (!activity.secrets?.join) return false;
  const size = party.size;
  if (size === undefined || size.length < 2) return false;
  const [current, max] = size as [number, number];
  return max === 0 || current < max;
}

export const NOT_JOINABLE_MESSAGE =
  'No eligible activity: set an activity with a party id, a party size with a free slot and a join secret first';
