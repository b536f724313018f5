import { describe, expect, it } from 'vitest';
import { computeWindow, isAtBottom, scrollTopToReveal } from '../src/lib/windowing';

describe('computeWindow', () => {
  it('renders only the visible rows plus overscan', () => {
    const range = computeWindow({ count: 10_000, rowHeight: 20, viewportHeight: 400, scrollTop: 2_000, overscan: 5 });
    // Rows 100..119 are visible.
    expect(range).toEqual({ start: 95, end: 125, offsetTop: 95 * 20, totalHeight: 200_000 });
  });

  it('starts at the top without negative indexes', () => {
    expect(computeWindow({ count: 100, rowHeight: 20, viewportHeight: 100, scrollTop: 0, overscan: 3 })).toEqual({ start: 0, end: 8, offsetTop: 0, totalHeight: 2_000 });
  });

  it('clamps at the bottom and when scrolled past the end', () => {
    const bottom = computeWindow({ count: 100, rowHeight: 20, viewportHeight: 100, scrollTop: 1_900, overscan: 2 });
    expect(bottom).toMatchObject({ start: 93, end: 100 });
    expect(computeWindow({ count: 100, rowHeight: 20, viewportHeight: 100, scrollTop: 99_999, overscan: 2 })).toEqual(bottom);
  });

  it('handles a partially visible row', () => {
    expect(computeWindow({ count: 100, rowHeight: 20, viewportHeight: 50, scrollTop: 15, overscan: 0 })).toMatchObject({ start: 0, end: 4 });
  });

  it('shows every row of a list shorter than the viewport', () => {
    expect(computeWindow({ count: 3, rowHeight: 20, viewportHeight: 500, scrollTop: 0, overscan: 10 })).toEqual({ start: 0, end: 3, offsetTop: 0, totalHeight: 60 });
  });

  it('renders nothing for an empty list and survives bad input', () => {
    expect(computeWindow({ count: 0, rowHeight: 20, viewportHeight: 500, scrollTop: 40, overscan: 10 })).toEqual({ start: 0, end: 0, offsetTop: 0, totalHeight: 0 });
    const odd = computeWindow({ count: 10, rowHeight: 0, viewportHeight: Number.NaN, scrollTop: -50, overscan: -1 });
    expect(odd.start).toBe(0);
    expect(odd.end).toBeGreaterThanOrEqual(1);
    expect(odd.end).toBeLessThanOrEqual(10);
  });

  it('keeps the rendered count bounded for any scroll position in 10,000 rows', () => {
    for (let scrollTop = 0; scrollTop <= 10_000 * 26; scrollTop += 7_919) {
      const range = computeWindow({ count: 10_000, rowHeight: 26, viewportHeight: 600, scrollTop, overscan: 8 });
      expect(range.end - range.start).toBeLessThanOrEqual(Math.ceil(600 / 26) + 1 + 16);
      expect(range.start).toBeGreaterThanOrEqual(0);
      expect(range.end).toBeLessThanOrEqual(10_000);
    }
  });
});

describe('scrollTopToReveal and isAtBottom', () => {
  it('scrolls up or down just enough to show a row', () => {
    expect(scrollTopToReveal(5, 20, 100, 200)).toBe(100);
    expect(scrollTopToReveal(20, 20, 100, 200)).toBe(320);
    expect(scrollTopToReveal(12, 20, 100, 200)).toBeNull();
  });

  it('detects the bottom with some slack', () => {
    expect(isAtBottom(900, 100, 1_000)).toBe(true);
    expect(isAtBottom(897, 100, 1_000)).toBe(true);
    expect(isAtBottom(800, 100, 1_000)).toBe(false);
  });
});
