import { HOST_EVENT_OPCODE, hostEventRow } from '../../../common/src/recording/host-event-row';
import { RecordingError } from '../../../common/src/recording/recording-error';
import { isRecordMap, scanRecordingAsync, type DeflatedChunk, type InflatedChunk, type RecordingScan } from '../../../common/src/recording/recording-scan';
import type { FrameView, LintView } from '../../../preload/src/contract';

/**
 * Reads a recording (`companion serve --record`, or the inspector's Record button) in the
 * browser, for the inspector, with the reader `companion record show` uses (common/src/recording):
 * a file cut off by a kill is read up to its last whole record. Every record becomes a row, in
 * file order: frames, and the host-side events (open, ready, close, consent, gateway, gap) as
 * the live inspector lists them (common/src/recording/host-event-row.ts).
 */
export interface LoadedRecording {
  readonly name: string;
  readonly companion: string;
  readonly startedAt: string;
  readonly redacted: boolean;
  /** The rows: frames and host events, in file order. */
  readonly frames: readonly FrameView[];
  /** How many of the rows are host events (connections, consent, gateway). */
  readonly otherRecords: number;
  /** The file ended inside a record (a recording cut off by a kill). */
  readonly truncated: boolean;
}

export class NotARecording extends Error {
  override readonly name = 'NotARecording';
}

type Fields = Record<string, unknown>;

function text(value: unknown, max = 256): string | null {
  if (typeof value === 'string') return value.slice(0, max);
  return typeof value === 'number' ? String(value) : null;
}

/**
 * Inflates a chunk of a compressed recording (raw DEFLATE) with the browser's
 * DecompressionStream. A chunk cut off by a kill gives what inflates before the cut; a whole
 * chunk that does not inflate gives null.
 */
async function inflate(chunk: DeflatedChunk): Promise<InflatedChunk> {
  const reader = new Blob([chunk.data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch {
    if (!chunk.cutOff) return null;
  }
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A recording's records, kept in order, and a count of those that are not frames. */
class FrameRecords {
  readonly records: Fields[] = [];
  otherRecords = 0;

  constructor(private readonly name: string) {}

  /** Lints by the index of the frame they belong to (a `lint` record follows its SET_ACTIVITY). */
  private readonly lints = new Map<number, readonly LintView[]>();

  readonly add = (value: unknown): void => {
    if (!isRecordMap(value)) throw new NotARecording(`${this.name}: a record is not a map`);
    if (value['kind'] === 'lint') {
      this.attachLints(value);
      return;
    }
    this.records.push(value);
    if (value['kind'] !== 'frame') this.otherRecords += 1;
  };

  /** A `lint` record's lints go to the latest incoming frame of its connection with its nonce, shown there as live. */
  private attachLints(record: Fields): void {
    const lints = Array.isArray(record['lints']) ? (record['lints'] as unknown[]).filter(isLint) : [];
    for (let index = this.records.length - 1; index >= 0; index--) {
      const frame = this.records[index] as Fields;
      if (frame['kind'] !== 'frame' || frame['direction'] !== 'in' || frame['connection'] !== record['connection']) continue;
      const payload = frame['payload'];
      const nonce = typeof payload === 'object' && payload !== null ? (payload as Fields)['nonce'] : undefined;
      if ((nonce ?? null) !== (record['nonce'] ?? null)) continue;
      this.lints.set(index, lints);
      return;
    }
  }

  /** The inspector's rows, with their times on the wall clock (`start`: the header's started_at, ms). */
  views(start: number): FrameView[] {
    return this.records.map((record, index) => {
      const t = typeof record['t'] === 'number' ? record['t'] : 0;
      const at = Math.round(start + t);
      if (record['kind'] !== 'frame') return eventView(record, index + 1, at);
      const view = frameView(record, index + 1, at);
      const lints = this.lints.get(index);
      return lints === undefined ? view : { ...view, lints };
    });
  }
}

function frameView(record: Fields, seq: number, at: number): FrameView {
  const payload = record['payload'];
  const fields = typeof payload === 'object' && payload !== null ? (payload as Fields) : {};
  return {
    seq,
    connection_id: text(record['connection'], 64) ?? '?',
    direction: record['direction'] === 'out' ? 'out' : 'in',
    opcode: typeof record['opcode'] === 'number' ? record['opcode'] : -2,
    at,
    cmd: text(fields['cmd']),
    evt: text(fields['evt']),
    nonce: text(fields['nonce']),
    payload,
  };
}

function eventView(record: Fields, seq: number, at: number): FrameView {
  const row = hostEventRow(record);
  return { seq, connection_id: row.connection_id, direction: 'host', opcode: HOST_EVENT_OPCODE, at, cmd: row.cmd, evt: row.evt, nonce: null, payload: row.payload };
}

function isLint(value: unknown): value is LintView {
  if (typeof value !== 'object' || value === null) return false;
  const lint = value as Fields;
  return typeof lint['code'] === 'string' && typeof lint['field'] === 'string' && typeof lint['message'] === 'string' && (lint['severity'] === 'warning' || lint['severity'] === 'info');
}

/** What the inspector says about a file the reader refused. */
function refusal(name: string, error: RecordingError): NotARecording {
  if (error.reason === 'empty') return new NotARecording(`${name} is empty`);
  // A recording of a newer format: the reader's message says which version it reads.
  if (error.reason === 'unsupported') return new NotARecording(error.message);
  return new NotARecording(`${name} is not a Companion recording`);
}

/** The most frames an opened export may hold (the inspector's own cap is lower: Export writes what it shows). */
const MAX_EXPORT_LINES = 1_000_000;

/** One line of the inspector's Export as a frame, or null when it is not one. */
function exportedFrame(value: unknown, seq: number): FrameView | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Fields;
  const direction = fields['direction'];
  if ((direction !== 'in' && direction !== 'out' && direction !== 'host') || typeof fields['opcode'] !== 'number' || typeof fields['at'] !== 'number' || !('payload' in fields)) return null;
  const payload = fields['payload'];
  const body = typeof payload === 'object' && payload !== null ? (payload as Fields) : {};
  return {
    seq,
    connection_id: text(fields['connection_id'], 64) ?? '?',
    direction,
    opcode: fields['opcode'],
    at: fields['at'],
    cmd: text(fields['cmd']) ?? text(body['cmd']),
    evt: text(fields['evt']) ?? text(body['evt']),
    nonce: text(fields['nonce']) ?? text(body['nonce']),
    payload,
    ...(Array.isArray(fields['lints']) ? { lints: fields['lints'] as readonly LintView[] } : {}),
  };
}

/**
 * Reads what the inspector's Export wrote (JSON lines, one frame each, redacted by the host)
 * back as a session. Frames are numbered again in file order; a line that is not a frame
 * refuses the file, naming the line.
 */
export function parseExport(name: string, content: string): LoadedRecording {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > MAX_EXPORT_LINES) throw new NotARecording(`${name} holds more than ${MAX_EXPORT_LINES.toLocaleString()} frames`);
  const frames = lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new NotARecording(`${name}, line ${index + 1}: not JSON, so not an exported session`);
    }
    const frame = exportedFrame(value, index + 1);
    if (frame === null) throw new NotARecording(`${name}, line ${index + 1}: not a frame of an exported session`);
    return frame;
  });
  if (frames.length === 0) throw new NotARecording(`${name} is empty`);
  const events = frames.filter((frame) => frame.direction === 'host').length;
  return { name, companion: 'inspector export', startedAt: new Date(frames[0]?.at ?? 0).toISOString(), redacted: true, frames, otherRecords: events, truncated: false };
}

/** Whether the file is text starting with `{` (an export) rather than a recording's binary header. */
function looksLikeExport(bytes: Uint8Array): boolean {
  for (const byte of bytes.subarray(0, 64)) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b;
  }
  return false;
}

/** A recording (`.rec`) or an inspector export (`.jsonl`), told apart by their first bytes. */
export async function parseRecording(name: string, bytes: Uint8Array): Promise<LoadedRecording> {
  if (looksLikeExport(bytes)) return parseExport(name, new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  const records = new FrameRecords(name);
  let scan: RecordingScan;
  try {
    scan = await scanRecordingAsync(bytes, name, inflate, records.add);
  } catch (error) {
    if (error instanceof RecordingError) throw refusal(name, error);
    throw error;
  }
  const { header } = scan;
  const start = Date.parse(header.started_at);
  return {
    name,
    companion: header.companion,
    startedAt: header.started_at,
    redacted: header.redacted,
    frames: records.views(Number.isFinite(start) ? start : 0),
    otherRecords: records.otherRecords,
    truncated: scan.tail !== null,
  };
}
