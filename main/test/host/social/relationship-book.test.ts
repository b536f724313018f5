import { describe, expect, it } from 'vitest';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { RelationshipBook } from '../../../src/host/social/relationship-book.js';

const user = (id: string, username: string): PlatformUser => ({ id, username, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 });
const BOB = user('2', 'bob');
const ZED = user('3', 'zed');
const EVE = user('4', 'eve');
const DAVE = user('5', 'dave');

function book(): { book: RelationshipBook; changes: () => number } {
  const created = new RelationshipBook();
  let count = 0;
  created.on('change', () => (count += 1));
  return { book: created, changes: () => count };
}

const kinds = (target: RelationshipBook): Record<string, string> => Object.fromEntries(target.list().map((entry) => [entry.user.username, entry.kind]));

describe('RelationshipBook: friend requests and blocks from the gateway session', () => {
  it("takes READY's requests and blocks, and leaves friends to FriendPresences", () => {
    const { book: target, changes } = book();
    target.dispatch('READY', {
      relationships: [
        { id: BOB.id, type: 1, user: BOB },
        { id: ZED.id, type: 3, user: ZED },
        { id: EVE.id, type: 4, user: EVE },
        { id: DAVE.id, type: 2, user: DAVE },
        { id: '9', type: 3 },
      ],
    });
    expect(kinds(target)).toEqual({ zed: 'incoming', eve: 'outgoing', dave: 'blocked' });
    expect(target.get(ZED.id)?.user).toEqual(ZED);
    expect(target.get(BOB.id)).toBeUndefined();
    expect(changes()).toBe(1);
    // A new session's READY replaces everything.
    target.dispatch('READY', { relationships: [] });
    expect(target.list()).toEqual([]);
  });

  it('follows RELATIONSHIP_ADD and RELATIONSHIP_REMOVE: a request, its acceptance, a block and its end', () => {
    const { book: target, changes } = book();
    target.dispatch('READY', { relationships: [] });
    target.dispatch('RELATIONSHIP_ADD', { id: ZED.id, type: 3, user: ZED });
    expect(kinds(target)).toEqual({ zed: 'incoming' });
    // Accepted: friends now (FriendPresences lists them), no longer pending.
    target.dispatch('RELATIONSHIP_ADD', { id: ZED.id, type: 1, user: ZED });
    expect(target.list()).toEqual([]);
    // Blocking a friend: the friendship's end, then the block.
    target.dispatch('RELATIONSHIP_REMOVE', { id: ZED.id, type: 1 });
    target.dispatch('RELATIONSHIP_ADD', { id: ZED.id, type: 2, user: ZED });
    expect(kinds(target)).toEqual({ zed: 'blocked' });
    // The end of another type of relationship leaves the block alone; the block's own end removes it.
    target.dispatch('RELATIONSHIP_REMOVE', { id: ZED.id, type: 4 });
    expect(kinds(target)).toEqual({ zed: 'blocked' });
    target.dispatch('RELATIONSHIP_REMOVE', { id: ZED.id, type: 2 });
    expect(target.list()).toEqual([]);
    expect(changes()).toBe(5);
  });

  it('ignores what is not a relationship and tells no change for nothing', () => {
    const { book: target, changes } = book();
    target.dispatch('RELATIONSHIP_ADD', { id: ZED.id, type: 3 });
    target.dispatch('RELATIONSHIP_ADD', null);
    target.dispatch('RELATIONSHIP_REMOVE', { id: 7 });
    target.dispatch('RELATIONSHIP_REMOVE', { id: ZED.id, type: 3 });
    target.dispatch('RELATIONSHIP_ADD', { id: BOB.id, type: 1, user: BOB });
    target.dispatch('PRESENCE_UPDATE', { user: ZED });
    target.clear();
    expect(target.list()).toEqual([]);
    expect(changes()).toBe(0);
    target.dispatch('RELATIONSHIP_ADD', { id: EVE.id, type: 4, user: EVE });
    target.clear();
    expect(target.list()).toEqual([]);
    expect(changes()).toBe(2);
  });
});
