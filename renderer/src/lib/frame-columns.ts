/** What the frame list can be sorted by. */
export type SortKey = 'time' | 'cmd' | 'rtt';

/** One column of the inspector's frame list. */
export interface FrameColumn {
  readonly id: string;
  readonly label: string;
  /** Default width in px: wide enough for the column's usual values whole (a UUID nonce, SET_ACTIVITY). */
  readonly width: number;
  readonly min: number;
  /**
   * The narrowest the column gets, at its default width, when the list is narrower than every
   * default width: still wide enough for its usual values whole (a UUID nonce, SET_ACTIVITY with
   * a lint badge, ERROR 5000 with a consent decision, HANDSHAKE), so that at 1280x800 every column is whole
   * and in view (issue 26 §5). A column the player resized keeps its width.
   */
  readonly compact: number;
  /** The rows can be sorted by this column. */
  readonly sort?: SortKey;
}

export const FRAME_COLUMNS: readonly FrameColumn[] = [
  { id: 'time', label: 'Time', width: 104, min: 64, compact: 90, sort: 'time' },
  { id: 'dir', label: 'Dir', width: 56, min: 40, compact: 48 },
  { id: 'connection', label: 'Connection', width: 92, min: 40, compact: 76 },
  { id: 'op', label: 'Op', width: 88, min: 40, compact: 68 },
  { id: 'cmd', label: 'Cmd', width: 190, min: 60, compact: 128, sort: 'cmd' },
  { id: 'evt', label: 'Evt', width: 210, min: 48, compact: 204 },
  { id: 'nonce', label: 'Nonce', width: 292, min: 60, compact: 276 },
  { id: 'rtt', label: 'RTT', width: 72, min: 48, compact: 56, sort: 'rtt' },
];

export const MAX_COLUMN_WIDTH = 800;
/** Grid gap plus the row's side padding, in px (styles.css `.frame-row`). */
const COLUMN_GAP = 6;
const ROW_PADDING = 20;

export type ColumnWidths = readonly number[];

export function defaultWidths(): ColumnWidths {
  return FRAME_COLUMNS.map((column) => column.width);
}

/** `width` kept between the column's minimum and MAX_COLUMN_WIDTH. */
export function clampWidth(index: number, width: number): number {
  const min = FRAME_COLUMNS[index]?.min ?? 40;
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(min, width)));
}

/** The width a column can shrink to: its compact width while it has its default width, else its width. */
function shrinksTo(index: number, width: number): number {
  const column = FRAME_COLUMNS[index];
  return column !== undefined && width === column.width ? Math.min(column.compact, width) : width;
}

/**
 * The CSS grid columns of every row: a column at its default width takes what the list has,
 * between its compact and default widths (the grid grows the narrow ones first); a column the
 * player resized keeps its width.
 */
export function gridTemplate(widths: ColumnWidths): string {
  return widths
    .map((width, index) => {
      const least = shrinksTo(index, width);
      return least === width ? `${width}px` : `minmax(${least}px, ${width}px)`;
    })
    .join(' ');
}

/** How narrow a row can be with these columns (the list scrolls sideways below this: 800x600). */
export function minRowWidth(widths: ColumnWidths): number {
  return rowWidth(widths.map((width, index) => shrinksTo(index, width)));
}

/** How wide a row is with these columns (the list scrolls sideways when the window is narrower). */
export function rowWidth(widths: ColumnWidths): number {
  return widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP * (widths.length - 1) + ROW_PADDING;
}

/** Widths read back from storage: the defaults unless it holds one valid width per column. */
export function parseWidths(stored: string | null): ColumnWidths {
  if (stored === null) return defaultWidths();
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed) || parsed.length !== FRAME_COLUMNS.length || !parsed.every((w) => typeof w === 'number' && Number.isFinite(w))) return defaultWidths();
    return parsed.map((width: number, index) => clampWidth(index, width));
  } catch {
    return defaultWidths();
  }
}
