import { describe, expect, it } from 'vitest';
import type { PlatformMessage } from '../../../../platform/src/wire/index.js';
import { DmBook } from '../../../src/host/social/dm-book.js';

const ME = '1';
const FRIEND = '2';

function message(id: string, content: string, author = FRIEND): PlatformMessage {
  return { id, channel_id: 'dm', content, author: { id: author }, timestamp: '2026-11-26T10:00:00.000Z' } as unknown as PlatformMessage;
}

describe('DmBook', () => {
  it('keeps a friend\'s messages; an edit changes the content and marks the time; a deletion removes it; unknown ones change nothing', () => {
    const book = new DmBook();
    expect(book.add(message('10', 'gg'), ME)).toBe(true);
    expect(book.add(message('11', 'rematch?'), ME)).toBe(true);
    expect(book.update({ id: '10', channel_id: 'dm', content: 'gg wp', edited_timestamp: '2026-11-26T10:05:00.000Z' })).toBe(true);
    expect(book.update({ id: '10', channel_id: 'dm', content: 'gg wp' })).toBe(false);
    expect(book.update({ id: '99', channel_id: 'dm', content: 'x' })).toBe(false);
    expect(book.update({ id: '10', channel_id: 'other', content: 'x' })).toBe(false);
    const [conversation] = book.conversations();
    expect(conversation?.messages[0]).toMatchObject({ id: '10', content: 'gg wp', editedAt: Date.parse('2026-11-26T10:05:00.000Z') });
    expect(conversation?.messages[1]?.editedAt).toBeNull();
    expect(book.remove('10', 'dm')).toBe(true);
    expect(book.remove('10', 'dm')).toBe(false);
    expect(book.conversations()[0]?.messages.map((entry) => entry.id)).toEqual(['11']);
  });
});
