import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { clampWidth, FRAME_COLUMNS, parseWidths, type ColumnWidths, type FrameColumn } from '../lib/frame-columns';
import type { SortKey } from '../lib/frame-columns';
import { useApp } from '../store/react';

const STORAGE_KEY = 'companion.inspector.columns';
/** Arrow keys on a column's edge move it by this much (Shift: four times as much). */
const KEY_STEP = 16;

function storedWidths(): ColumnWidths {
  try {
    return parseWidths(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    return parseWidths(null);
  }
}

/** The frame list's column widths, kept for the next visit (this browser's storage). */
export function useColumnWidths(): [ColumnWidths, (index: number, width: number) => void] {
  const [widths, setWidths] = useState<ColumnWidths>(storedWidths);
  const resize = useCallback((index: number, width: number) => {
    setWidths((current) => {
      const next = current.map((w, i) => (i === index ? clampWidth(index, width) : w));
      try {
        window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Storage refused (private mode): the widths hold until the page closes.
      }
      return next;
    });
  }, []);
  return [widths, resize];
}

/** A column's right edge: drag it, or focus it and use the arrow keys. */
function ColumnEdge({ column, index, width, onResize }: { readonly column: FrameColumn; readonly index: number; readonly width: number; readonly onResize: (index: number, width: number) => void }): ReactNode {
  const drag = useRef<{ readonly x: number; readonly width: number } | null>(null);
  // A column at its default width may be drawn narrower (the list gives it less): resizing starts from what is drawn.
  const drawn = (edge: HTMLSpanElement): number => Math.round(edge.parentElement?.getBoundingClientRect().width ?? width);
  const onPointerDown = (event: PointerEvent<HTMLSpanElement>): void => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width: drawn(event.currentTarget) };
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>): void => {
    if (drag.current !== null) onResize(index, drag.current.width + event.clientX - drag.current.x);
  };
  const onPointerUp = (): void => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>): void => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const step = (event.shiftKey ? 4 : 1) * KEY_STEP;
    onResize(index, drawn(event.currentTarget) + (event.key === 'ArrowRight' ? step : -step));
  };
  return (
    <span
      className="col-edge"
      role="separator"
      aria-orientation="vertical"
      aria-label={`Width of ${column.label}`}
      aria-valuenow={width}
      aria-valuemin={column.min}
      aria-valuemax={800}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      data-testid="inspector-column-edge"
      data-column={column.id}
    />
  );
}

const SORT_WORDS: Readonly<Record<SortKey, readonly [string, string]>> = {
  time: ['oldest first', 'newest first'],
  cmd: ['A to Z', 'Z to A'],
  rtt: ['fastest first', 'slowest first'],
};

/** A sortable column's name: a click sorts by it, a second click reverses. */
function SortButton({ column, sortKey }: { readonly column: FrameColumn; readonly sortKey: SortKey }): ReactNode {
  const sort = useApp((s) => s.filter.sort);
  const setFilter = useApp((s) => s.setFilter);
  const active = sort.key === sortKey;
  const words = SORT_WORDS[sortKey][active && sort.descending ? 1 : 0];
  return (
    <button
      type="button"
      className="col-sort"
      onClick={() => setFilter({ sort: { key: sortKey, descending: active ? !sort.descending : false } })}
      title={active ? `Sorted ${words}; click to reverse` : `Sort by ${column.label}`}
      data-testid="inspector-sort"
      data-column={column.id}
      data-sorted={active ? (sort.descending ? 'descending' : 'ascending') : 'no'}
    >
      {column.label}
      {active && <span aria-hidden="true">{sort.descending ? ' ▼' : ' ▲'}</span>}
      {active && <span className="visually-hidden">, sorted {words}</span>}
    </button>
  );
}

/** The frame list's header: column names (some sort the rows) and edges that resize the columns. */
export function FrameListHead({ widths, onResize }: { readonly widths: ColumnWidths; readonly onResize: (index: number, width: number) => void }): ReactNode {
  return (
    <div className="frame-row frame-head" role="group" aria-label="Columns">
      {FRAME_COLUMNS.map((column, index) => (
        <span key={column.id} className="frame-head-cell">
          {column.sort === undefined ? <span className="col-name">{column.label}</span> : <SortButton column={column} sortKey={column.sort} />}
          <ColumnEdge column={column} index={index} width={widths[index] ?? column.width} onResize={onResize} />
        </span>
      ))}
    </div>
  );
}
