import { useRef, type ChangeEvent, type ReactNode } from 'react';
import { useApp } from '../store/react';

/** Record (the host writes every frame to a new file in its data directory) and Open a recording. */
export function RecordingControls(): ReactNode {
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
          title={
            recording.recording
              ? `Recording to ${recording.file ?? ''}`
              : 'Record every frame to a new file in Companion\'s data directory (secrets redacted), to replay with companion replay or open here'
          }
          data-testid="inspector-record"
        >
          {recording.recording ? '■ Stop recording' : '● Record'}
        </button>
      )}
      <button type="button" onClick={() => input.current?.click()} data-testid="inspector-open-recording">
        Open recording…
      </button>
      <input ref={input} type="file" accept=".rec,.jsonl,application/octet-stream,application/x-ndjson" hidden onChange={onFile} data-testid="inspector-recording-file" />
    </>
  );
}

/** How to use a recording: replay its game side against a host, or open it here. */
function ReplayHint({ file }: { readonly file: string }): ReactNode {
  return (
    <span data-testid="inspector-replay-hint">
      Play its game side against a host and compare the replies with <code>companion replay {quoted(file)}</code>, or look at it here with Open recording…
    </span>
  );
}

/** A path as a shell takes it: quoted when it holds anything but plain characters. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** What the list shows besides live frames: an opened recording (with a way back), or the recording under way. */
export function OpenedRecordingBanner(): ReactNode {
  const opened = useApp((s) => s.recording);
  const live = useApp((s) => s.data?.recording ?? null);
  const close = useApp((s) => s.closeRecording);
  const dismissed = useApp((s) => s.dismissedRecordingFile);
  const dismiss = useApp((s) => s.dismissRecordingBanner);
  if (opened === null) {
    if (live === null || live.file === null) return null;
    // A finished recording's banner goes once dismissed; the next recording shows its own.
    if (!live.recording && dismissed === live.file) return null;
    const file = live.file;
    return (
      <p className="banner" data-testid={live.recording ? 'inspector-recording-live' : 'inspector-recording-done'}>
        {live.recording ? 'Recording every frame to ' : 'Last recording: '}
        <code>{file}</code>
        {live.secrets ? ' (with secrets)' : ' (secrets redacted)'}
        {live.dropped > 0 ? `, ${live.dropped} records lost` : ''}. <ReplayHint file={file} />
        {!live.recording && (
          <>
            {' '}
            <button type="button" onClick={() => dismiss(file)} aria-label="Dismiss the last recording's note" data-testid="inspector-recording-dismiss">
              Dismiss
            </button>
          </>
        )}
      </p>
    );
  }
  const { file } = opened;
  return (
    <p className="banner" data-testid="inspector-recording-opened">
      Showing <strong>{file.name}</strong> ({file.companion === 'inspector export' ? 'an inspector export' : `a recording by Companion ${file.companion}`}, started {file.startedAt}
      {file.redacted ? ', secrets redacted' : ', with secrets'}; {file.frames.length - file.otherRecords} frames, {file.otherRecords} host events
      {file.truncated ? '; cut off at the end' : ''}){' '}
      <button type="button" onClick={close} data-testid="inspector-recording-close">
        Back to live frames
      </button>
    </p>
  );
}
