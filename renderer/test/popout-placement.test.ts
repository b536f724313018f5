import { describe, expect, it } from 'vitest';
import { placePopout } from '../src/screens/use-popout';

const rect = (left: number, top: number, width: number, height: number): DOMRect =>
  ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) }) as DOMRect;
const size = { width: 340, height: 300 };

describe('issue 26 §12: the profile popout stays inside the window', () => {
  it('goes under its trigger where there is room, lined up with its left edge', () => {
    expect(placePopout(rect(200, 100, 300, 40), size, { width: 1280, height: 800 })).toEqual({ top: 148, left: 200 });
  });

  it('goes over the trigger near the bottom, and moves left at the right edge', () => {
    expect(placePopout(rect(1100, 700, 160, 40), size, { width: 1280, height: 800 })).toEqual({ top: 392, left: 932 });
  });

  it('in a window too short for either, it is kept inside from the top', () => {
    expect(placePopout(rect(10, 150, 100, 40), { width: 340, height: 500 }, { width: 800, height: 520 })).toEqual({ top: 12, left: 10 });
  });
});
