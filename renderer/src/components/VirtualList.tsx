import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { computeWindow, isAtBottom, scrollTopToReveal } from '../lib/windowing';

export interface VirtualListProps {
  readonly count: number;
  /** Every row has this height, in px (the list positions rows from it). */
  readonly rowHeight: number;
  readonly renderRow: (index: number) => ReactNode;
  /** Extra rows above and below the viewport. */
  readonly overscan?: number;
  /** Keep the view pinned to the newest row while the user is at the bottom. */
  readonly followTail?: boolean;
  /** Row to keep in view (the selection). */
  readonly revealIndex?: number | null;
  readonly onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  readonly className?: string;
  readonly label: string;
  readonly testId?: string;
}

/**
 * A windowed list: a scroll container with one spacer as tall as all rows, and only the rows in
 * (or near) the viewport rendered, absolutely positioned. Fixed row height keeps the math exact
 * and scrolling O(visible rows) whatever the count.
 */
export function VirtualList(props: VirtualListProps): ReactNode {
  const { count, rowHeight, renderRow, overscan = 8, followTail = false, revealIndex = null } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(400);
  const pinnedRef = useRef(true);

  useLayoutEffect(() => {
    const element = containerRef.current;
    if (element === null) return undefined;
    setViewportHeight(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    const element = containerRef.current;
    if (element === null) return;
    pinnedRef.current = isAtBottom(element.scrollTop, element.clientHeight, element.scrollHeight, rowHeight / 2);
    setScrollTop(element.scrollTop);
  }, [rowHeight]);

  // New rows while pinned to the bottom: follow them.
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (element === null || !followTail || !pinnedRef.current) return;
    const bottom = Math.max(0, count * rowHeight - element.clientHeight);
    if (element.scrollTop !== bottom) {
      element.scrollTop = bottom;
      setScrollTop(bottom);
    }
  }, [count, rowHeight, followTail]);

  useEffect(() => {
    const element = containerRef.current;
    if (element === null || revealIndex === null || revealIndex < 0) return;
    const target = scrollTopToReveal(revealIndex, rowHeight, element.clientHeight, element.scrollTop);
    if (target !== null) {
      element.scrollTop = target;
      setScrollTop(target);
    }
  }, [revealIndex, rowHeight]);

  const range = computeWindow({ count, rowHeight, viewportHeight, scrollTop, overscan });
  const rows: ReactNode[] = [];
  for (let index = range.start; index < range.end; index += 1) {
    rows.push(
      <div key={index} className="vlist-row" role="listitem" aria-posinset={index + 1} aria-setsize={count} style={{ top: index * rowHeight, height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }
  return (
    <div
      ref={containerRef}
      className={`vlist ${props.className ?? ''}`}
      onScroll={onScroll}
      onKeyDown={props.onKeyDown}
      role="list"
      aria-label={props.label}
      data-testid={props.testId}
    >
      <div className="vlist-spacer" style={{ height: range.totalHeight }}>
        {rows}
      </div>
    </div>
  );
}
