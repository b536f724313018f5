import type { FrameView } from '../../../preload/src/contract';

/** A frame as the inspector lists it: the frame plus its nonce pairing. */
export interface FrameRow {
  readonly frame: FrameView;
  /** For a reply (`out` with a nonce): ms since the command it answers arrived; else null. */
  readonly rttMs: number | null;
  /** For a reply: the seq of the command it answers; else null. */
  readonly pairSeq: number | null;
}

export interface FramePairer {
  /** Pairs frames in order: an `in` command with a nonce waits for the `out` reply with the same nonce on the same connection. */
  pair(frame: FrameView): FrameRow;
  reset(): void;
  /** Commands still waiting for their reply (bounded). */
  readonly waiting: number;
}

/**
 * Nonce pairing per connection. Commands waiting for a reply are kept in insertion order and
 * capped (`maxWaiting`, oldest forgotten first) so a game that never gets answers cannot grow it.
 */
export function createFramePairer(maxWaiting = 10_000): FramePairer {
  const waiting = new Map<string, { readonly seq: number; readonly at: number }>();
  const keyOf = (frame: FrameView): string | null => (frame.nonce === null || frame.nonce === '' ? null : `${frame.connection_id}\u0000${frame.nonce}`);
  return {
    pair(frame) {
      const key = keyOf(frame);
      if (key === null) return { frame, rttMs: null, pairSeq: null };
      if (frame.direction === 'in') {
        waiting.delete(key);
        waiting.set(key, { seq: frame.seq, at: frame.at });
        while (waiting.size > maxWaiting) {
          const oldest = waiting.keys().next();
          if (oldest.done === true) break;
          waiting.delete(oldest.value);
        }
        return { frame, rttMs: null, pairSeq: null };
      }
      const command = waiting.get(key);
      if (command === undefined) return { frame, rttMs: null, pairSeq: null };
      waiting.delete(key);
      return { frame, rttMs: Math.max(0, frame.at - command.at), pairSeq: command.seq };
    },
    reset() {
      waiting.clear();
    },
    get waiting() {
      return waiting.size;
    },
  };
}

/** `list` followed by `added`, keeping only the newest `cap` items (a new array; inputs untouched). */
export function appendCapped<T>(list: readonly T[], added: readonly T[], cap: number): readonly T[] {
  if (added.length === 0) return list;
  const limit = Math.max(0, Math.floor(cap));
  if (added.length >= limit) return added.slice(added.length - limit);
  const keep = Math.max(0, list.length + added.length - limit);
  return keep === 0 ? list.concat(added) : list.slice(keep).concat(added);
}

export interface FrameFilter {
  /** Only frames of this connection; null for all. */
  readonly connectionId: string | null;
  /** Case-insensitive text searched in cmd, evt, nonce, connection id, opcode and the JSON payload. */
  readonly text: string;
}

export const EMPTY_FILTER: FrameFilter = { connectionId: null, text: '' };

const searchTexts = new WeakMap<FrameRow, string>();

/** What the text search looks at (computed once per row). */
export function frameSearchText(row: FrameRow): string {
  let text = searchTexts.get(row);
  if (text === undefined) {
    const { frame } = row;
    let payload: string;
    try {
      payload = JSON.stringify(frame.payload) ?? '';
    } catch {
      payload = '';
    }
    text = [frame.cmd ?? '', frame.evt ?? '', frame.nonce ?? '', frame.connection_id, frame.direction, String(frame.opcode), payload].join('\u0000').toLowerCase();
    searchTexts.set(row, text);
  }
  return text;
}

export function filterRows(rows: readonly FrameRow[], filter: FrameFilter): readonly FrameRow[] {
  const needle = filter.text.trim().toLowerCase();
  if (filter.connectionId === null && needle === '') return rows;
  return rows.filter(
    (row) => (filter.connectionId === null || row.frame.connection_id === filter.connectionId) && (needle === '' || frameSearchText(row).includes(needle)),
  );
}

/** The connection ids present in `rows`, in order of first appearance. */
export function connectionIds(rows: readonly FrameRow[]): readonly string[] {
  const seen = new Set<string>();
  for (const row of rows) seen.add(row.frame.connection_id);
  return [...seen];
}

/**
 * The inspector's export: the rows shown, as JSON lines (one frame each, with its round trip).
 * Frames arrive redacted from the host, so the export holds no token, code or join secret.
 */
export function exportRows(rows: readonly FrameRow[]): string {
  return rows.map((row) => JSON.stringify({ ...row.frame, rtt_ms: row.rttMs, reply_to: row.pairSeq })).join('\n') + (rows.length > 0 ? '\n' : '');
}

/** An ERROR reply's code and message (the protocol's `evt: "ERROR"`, `data: {code, message}`), or null. */
export function errorReply(frame: FrameView): { readonly code: number | null; readonly message: string } | null {
  if (frame.direction !== 'out' || frame.evt !== 'ERROR') return null;
  const data = (frame.payload as { data?: { code?: unknown; message?: unknown } } | null)?.data;
  return { code: typeof data?.code === 'number' ? data.code : null, message: typeof data?.message === 'string' ? data.message : '' };
}
