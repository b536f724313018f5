import { useCallback, useDeferredValue, useMemo, useRef, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react';
import { VirtualList } from '../components/VirtualList';
import { formatClock, opcodeName, relayOutcomeText } from '../lib/format';
import { connectionIds, exportRows, filterRows, type FrameRow } from '../store/frames';
import { useApp } from '../store/react';

export const INSPECTOR_ROW_HEIGHT = 26;

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Saves `text` as a file through the browser (the renderer has no file system access). */
function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function InspectorScreen(): ReactNode {
  const liveFrames = useApp((s) => s.frames);
  const opened = useApp((s) => s.recording);
  const frames = opened?.rows ?? liveFrames;
  const heldCount = useApp((s) => s.held.length);
  const paused = useApp((s) => s.paused);
  const dropped = useApp((s) => s.droppedFrames);
  const cap = useApp((s) => s.frameCap);
  const filter = useApp((s) => s.filter);
  const selectedSeq = useApp((s) => s.selectedSeq);
  const setFilter = useApp((s) => s.setFilter);
  const setPaused = useApp((s) => s.setPaused);
  const selectFrame = useApp((s) => s.selectFrame);
  const clearFrames = useApp((s) => s.clearFrames);

  // Typing stays responsive with 10,000 rows: the list filters with the deferred text.
  const deferredText = useDeferredValue(filter.text);
  const visible = useMemo(() => filterRows(frames, { connectionId: filter.connectionId, text: deferredText }), [frames, filter.connectionId, deferredText]);
  const connections = useMemo(() => connectionIds(frames), [frames]);
  const selectedIndex = useMemo(() => (selectedSeq === null ? -1 : visible.findIndex((row) => row.frame.seq === selectedSeq)), [visible, selectedSeq]);
  const selected = useMemo(() => (selectedSeq === null ? undefined : frames.find((row) => row.frame.seq === selectedSeq)), [frames, selectedSeq]);
  const reply = useMemo(() => (selected === undefined ? undefined : frames.find((row) => row.pairSeq === selected.frame.seq)), [frames, selected]);

  const renderRow = useCallback(
    (index: number): ReactNode => {
      const row = visible[index];
      if (row === undefined) return null;
      return <InspectorRow row={row} selected={row.frame.seq === selectedSeq} onSelect={selectFrame} />;
    },
    [visible, selectedSeq, selectFrame],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    if (visible.length === 0) return;
    let next: number;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = visible.length - 1;
    else next = Math.min(visible.length - 1, Math.max(0, (selectedIndex < 0 ? 0 : selectedIndex) + (event.key === 'ArrowDown' ? 1 : -1)));
    const row = visible[next];
    if (row !== undefined) selectFrame(row.frame.seq);
  };

  return (
    <section aria-labelledby="inspector-title" className="inspector">
      <h1 id="inspector-title">Inspector</h1>
      <div className="toolbar" role="toolbar" aria-label="Inspector controls">
        <label>
          Connection{' '}
          <select value={filter.connectionId ?? ''} onChange={(e) => setFilter({ connectionId: e.target.value === '' ? null : e.target.value })} data-testid="inspector-connection">
            <option value="">All connections</option>
            {connections.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input type="search" value={filter.text} placeholder="cmd, evt, nonce, payload…" onChange={(e) => setFilter({ text: e.target.value })} data-testid="inspector-search" />
        </label>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)} data-testid="inspector-pause">
          {paused ? `Resume${heldCount > 0 ? ` (${heldCount} new)` : ''}` : 'Pause'}
        </button>
        <button type="button" onClick={clearFrames} data-testid="inspector-clear">
          Clear
        </button>
        <RecordingControls />
        <button type="button" onClick={() => downloadText(`companion-frames-${Date.now()}.jsonl`, exportRows(visible))} disabled={visible.length === 0} data-testid="inspector-export">
          Export
        </button>
      </div>
      <OpenedRecordingBanner />
      <p className="muted" data-testid="inspector-count" aria-live="polite">
        {visible.length} of {frames.length} frames{paused ? `, paused (${heldCount} held)` : ''}
        {dropped > 0 ? `, ${dropped} oldest dropped (keeps ${cap.toLocaleString()})` : ''}
      </p>
      <RelayOutcomes />
      <div className="inspector-body">
        <div className="inspector-list">
          <div className="frame-row frame-head" aria-hidden="true">
            <span>Time</span>
            <span>Dir</span>
            <span>Connection</span>
            <span>Op</span>
            <span>Cmd</span>
            <span>Evt</span>
            <span>Nonce</span>
            <span>RTT</span>
          </div>
          {frames.length === 0 ? (
            <p className="empty" data-testid="inspector-empty">
              No frames yet. They appear here as games talk to Companion.
            </p>
          ) : (
            <VirtualList
              count={visible.length}
              rowHeight={INSPECTOR_ROW_HEIGHT}
              renderRow={renderRow}
              followTail={!paused}
              revealIndex={selectedIndex < 0 ? null : selectedIndex}
              onKeyDown={onKeyDown}
              label="Frames"
              testId="inspector-list"
            />
          )}
        </div>
        <div className="inspector-detail" aria-label="Selected frame">
          {selected === undefined ? (
            <p className="empty">Select a frame to see its payload.</p>
          ) : (
            <>
              <h2>
                #{selected.frame.seq} {selected.frame.direction === 'in' ? 'from the game' : 'to the game'} · {opcodeName(selected.frame.opcode)}
              </h2>
              {selected.pairSeq !== null && (
                <p>
                  Reply to #{selected.pairSeq} after {selected.rttMs} ms
                </p>
              )}
              {reply !== undefined && (
                <p>
                  Answered by #{reply.frame.seq} after {reply.rttMs} ms
                </p>
              )}
              {selected.frame.lints !== undefined && (
                <div className="lints" data-testid="inspector-lints">
                  {selected.frame.lints.length === 0 ? (
                    <p className="muted">Lint: this activity shows as meant.</p>
                  ) : (
                    <>
                      <h3>Accepted, but shows badly</h3>
                      <ul>
                        {selected.frame.lints.map((lint) => (
                          <li key={`${lint.code}:${lint.field}`} data-testid="inspector-lint">
                            {lint.message} <span className="muted">({lint.code})</span>
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                </div>
              )}
              <pre className="json" data-testid="inspector-json">
                {jsonText(selected.frame.payload)}
              </pre>
            </>
          )}
        </div>
      </div>
    </section>
  );
}

function InspectorRow({ row, selected, onSelect }: { readonly row: FrameRow; readonly selected: boolean; readonly onSelect: (seq: number) => void }): ReactNode {
  const { frame } = row;
  return (
    <button
      type="button"
      className={`frame-row dir-${frame.direction}${selected ? ' selected' : ''}`}
      aria-pressed={selected}
      onClick={() => onSelect(frame.seq)}
      data-testid="inspector-row"
      data-seq={frame.seq}
      data-direction={frame.direction}
    >
      <span>{formatClock(frame.at)}</span>
      <span>{frame.direction === 'in' ? '→ in' : '← out'}</span>
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
      <span>{frame.evt ?? ''}</span>
      <span title={frame.nonce ?? undefined}>{frame.nonce ?? ''}</span>
      <span data-testid="inspector-rtt">{row.rttMs === null ? '' : `${row.rttMs} ms`}</span>
    </button>
  );
}

/** The presence relay's latest outcomes (what became of each game update), newest first. */
function RelayOutcomes(): ReactNode {
  const outcomes = useApp((s) => s.data?.presence?.recent_outcomes);
  if (outcomes === undefined || outcomes.length === 0) return null;
  return (
    <details className="relay-outcomes" data-testid="inspector-relay">
      <summary>Presence relay: {outcomes.length} recent update outcomes</summary>
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

/** Record (the host writes every frame to a new file in its data directory) and Open a recording. */
function RecordingControls(): ReactNode {
  const recording = useApp((s) => s.data?.recording ?? null);
  const setRecording = useApp((s) => s.setRecording);
  const busy = useApp((s) => s.busy.includes('recording'));
  const openRecording = useApp((s) => s.openRecording);
  const input = useRef<HTMLInputElement>(null);
  const onFile = (event: ChangeEvent<HTMLInputElement>): void => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined) return;
    void file.arrayBuffer().then((buffer) => openRecording(file.name, new Uint8Array(buffer)));
  };
  return (
    <>
      {recording !== null && (
        <button
          type="button"
          aria-pressed={recording.recording}
          disabled={busy}
          onClick={() => void setRecording(!recording.recording)}
          title={recording.recording ? `Recording to ${recording.file ?? ''}` : 'Record every frame to a file in Companion\'s data directory (secrets redacted)'}
          data-testid="inspector-record"
        >
          {recording.recording ? '■ Stop recording' : '● Record'}
        </button>
      )}
      <button type="button" onClick={() => input.current?.click()} data-testid="inspector-open-recording">
        Open recording…
      </button>
      <input ref={input} type="file" accept=".rec,application/octet-stream" hidden onChange={onFile} data-testid="inspector-recording-file" />
    </>
  );
}

function OpenedRecordingBanner(): ReactNode {
  const opened = useApp((s) => s.recording);
  const live = useApp((s) => s.data?.recording ?? null);
  const close = useApp((s) => s.closeRecording);
  if (opened === null) {
    if (live?.recording !== true) return null;
    return (
      <p className="banner" data-testid="inspector-recording-live">
        Recording to <code>{live.file}</code>
        {live.secrets ? ' (with secrets)' : ''}
        {live.dropped > 0 ? `, ${live.dropped} records lost` : ''}
      </p>
    );
  }
  const { file } = opened;
  return (
    <p className="banner" data-testid="inspector-recording-opened">
      Showing the recording <strong>{file.name}</strong> (Companion {file.companion}, started {file.startedAt}
      {file.redacted ? ', secrets redacted' : ', with secrets'}; {file.frames.length} frames, {file.otherRecords} host events
      {file.truncated ? '; cut off at the end' : ''}){' '}
      <button type="button" onClick={close} data-testid="inspector-recording-close">
        Back to live frames
      </button>
    </p>
  );
}
