import { useDeferredValue, useEffect, useMemo, type ReactNode } from 'react';
import { INSPECTOR_RENEW_MS, type RelayOutcomeView } from '../../../preload/src/contract';
import { formatClock, relayOutcomeText } from '../lib/format';
import { connectionIds, facetValues, filterRows, sortRows, type FrameRow } from '../store/frames';
import { useApp } from '../store/react';
import { InspectorChips } from './InspectorChips';
import { InspectorFrameDetail } from './InspectorFrameDetail';
import { InspectorFrameList } from './InspectorFrameList';
import { OpenedRecordingBanner } from './InspectorRecording';
import { InspectorToolbar } from './InspectorToolbar';

interface InspectorView {
  /** Live frames, or the opened recording's. */
  readonly frames: readonly FrameRow[];
  readonly visible: readonly FrameRow[];
  readonly connections: readonly string[];
  /** The chips offered: the directions, opcodes and commands present. */
  readonly facets: ReturnType<typeof facetValues>;
  readonly selectedSeq: number | null;
  readonly selectedIndex: number;
  readonly selected: FrameRow | undefined;
  /** The reply to the selected frame, if it has one. */
  readonly reply: FrameRow | undefined;
}

/** The frames shown, filtered, and the selection among them. */
function useInspectorView(): InspectorView {
  const liveFrames = useApp((s) => s.frames);
  const opened = useApp((s) => s.recording);
  const frames = opened?.rows ?? liveFrames;
  const filter = useApp((s) => s.filter);
  const selectedSeq = useApp((s) => s.selectedSeq);
  // Typing stays responsive with 10,000 rows: the list filters with the deferred text.
  const deferredText = useDeferredValue(filter.text);
  const visible = useMemo(
    () => sortRows(filterRows(frames, { connectionId: filter.connectionId, text: deferredText, chips: filter.chips }), filter.sort),
    [frames, filter.connectionId, deferredText, filter.chips, filter.sort],
  );
  const connections = useMemo(() => connectionIds(frames), [frames]);
  const facets = useMemo(() => facetValues(frames), [frames]);
  const selectedIndex = useMemo(() => (selectedSeq === null ? -1 : visible.findIndex((row) => row.frame.seq === selectedSeq)), [visible, selectedSeq]);
  const selected = useMemo(() => (selectedSeq === null ? undefined : frames.find((row) => row.frame.seq === selectedSeq)), [frames, selectedSeq]);
  const reply = useMemo(() => (selected === undefined ? undefined : frames.find((row) => row.pairSeq === selected.frame.seq)), [frames, selected]);
  return { frames, visible, connections, facets, selectedSeq, selectedIndex, selected, reply };
}

function eventCount(rows: readonly FrameRow[]): number {
  let count = 0;
  for (const row of rows) if (row.frame.direction === 'host' && row.dropped === undefined) count += 1;
  return count;
}

export function InspectorScreen(): ReactNode {
  const { frames, visible, connections, facets, selectedSeq, selectedIndex, selected, reply } = useInspectorView();
  const anyGame = useMemo(() => connections.some((id) => id !== 'host'), [connections]);
  const sort = useApp((s) => s.filter.sort);
  const heldCount = useApp((s) => s.held.length);
  const paused = useApp((s) => s.paused);
  const dropped = useApp((s) => s.droppedFrames);
  const cap = useApp((s) => s.frameCap);
  const selectFrame = useApp((s) => s.selectFrame);
  const watchInspector = useApp((s) => s.watchInspector);
  // While on screen, the host pushes frames (it keeps them in its ring otherwise).
  useEffect(() => {
    void watchInspector();
    const timer = setInterval(() => void watchInspector(), INSPECTOR_RENEW_MS);
    return () => clearInterval(timer);
  }, [watchInspector]);

  return (
    <section aria-labelledby="inspector-title" className="inspector">
      <h1 id="inspector-title">Inspector</h1>
      <InspectorToolbar connections={connections} visible={visible} />
      <InspectorChips values={facets} />
      <OpenedRecordingBanner />
      <p className="muted" data-testid="inspector-count" aria-live="polite">
        {visible.length} of {frames.length} rows ({eventCount(frames)} host events){paused ? `, paused (${heldCount} held)` : ''}
        {dropped > 0 ? `, ${dropped} oldest dropped (keeps ${cap.toLocaleString()})` : ''}
      </p>
      <RelayOutcomes />
      <div className="inspector-body">
        <InspectorFrameList
          total={frames.length}
          anyGame={anyGame}
          visible={visible}
          selectedSeq={selectedSeq}
          selectedIndex={selectedIndex}
          followTail={!paused && sort.key === 'time' && !sort.descending}
          onSelect={selectFrame}
        />
        <InspectorFrameDetail selected={selected} reply={reply} />
      </div>
    </section>
  );
}

/** An opened recording's relay outcomes: its `relay` rows' outcomes, in order. */
function recordedOutcomes(rows: readonly FrameRow[]): RelayOutcomeView[] {
  const outcomes: RelayOutcomeView[] = [];
  for (const row of rows) {
    if (row.frame.direction !== 'host' || row.frame.cmd !== 'relay') continue;
    const outcome = (row.frame.payload as { outcome?: unknown } | null)?.outcome;
    if (typeof outcome !== 'object' || outcome === null) continue;
    const fields = outcome as Record<string, unknown>;
    if (typeof fields['kind'] !== 'string' || typeof fields['update'] !== 'number' || typeof fields['at'] !== 'number' || typeof fields['connection_id'] !== 'string') continue;
    outcomes.push(outcome as RelayOutcomeView);
  }
  return outcomes;
}

/**
 * The presence relay's latest outcomes (what became of each game update), newest first: the
 * live host's, or while a recording is open, the recording's own (never the live ones beside it).
 */
function RelayOutcomes(): ReactNode {
  const live = useApp((s) => s.data?.presence?.recent_outcomes);
  const opened = useApp((s) => s.recording);
  const recorded = useMemo(() => (opened === null ? null : recordedOutcomes(opened.rows)), [opened]);
  const outcomes = recorded ?? live;
  if (outcomes === undefined || outcomes.length === 0) return null;
  return (
    <details className="relay-outcomes" data-testid="inspector-relay" data-source={recorded === null ? 'live' : 'recording'}>
      <summary>
        Presence relay{recorded === null ? '' : ` in ${opened?.file.name ?? 'the recording'}`}: {outcomes.length} {recorded === null ? 'recent ' : ''}update {outcomes.length === 1 ? 'outcome' : 'outcomes'}
      </summary>
      <ol reversed>
        {[...outcomes].reverse().slice(0, 20).map((outcome) => (
          <li key={`${outcome.connection_id}:${outcome.update}:${outcome.kind}:${outcome.at}`} data-testid="inspector-relay-outcome">
            <span className="muted">{formatClock(outcome.at)}</span> {outcome.connection_id} update {outcome.update}: {relayOutcomeText(outcome)}
          </li>
        ))}
      </ol>
    </details>
  );
}
