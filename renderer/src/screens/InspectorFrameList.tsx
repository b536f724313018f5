import { useCallback, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { VirtualList } from '../components/VirtualList';
import { formatClock, opcodeName } from '../lib/format';
import { gridTemplate, minRowWidth } from '../lib/frame-columns';
import { errorReply, type FrameRow } from '../store/frames';
import { FrameListHead, useColumnWidths } from './InspectorColumns';

const INSPECTOR_ROW_HEIGHT = 26;

const DIRECTION_LABELS: Readonly<Record<FrameRow['frame']['direction'], string>> = { in: '→ in', out: '← out', host: '• host' };

const NAVIGATION_KEYS: ReadonlySet<string> = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End']);

/** The row a navigation key moves the selection to (`selectedIndex` -1: none selected). */
function navigatedIndex(key: string, selectedIndex: number, count: number): number {
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return Math.min(count - 1, Math.max(0, (selectedIndex < 0 ? 0 : selectedIndex) + (key === 'ArrowDown' ? 1 : -1)));
}

/** Where the host dropped a connection's older rows (its ring keeps the opening and the newest). */
function DroppedMarker({ row }: { readonly row: FrameRow }): ReactNode {
  return (
    <div
      className="frame-row dropped-marker"
      role="note"
      title="The host keeps each connection's first rows and its newest ones; the rows between were dropped here (docs/qa-toolkit.md)"
      data-testid="inspector-dropped"
      data-connection={row.frame.connection_id}
      data-seq={row.frame.seq}
    >
      <span>{formatClock(row.frame.at)}</span>
      <span>⋯</span>
      <span title={row.frame.connection_id}>{row.frame.connection_id}</span>
      <span className="dropped-text">{row.frame.evt} here</span>
    </div>
  );
}

function InspectorRow({ row, selected, onSelect }: { readonly row: FrameRow; readonly selected: boolean; readonly onSelect: (seq: number) => void }): ReactNode {
  const { frame } = row;
  if (row.dropped !== undefined) return <DroppedMarker row={row} />;
  const error = errorReply(frame);
  return (
    <button
      type="button"
      className={`frame-row dir-${frame.direction}${selected ? ' selected' : ''}${error === null ? '' : ' error-reply'}`}
      aria-pressed={selected}
      onClick={() => onSelect(frame.seq)}
      data-testid="inspector-row"
      data-seq={frame.seq}
      data-direction={frame.direction}
    >
      <span>{formatClock(frame.at)}</span>
      <span>{DIRECTION_LABELS[frame.direction]}</span>
      <span title={frame.connection_id}>{frame.connection_id}</span>
      <span>{opcodeName(frame.opcode)}</span>
      <span>
        {frame.cmd ?? ''}
        {frame.lints !== undefined && frame.lints.length > 0 && (
          <span className="lint-badge" title={`${frame.lints.length} lint${frame.lints.length === 1 ? '' : 's'}`} data-testid="inspector-lint-badge">
            {' '}⚠ {frame.lints.length}
          </span>
        )}
      </span>
      <span>
        {frame.evt ?? ''}
        {error !== null && (
          <span className="error-code" title={error.message} data-testid="inspector-error-code">
            {' '}
            {error.code ?? '?'}
          </span>
        )}
        {row.decision !== undefined && row.decision !== null && (
          <span className="muted" data-testid="inspector-consent-decision">
            {' '}· {row.decision}
          </span>
        )}
      </span>
      <span title={frame.nonce ?? undefined}>{frame.nonce ?? ''}</span>
      <span data-testid="inspector-rtt">{row.rttMs === null ? '' : `${row.rttMs} ms`}</span>
    </button>
  );
}

export interface FrameListProps {
  /** Every frame held (live or of the opened recording); none: the list is replaced by a hint. */
  readonly total: number;
  /**
   * Whether any game has talked to the host yet. The host lists its own rows (gateway dispatches)
   * from its start; until a game comes, the hint says where frames come from, above them.
   */
  readonly anyGame: boolean;
  /** The frames the filter lets through. */
  readonly visible: readonly FrameRow[];
  readonly selectedSeq: number | null;
  /** The selected frame's index in `visible`, -1 when it is not there. */
  readonly selectedIndex: number;
  readonly followTail: boolean;
  readonly onSelect: (seq: number) => void;
}

/** The frames as a windowed list with a header; arrow keys, Home and End move the selection. */
export function InspectorFrameList({ total, anyGame, visible, selectedSeq, selectedIndex, followTail, onSelect }: FrameListProps): ReactNode {
  const renderRow = useCallback(
    (index: number): ReactNode => {
      const row = visible[index];
      if (row === undefined) return null;
      return <InspectorRow row={row} selected={row.frame.seq === selectedSeq} onSelect={onSelect} />;
    },
    [visible, selectedSeq, onSelect],
  );

  const [widths, resize] = useColumnWidths();
  // Every row follows the header's columns; they give up width down to their compact widths,
  // and the list scrolls sideways only when even those do not fit (800x600).
  const tableStyle = { '--frame-columns': gridTemplate(widths), ...(total === 0 ? {} : { minWidth: minRowWidth(widths) }) } as CSSProperties;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (!NAVIGATION_KEYS.has(event.key)) return;
    event.preventDefault();
    if (visible.length === 0) return;
    const row = visible[navigatedIndex(event.key, selectedIndex, visible.length)];
    if (row !== undefined) onSelect(row.frame.seq);
  };

  return (
    <div className="inspector-list" data-testid="inspector-scroll">
      <div className="frame-table" style={tableStyle}>
        <FrameListHead widths={widths} onResize={resize} />
        {!anyGame && <EmptyInspector />}
        {total > 0 && (
          <VirtualList
            count={visible.length}
            rowHeight={INSPECTOR_ROW_HEIGHT}
            renderRow={renderRow}
            followTail={followTail}
            revealIndex={selectedIndex < 0 ? null : selectedIndex}
            onKeyDown={onKeyDown}
            label="Frames"
            testId="inspector-list"
          />
        )}
      </div>
    </div>
  );
}

/** No frame yet: where frames come from, and the QA tools that make some. */
function EmptyInspector(): ReactNode {
  return (
    <div className="empty empty-hint" data-testid="inspector-empty">
      <p>No frames yet. Every frame a game and Companion exchange shows here, as it happens.</p>
      <ul>
        <li>
          Start a game that uses Rich Presence, or the fake game: <code>companion game --client-id ID</code>.
        </li>
        <li>
          Run a scripted flow against this host: <code>companion scenario run FILE</code>.
        </li>
        <li>
          Keep a whole session in a file from the start: <code>companion serve --record FILE</code>, then <code>companion replay FILE</code>.
        </li>
      </ul>
    </div>
  );
}
