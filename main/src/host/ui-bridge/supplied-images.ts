import type { ControlBackend } from '../control/control-backend.js';

/** The activity fields that name pictures the UI shows. */
const IMAGE_FIELDS = ['large_image', 'small_image'] as const;

function carries(activity: object | null | undefined, value: string): boolean {
  const assets = (activity as { readonly assets?: unknown } | null | undefined)?.assets;
  if (typeof assets !== 'object' || assets === null) return false;
  return IMAGE_FIELDS.some((field) => (assets as Record<string, unknown>)[field] === value);
}

/**
 * Whether an activity the host knows now carries `value` as one of its pictures: a running
 * game's, a friend's, an invite's. The image proxy fetches nothing else, so the UI (or a page
 * that got hold of its session) cannot make the host fetch an address of its choosing.
 */
export function suppliedImages(backend: Pick<ControlBackend, 'games' | 'friends' | 'invites'>): (value: string) => boolean {
  return (value) =>
    backend.games().some((game) => carries(game.activity, value)) ||
    backend.friends().some((friend) => friend.presence.activities.some((activity) => carries(activity, value))) ||
    backend.invites().some((invite) => carries(invite.activity, value));
}
