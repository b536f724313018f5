/** Windowing math for a fixed-row-height virtual list (pure, unit-tested). */

export interface WindowInput {
  readonly count: number;
  readonly rowHeight: number;
  readonly viewportHeight: number;
  readonly scrollTop: number;
  /** Extra rows rendered above and below the visible ones. */
  readonly overscan: number;
}

export interface WindowRange {
  /** First rendered index (inclusive). */
  readonly start: number;
  /** Last rendered index (exclusive). */
  readonly end: number;
  /** Offset of row `start` from the top of the content, in px. */
  readonly offsetTop: number;
  /** Height of the whole content (all rows), in px. */
  readonly totalHeight: number;
}

export function computeWindow({ count, rowHeight, viewportHeight, scrollTop, overscan }: WindowInput): WindowRange {
  const rows = Math.max(0, Math.floor(count));
  const height = rowHeight > 0 && Number.isFinite(rowHeight) ? rowHeight : 1;
  const totalHeight = rows * height;
  if (rows === 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const viewport = Math.max(0, Number.isFinite(viewportHeight) ? viewportHeight : 0);
  const extra = Math.max(0, Math.floor(overscan));
  const maxScroll = Math.max(0, totalHeight - viewport);
  const top = Math.min(Math.max(0, Number.isFinite(scrollTop) ? scrollTop : 0), maxScroll);
  const firstVisible = Math.min(rows - 1, Math.floor(top / height));
  const lastVisible = Math.min(rows, Math.ceil((top + viewport) / height));
  const start = Math.max(0, firstVisible - extra);
  const end = Math.min(rows, Math.max(lastVisible, firstVisible + 1) + extra);
  return { start, end, offsetTop: start * height, totalHeight };
}

/** The scrollTop that brings row `index` fully into view, or null when it already is. */
export function scrollTopToReveal(index: number, rowHeight: number, viewportHeight: number, scrollTop: number): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return null;
}

/** Whether a scroll position is at (or within `slack` px of) the bottom. */
export function isAtBottom(scrollTop: number, viewportHeight: number, totalHeight: number, slack = 4): boolean {
  return scrollTop + viewportHeight >= totalHeight - slack;
}
