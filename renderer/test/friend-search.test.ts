import { describe, expect, it } from 'vitest';
import { matchesFriendSearch } from '../src/lib/friend-search';

const user = (username: string, global_name: string | null) => ({ id: '1', username, discriminator: '0', global_name, avatar: null });

describe('issue 26 §12: the Friends search matches a name', () => {
  it('matches part of the display name or of the username, in any case, an @ before it dropped', () => {
    const rin = user('rin_42', 'Night Owl');
    expect(matchesFriendSearch(rin, 'owl')).toBe(true);
    expect(matchesFriendSearch(rin, 'NIGHT O')).toBe(true);
    expect(matchesFriendSearch(rin, 'rin')).toBe(true);
    expect(matchesFriendSearch(rin, '@rin_4')).toBe(true);
    expect(matchesFriendSearch(rin, 'bob')).toBe(false);
    expect(matchesFriendSearch(user('bob', null), 'bo')).toBe(true);
  });

  it('nothing typed (or spaces) matches everyone; full-width letters match their plain form', () => {
    expect(matchesFriendSearch(user('bob', 'Bob'), '')).toBe(true);
    expect(matchesFriendSearch(user('bob', 'Bob'), '   ')).toBe(true);
    expect(matchesFriendSearch(user('bob', 'Bob'), 'ｂｏｂ')).toBe(true);
  });
});
