import type { Store } from '../state/store.js';

/**
 * After a merge moved a provisional account's relationships onto the full account (`into`),
 * each other user stands in one relationship with it **(ours: the platform's rule is not
 * public)**: a block (either way) beats everything, so a friendship or request between the two
 * goes (game ones went with the move); a friendship beats a pending request; requests both
 * ways become a friendship, as a request to someone who asked first accepts theirs; the same
 * request or block twice is one. The same for game relationships in each application.
 */
export function settleMergedRelationships(store: Store, into: string): void {
  for (const other of othersOf(store, into)) settlePair(store, into, other);
  settleGamePairs(store, into);
}

function othersOf(store: Store, userId: string): Set<string> {
  const others = new Set<string>();
  for (const [a, b] of [...store.friendRequests(), ...store.blocks()]) {
    if (a === userId) others.add(b);
    if (b === userId) others.add(a);
  }
  return others;
}

function settlePair(store: Store, a: string, b: string): void {
  const blocks = ([[a, b], [b, a]] as const).filter(([by, target]) => store.hasBlocked(by, target));
  const ab = store.hasFriendRequest(a, b);
  const ba = store.hasFriendRequest(b, a);
  // Each removal takes every copy of a pair; what stands is added back once.
  store.removeFriendRequest(a, b);
  store.removeFriendRequest(b, a);
  if (blocks.length > 0) {
    store.removeFriendship(a, b);
    for (const [by, target] of blocks) {
      store.setBlocked(by, target, false);
      store.setBlocked(by, target, true);
    }
    return;
  }
  if (store.areFriends(a, b)) return;
  if (ab && ba) store.addFriendship(a, b);
  else if (ab) store.addFriendRequest(a, b);
  else if (ba) store.addFriendRequest(b, a);
}

/** Game requests both ways in an application become a game friendship. */
function settleGamePairs(store: Store, userId: string): void {
  const records = store.gameRelationships;
  for (const [app, from, to] of [...records.requests()]) {
    if (from !== userId || !records.hasRequest(app, to, from)) continue;
    records.removeRequest(app, from, to);
    records.removeRequest(app, to, from);
    records.addFriendship(app, from, to);
  }
}
