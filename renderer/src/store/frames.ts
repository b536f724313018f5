import { HOST_EVENT_OPCODE } from '../../../common/src/recording/host-event-row';
import type { FrameView } from '../../../preload/src/contract';
import { opcodeName } from '../lib/format';
import type { SortKey } from '../lib/frame-columns';

/** A frame as the inspector lists it: the frame plus its nonce pairing. */
export interface FrameRow {
  readonly frame: FrameView;
  /** For a reply (`out` with a nonce): ms since the command it answers arrived; else null. */
  readonly rttMs: number | null;
  /** For a reply: the seq of the command it answers; else null. */
  readonly pairSeq: number | null;
  /**
   * For the reply to an AUTHORIZE: how the consent was decided, as the host's consent event
   * said it ("denied (player)", "dismissed (player)", "approved (remembered)"), which the wire
   * reply alone does not tell apart; else null.
   */
  readonly decision?: string | null;
  /** A marker, not a frame: this many older rows of its connection were dropped from the host's ring here. */
  readonly dropped?: number;
}

/**
 * The marker listed where a connection's rows were dropped (before the first row the host still
 * had, `dropped_before`): its seq sits just below that row's, so it sorts and filters with it.
 */
export function droppedMarker(frame: FrameView): FrameRow | null {
  const count = frame.dropped_before;
  if (count === undefined || count <= 0) return null;
  const text = `${count.toLocaleString('en-US')} older frame${count === 1 ? '' : 's'} dropped`;
  return {
    frame: { seq: frame.seq - 0.5, connection_id: frame.connection_id, direction: 'host', opcode: HOST_EVENT_OPCODE, at: frame.at, cmd: 'dropped', evt: text, nonce: null, payload: { dropped: count } },
    rttMs: null,
    pairSeq: null,
    dropped: count,
  };
}

/** The rows of frames in order, each preceded by its dropped-rows marker when it has one. */
export function rowsOf(frames: readonly FrameView[], pairer: FramePairer): FrameRow[] {
  const rows: FrameRow[] = [];
  for (const frame of frames) {
    const marker = droppedMarker(frame);
    if (marker !== null) rows.push(marker);
    rows.push(pairer.pair(frame));
  }
  return rows;
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
  const waiting = new Map<string, { readonly seq: number; readonly at: number; readonly cmd: string | null }>();
  /** Per connection: the last consent decision the host listed, and the row it came in. */
  const decisions = new Map<string, { readonly seq: number; readonly text: string | null }>();
  const keyOf = (frame: FrameView): string | null => (frame.nonce === null || frame.nonce === '' ? null : `${frame.connection_id}\u0000${frame.nonce}`);
  return {
    pair(frame) {
      if (frame.direction === 'host') {
        if (frame.cmd === 'consent') decisions.set(frame.connection_id, { seq: frame.seq, text: frame.evt });
        return { frame, rttMs: null, pairSeq: null };
      }
      const key = keyOf(frame);
      if (key === null) return { frame, rttMs: null, pairSeq: null };
      if (frame.direction === 'in') {
        waiting.delete(key);
        waiting.set(key, { seq: frame.seq, at: frame.at, cmd: frame.cmd });
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
      const row = { frame, rttMs: Math.max(0, frame.at - command.at), pairSeq: command.seq };
      if (command.cmd !== 'AUTHORIZE') return row;
      // The decision listed between the command and its reply is the one that answered it.
      const decision = decisions.get(frame.connection_id);
      return { ...row, decision: decision !== undefined && decision.seq > command.seq ? decision.text : null };
    },
    reset() {
      waiting.clear();
      decisions.clear();
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

/** A filter chip's state: rows with this value shown alone, or hidden. */
export type ChipState = 'only' | 'hide';

/** What a chip filters on: the frame's direction, opcode name or command. */
export type ChipFacet = 'direction' | 'opcode' | 'command';


export interface FrameFilter {
  /** Only frames of this connection; null for all. */
  readonly connectionId: string | null;
  /**
   * Case-insensitive words searched in cmd, evt, nonce, connection id, opcode and the JSON
   * payload: every word must be found, and a word starting with `-` must not (`-PING`).
   */
  readonly text: string;
  /** Chips by `chipKey(facet, value)`; a facet with chips on 'only' shows only those values. */
  readonly chips: Readonly<Record<string, ChipState>>;
  readonly sort: { readonly key: SortKey; readonly descending: boolean };
}

export const EMPTY_FILTER: FrameFilter = { connectionId: null, text: '', chips: {}, sort: { key: 'time', descending: false } };

export function chipKey(facet: ChipFacet, value: string): string {
  return `${facet}:${value}`;
}

/** A chip's next state when clicked: off, then only this, then hide this, then off. */
export function nextChipState(state: ChipState | undefined): ChipState | undefined {
  if (state === undefined) return 'only';
  return state === 'only' ? 'hide' : undefined;
}

/** The value a row has for `facet` (what its chip is named). */
export function facetValue(row: FrameRow, facet: ChipFacet): string {
  if (facet === 'direction') return row.frame.direction;
  if (facet === 'opcode') return opcodeName(row.frame.opcode);
  return row.frame.cmd ?? '';
}

const FACETS: readonly ChipFacet[] = ['direction', 'opcode', 'command'];

/** The values present in `rows` for each facet, in order of first appearance (the chips offered). */
export function facetValues(rows: readonly FrameRow[]): Readonly<Record<ChipFacet, readonly string[]>> {
  const seen: Record<ChipFacet, Set<string>> = { direction: new Set(), opcode: new Set(), command: new Set() };
  for (const row of rows) for (const facet of FACETS) {
    const value = facetValue(row, facet);
    if (value !== '') seen[facet].add(value);
  }
  return { direction: [...seen.direction], opcode: [...seen.opcode], command: [...seen.command] };
}

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
    text = [frame.cmd ?? '', frame.evt ?? '', frame.nonce ?? '', frame.connection_id, frame.direction, String(frame.opcode), opcodeName(frame.opcode), payload].join('\u0000').toLowerCase();
    searchTexts.set(row, text);
  }
  return text;
}

/** The search box's words: those that must be found and those (`-word`) that must not. */
function searchWords(text: string): { readonly wanted: readonly string[]; readonly unwanted: readonly string[] } {
  const words = text.trim().toLowerCase().split(/\s+/).filter((word) => word !== '' && word !== '-');
  return { wanted: words.filter((word) => !word.startsWith('-')), unwanted: words.filter((word) => word.startsWith('-')).map((word) => word.slice(1)) };
}

/** Per facet: the values shown alone and the values hidden. */
function chipSets(chips: FrameFilter['chips']): { readonly only: Map<ChipFacet, Set<string>>; readonly hide: Map<ChipFacet, Set<string>> } {
  const only = new Map<ChipFacet, Set<string>>();
  const hide = new Map<ChipFacet, Set<string>>();
  for (const [key, state] of Object.entries(chips)) {
    const at = key.indexOf(':');
    const facet = key.slice(0, at) as ChipFacet;
    const target = state === 'only' ? only : hide;
    const values = target.get(facet) ?? new Set<string>();
    values.add(key.slice(at + 1));
    target.set(facet, values);
  }
  return { only, hide };
}

export function filterRows(rows: readonly FrameRow[], filter: Pick<FrameFilter, 'connectionId' | 'text'> & Partial<Pick<FrameFilter, 'chips'>>): readonly FrameRow[] {
  const { wanted, unwanted } = searchWords(filter.text);
  const { only, hide } = chipSets(filter.chips ?? {});
  if (filter.connectionId === null && wanted.length === 0 && unwanted.length === 0 && only.size === 0 && hide.size === 0) return rows;
  const chipsPass = (row: FrameRow): boolean => {
    for (const facet of FACETS) {
      const value = facetValue(row, facet);
      if (hide.get(facet)?.has(value) === true) return false;
      const alone = only.get(facet);
      if (alone !== undefined && !alone.has(value)) return false;
    }
    return true;
  };
  const textPasses = (row: FrameRow): boolean => {
    if (wanted.length === 0 && unwanted.length === 0) return true;
    const text = frameSearchText(row);
    return wanted.every((word) => text.includes(word)) && !unwanted.some((word) => text.includes(word));
  };
  return rows.filter((row) => (filter.connectionId === null || row.frame.connection_id === filter.connectionId) && chipsPass(row) && textPasses(row));
}

/** The rows in the order asked for (time: as they came; cmd: by name; rtt: slowest last, none at the end). Ties keep their order. */
export function sortRows(rows: readonly FrameRow[], sort: FrameFilter['sort']): readonly FrameRow[] {
  if (sort.key === 'time') return sort.descending ? [...rows].reverse() : rows;
  const sign = sort.descending ? -1 : 1;
  const compare =
    sort.key === 'cmd'
      ? (a: FrameRow, b: FrameRow): number => sign * (a.frame.cmd ?? '').localeCompare(b.frame.cmd ?? '')
      : (a: FrameRow, b: FrameRow): number => {
          if (a.rttMs === null || b.rttMs === null) return a.rttMs === b.rttMs ? 0 : a.rttMs === null ? 1 : -1;
          return sign * (a.rttMs - b.rttMs);
        };
  return [...rows].sort((a, b) => compare(a, b) || a.frame.seq - b.frame.seq);
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
