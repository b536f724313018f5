import { describe, expect, it } from 'vitest';
import { KNOWN_USERS_MAX, KnownUsers } from '../../../src/host/presence/known-users.js';

const user = (id: string, username = `user${id}`) => ({ id, username, discriminator: '0', global_name: null, avatar: null, bot: false, flags: 0, premium_type: 0 });

describe('KnownUsers', () => {
  it('keeps the users of READY, relationships, DMs, messages and guild members; the newest data wins', () => {
    const users = new KnownUsers();
    users.dispatch('READY', {
      user: user('1', 'me'),
      relationships: [{ id: '2', type: 1, user: user('2', 'friend') }, { id: '3', type: 3, user: user('3', 'asker') }],
      private_channels: [{ id: '90', type: 1, recipients: [user('4', 'pen_pal')] }],
    });
    users.dispatch('MESSAGE_CREATE', { id: '91', channel_id: '90', author: user('5', 'author') });
    users.dispatch('GUILD_MEMBERS_CHUNK', { guild_id: '80', members: [{ user: user('6', 'member'), roles: [] }, { nope: true }] });
    users.dispatch('GUILD_MEMBER_UPDATE', { guild_id: '80', user: { id: '6', username: 'member', global_name: 'Member' } });
    users.dispatch('CHANNEL_CREATE', { id: '92', type: 1, recipients: [user('7', 'newcomer')] });
    users.dispatch('RELATIONSHIP_ADD', { id: '8', type: 1, user: user('8', 'new_friend') });
    users.dispatch('USER_UPDATE', { id: '1', username: 'me_renamed' });
    users.dispatch('PRESENCE_UPDATE', { user: { id: '99' }, status: 'online' });
    expect(['1', '2', '3', '4', '5', '6', '7', '8'].map((id) => users.get(id)?.username)).toEqual(['me_renamed', 'friend', 'asker', 'pen_pal', 'author', 'member', 'newcomer', 'new_friend']);
    // A partial update keeps what it did not say.
    expect(users.get('6')).toMatchObject({ global_name: 'Member', discriminator: '0' });
    expect(users.get('99')).toBeUndefined();
    users.clear();
    expect(users.size).toBe(0);
  });

  it(`keeps at most ${KNOWN_USERS_MAX}, dropping the one seen longest ago`, () => {
    const users = new KnownUsers();
    users.dispatch('GUILD_MEMBERS_CHUNK', { members: Array.from({ length: KNOWN_USERS_MAX }, (_, i) => ({ user: user(String(i)) })) });
    // Seen again: no longer the oldest.
    users.dispatch('MESSAGE_CREATE', { author: user('0') });
    users.dispatch('MESSAGE_CREATE', { author: user('new') });
    expect(users.size).toBe(KNOWN_USERS_MAX);
    expect(users.get('0')).toBeDefined();
    expect(users.get('1')).toBeUndefined();
    expect(users.get('new')).toBeDefined();
  });
});
