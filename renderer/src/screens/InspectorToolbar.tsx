import type { ReactNode } from 'react';
import { exportRows, type FrameRow } from '../store/frames';
import { useApp } from '../store/react';
import { RecordingControls } from './InspectorRecording';

/** Saves `text` as a file through the browser (the renderer has no file system access). */
function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Filter by connection and text, pause, clear, record, open a recording, export what is shown. */
export function InspectorToolbar({ connections, visible }: { readonly connections: readonly string[]; readonly visible: readonly FrameRow[] }): ReactNode {
  const heldCount = useApp((s) => s.held.length);
  const paused = useApp((s) => s.paused);
  const filter = useApp((s) => s.filter);
  const setFilter = useApp((s) => s.setFilter);
  const setPaused = useApp((s) => s.setPaused);
  const clearFrames = useApp((s) => s.clearFrames);
  return (
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
        <input type="search" value={filter.text} placeholder="cmd, nonce, payload…" onChange={(e) => setFilter({ text: e.target.value })} data-testid="inspector-search" />
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
  );
}
