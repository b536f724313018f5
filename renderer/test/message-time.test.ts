import { describe, expect, it } from 'vitest';
import { formatMessageTime, isoTime } from '../src/lib/format';

describe("a message's time, as the client players know writes it", () => {
  const now = new Date(2026, 10, 28, 15, 30).getTime();
  const at = (day: number, hour: number, minute: number): number => new Date(2026, 10, day, hour, minute).getTime();
  const clock = (time: number): string => new Date(time).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });

  it('says "Today at" and "Yesterday at", and the date before that', () => {
    expect(formatMessageTime(at(28, 9, 5), now)).toBe(`Today at ${clock(at(28, 9, 5))}`);
    expect(formatMessageTime(at(27, 23, 59), now)).toBe(`Yesterday at ${clock(at(27, 23, 59))}`);
    const older = at(26, 8, 0);
    expect(formatMessageTime(older, now)).toBe(`${new Date(older).toLocaleDateString()} ${clock(older)}`);
  });

  it('across a month boundary, the 1st\'s yesterday is the last day of the month before', () => {
    const first = new Date(2026, 11, 1, 10, 0).getTime();
    expect(formatMessageTime(at(30, 22, 0), first)).toBe(`Yesterday at ${clock(at(30, 22, 0))}`);
  });

  it('a time that is not one is a dash, and has no dateTime', () => {
    expect(formatMessageTime(Number.NaN, now)).toBe('—');
    expect(isoTime(Number.NaN)).toBeUndefined();
    expect(isoTime(Date.UTC(2026, 10, 28, 12))).toBe('2026-11-28T12:00:00.000Z');
  });
});
