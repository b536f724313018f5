/** What the frame list can be sorted by. */
export type SortKey = 'time' | 'cmd' | 'rtt';

/** One column of the inspector's frame list. */
export interface FrameColumn {
  readonly id: string;
  readonly label: string;
  /** Default width in px: wide enough for the column's usual values whole (a UUID nonce, SET_ACTIVITY). */
  readonly width: number;
  readonly min: number;
  /** The rows can be sorted by this column. */
  readonly sort?: SortKey;
}

export const FRAME_COLUMNS: readonly FrameColumn[] = [
  { id: 'time', label: 'Time', width: 104, min: 64, sort: 'time' },
  { id: 'dir', label: 'Dir', width: 56, min: 40 },
  { id: 'connection', label: 'Connection', width: 92, min: 40 },
  { id: 'op', label: 'Op', width: 88, min: 40 },
  { id: 'cmd', label: 'Cmd', width: 190, min: 60, sort: 'cmd' },
  { id: 'evt', label: 'Evt', width: 190, min: 48 },
  { id: 'nonce', label: 'Nonce', width: 292, min: 60 },
  { id: 'rtt', label: 'RTT', width: 72, min: 48, sort: 'rtt' },
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

/** The CSS grid columns of every row. */
export function gridTemplate(widths: ColumnWidths): string {
  return widths.map((width) => `${width}px`).join(' ');
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
