import { useEffect, useState, type ReactNode } from 'react';
import { opcodeName } from '../lib/format';
import { errorReply, type FrameRow } from '../store/frames';
import { InspectorConnectionFacts } from './InspectorConnectionFacts';

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * What the activity linter said of a SET_ACTIVITY frame. Once the host refused the command,
 * the lints only say what else would show badly.
 */
function FrameLints({ lints, refused }: { readonly lints: NonNullable<FrameRow['frame']['lints']>; readonly refused: boolean }): ReactNode {
  if (refused && lints.length === 0) return null;
  return (
    <div className="lints" data-testid="inspector-lints">
      {lints.length === 0 ? (
        <p className="muted">Lint: this activity shows as meant.</p>
      ) : (
        <>
          <h3>{refused ? 'Would also show badly' : 'Accepted, but shows badly'}</h3>
          <ul>
            {lints.map((lint) => (
              <li key={`${lint.code}:${lint.field}`} data-testid="inspector-lint">
                {lint.message} <span className="muted">({lint.code})</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The ERROR that answered a command (or that the selected frame is), or null. */
function refusal(frame: FrameRow['frame'], reply: FrameRow | undefined): ReturnType<typeof errorReply> {
  return errorReply(frame) ?? (reply === undefined ? null : errorReply(reply.frame));
}

/** A refused command says so first: the code and the host's words. */
function Refusal({ frame, reply }: { readonly frame: FrameRow['frame']; readonly reply: FrameRow | undefined }): ReactNode {
  const error = refusal(frame, reply);
  if (error === null) return null;
  return (
    <p className="refusal" role="note" data-testid="inspector-refusal">
      <strong>Refused{error.code === null ? '' : ` with ${error.code}`}</strong>: {error.message}
    </p>
  );
}

const DIRECTION_WORDS: Readonly<Record<FrameRow['frame']['direction'], string>> = { in: 'from the game', out: 'to the game', host: 'host event' };

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies the payload's JSON in one click, and says whether it worked. */
function CopyPayload({ seq, text }: { readonly seq: number; readonly text: string }): ReactNode {
  const [state, setState] = useState<CopyState>('idle');
  // Another frame: nothing of it was copied yet.
  useEffect(() => setState('idle'), [seq]);
  const copy = (): void => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (clipboard === undefined) {
      setState('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <p className="copy-line">
      <button type="button" onClick={copy} data-testid="inspector-copy">
        Copy payload
      </button>{' '}
      <span role="status" className="muted" data-testid="inspector-copy-status">
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'failed' ? 'The browser refused the clipboard: select the text below and copy it.' : ''}
      </span>
    </p>
  );
}

/** The selected frame: what it is, its pairing with a reply, its lints, its payload. */
export function InspectorFrameDetail({ selected, reply }: { readonly selected: FrameRow | undefined; readonly reply: FrameRow | undefined }): ReactNode {
  return (
    <div className="inspector-detail" role="region" aria-label="Selected frame">
      {selected === undefined ? (
        <p className="empty">Select a frame to see its payload.</p>
      ) : (
        <>
          <h2>
            #{selected.frame.seq} {DIRECTION_WORDS[selected.frame.direction]} · {selected.frame.direction === 'host' ? selected.frame.cmd : opcodeName(selected.frame.opcode)}
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
          <InspectorConnectionFacts connectionId={selected.frame.connection_id} />
          <Refusal frame={selected.frame} reply={reply} />
          {selected.frame.lints !== undefined && <FrameLints lints={selected.frame.lints} refused={refusal(selected.frame, reply) !== null} />}
          <CopyPayload seq={selected.frame.seq} text={jsonText(selected.frame.payload)} />
          <pre className="json" data-testid="inspector-json">
            {jsonText(selected.frame.payload)}
          </pre>
        </>
      )}
    </div>
  );
}
