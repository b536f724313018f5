import type { UserView } from '../../../preload/src/contract';

/** A name as the search compares it: compatibility-folded, lower case, trimmed. */
function fold(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase().trim();
}

/**
 * Whether a user matches what the player typed in the Friends search: part of their display name
 * or of their username, in any case (an `@` before it is dropped, as in Add friend). Nothing
 * typed matches everyone.
 */
export function matchesFriendSearch(user: UserView, query: string): boolean {
  const wanted = fold(query).replace(/^@/, '');
  if (wanted === '') return true;
  return [user.username, user.global_name ?? ''].some((name) => fold(name).includes(wanted));
}
