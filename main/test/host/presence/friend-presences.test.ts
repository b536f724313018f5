import { describe, expect, it } from 'vitest';
import type { PlatformUser, PresenceUpdateEvent, ReadyEvent } from '../../../../platform/src/wire/index.js';
import { FriendPresences, type FriendChange } from '../../../src/host/presence/friend-presences.js';

function user(id: string, username: string): PlatformUser {
  return { id, username, discriminator: '0', global_name: username.toUpperCase(), avatar: null, bot: false, flags: 0, premium_type: 0 };
}

const BOB = user('200', 'bob');
const CAROL = user('300', 'carol');
const DAVE = user('400', 'dave');
const EVE = user('500', 'eve');

const PLAYING = { name: 'Demo Game', type: 0, application_id: '1234567890123456789', state: 'In a match' };

function presence(userId: string, status: PresenceUpdateEvent['status'], activities: PresenceUpdateEvent['activities'] = []): PresenceUpdateEvent {
  return { user: { id: userId }, status, activities, client_status: { desktop: status } };
}

function ready(): ReadyEvent {
  return {
    v: 10,
    user: user('100', 'alice'),
    session_id: 'session-1',
    resume_gateway_url: 'ws://127.0.0.1:1/gateway',
    relationships: [
      { id: BOB.id, type: 1, user: BOB },
      { id: CAROL.id, type: 1, user: CAROL },
      { id: DAVE.id, type: 1, user: DAVE },
      { id: EVE.id, type: 2, user: EVE }, // blocked: not a friend
    ],
    guilds: [],
    private_channels: [],
    presences: [presence(BOB.id, 'online', [PLAYING]), presence(CAROL.id, 'idle')],
  };
}

function setup() {
  const friends = new FriendPresences();
  const changes: FriendChange[] = [];
  friends.on('change', (change) => changes.push(change));
  return { friends, changes };
}

describe('FriendPresences', () => {
  it('builds the list from READY: every friend, offline when READY has no presence for them', () => {
    const { friends, changes } = setup();
    expect(friends.dispatch('READY', ready())).toBe(true);
    expect(friends.list()).toEqual([
      { user: BOB, presence: { status: 'online', activities: [PLAYING], client_status: { desktop: 'online' } } },
      { user: CAROL, presence: { status: 'idle', activities: [], client_status: { desktop: 'idle' } } },
      { user: DAVE, presence: { status: 'offline', activities: [], client_status: {} } },
    ]);
    expect(friends.get(EVE.id)).toBeUndefined();
    expect(changes).toEqual([{ kind: 'reset' }]);
  });

  it('applies PRESENCE_UPDATE; offline drops activities; non-friends and repeats are ignored', () => {
    const { friends, changes } = setup();
    friends.ready(ready());
    changes.length = 0;
    friends.dispatch('PRESENCE_UPDATE', presence(DAVE.id, 'dnd', [PLAYING]));
    expect(friends.get(DAVE.id)?.presence).toEqual({ status: 'dnd', activities: [PLAYING], client_status: { desktop: 'dnd' } });
    friends.dispatch('PRESENCE_UPDATE', presence(BOB.id, 'offline', [PLAYING]));
    expect(friends.get(BOB.id)).toEqual({ user: BOB, presence: { status: 'offline', activities: [], client_status: {} } });
    friends.dispatch('PRESENCE_UPDATE', presence(CAROL.id, 'invisible'));
    expect(friends.get(CAROL.id)?.presence.status).toBe('offline');
    friends.dispatch('PRESENCE_UPDATE', presence(EVE.id, 'online', [PLAYING]));
    expect(friends.get(EVE.id)).toBeUndefined();
    friends.dispatch('PRESENCE_UPDATE', presence(DAVE.id, 'dnd', [PLAYING]));
    expect(changes.map((c) => (c.kind === 'reset' ? c.kind : `${c.kind}:${c.userId}`))).toEqual([
      `presence:${DAVE.id}`,
      `presence:${BOB.id}`,
      `presence:${CAROL.id}`,
    ]);
    expect(friends.list()).toHaveLength(3); // offline friends stay in the list
  });

  it('adds and removes friends on RELATIONSHIP_ADD / RELATIONSHIP_REMOVE', () => {
    const { friends, changes } = setup();
    friends.ready(ready());
    changes.length = 0;
    friends.dispatch('RELATIONSHIP_ADD', { id: EVE.id, type: 1, user: EVE });
    expect(friends.get(EVE.id)).toEqual({ user: EVE, presence: { status: 'offline', activities: [], client_status: {} } });
    friends.dispatch('PRESENCE_UPDATE', presence(EVE.id, 'online', [PLAYING]));
    expect(friends.get(EVE.id)?.presence.activities).toEqual([PLAYING]);
    friends.dispatch('RELATIONSHIP_REMOVE', { id: BOB.id, type: 1 });
    expect(friends.get(BOB.id)).toBeUndefined();
    // A friend who becomes blocked arrives as RELATIONSHIP_ADD with another type.
    friends.dispatch('RELATIONSHIP_ADD', { id: CAROL.id, type: 2, user: CAROL });
    expect(friends.get(CAROL.id)).toBeUndefined();
    expect(friends.list().map((entry) => entry.user.id)).toEqual([DAVE.id, EVE.id]);
    expect(changes.map((c) => c.kind)).toEqual(['added', 'presence', 'removed', 'removed']);
  });

  it('ignores other dispatches and resets on a new READY or clear()', () => {
    const { friends } = setup();
    friends.ready(ready());
    expect(friends.dispatch('MESSAGE_CREATE', {})).toBe(false);
    friends.dispatch('READY', { ...ready(), relationships: [{ id: DAVE.id, type: 1, user: DAVE }], presences: [] });
    expect(friends.list()).toEqual([{ user: DAVE, presence: { status: 'offline', activities: [], client_status: {} } }]);
    friends.clear();
    expect(friends.list()).toEqual([]);
  });

  it('ignores guild-scoped presences', () => {
    const { friends } = setup();
    friends.ready(ready());
    friends.presenceUpdate({ ...presence(DAVE.id, 'online', [PLAYING]), guild_id: '900' });
    expect(friends.get(DAVE.id)?.presence.status).toBe('offline');
  });
});
