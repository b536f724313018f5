import { RecordingError } from '../../../../common/src/recording/recording-error.js';
import { BODY_KINDS, RECORDING_FORMAT, RECORDING_VERSION, type BodyRecord, type HeaderRecord } from '../../../../common/src/recording/recording-format.js';
import type { Recording } from './record-reader.js';

/** The most lines an export may hold (as the inspector's Open recording). */
const MAX_EXPORT_LINES = 1_000_000;

type Fields = Readonly<Record<string, unknown>>;

/** One line of an export, as the inspector wrote it (a FrameView with its round trip). */
interface ExportedRow {
  readonly seq: number;
  readonly at: number;
  readonly connection: string;
  readonly direction: 'in' | 'out' | 'host';
  readonly opcode: number;
  readonly cmd: string | null;
  readonly payload: unknown;
}

/** Whether the bytes are text starting with `{` (an inspector export), not a recording's MessagePack header. */
export function looksLikeExport(bytes: Uint8Array): boolean {
  for (const byte of bytes.subarray(0, 64)) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b;
  }
  return false;
}

function exportedRow(value: unknown): ExportedRow | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Fields;
  const { direction, opcode, at, seq } = fields;
  if ((direction !== 'in' && direction !== 'out' && direction !== 'host') || typeof opcode !== 'number' || typeof at !== 'number' || !('payload' in fields)) return null;
  return {
    seq: typeof seq === 'number' ? seq : 0,
    at,
    connection: typeof fields['connection_id'] === 'string' ? fields['connection_id'] : '?',
    direction,
    opcode,
    cmd: typeof fields['cmd'] === 'string' ? fields['cmd'] : null,
    payload: fields['payload'],
  };
}

/**
 * A row as a recording's record: a frame, or a host event of a kind recordings have (its row's
 * payload is the record's fields, common/src/recording/host-event-row.ts); null for a row no
 * recording holds (a relay outcome, a "frames dropped" marker).
 */
function recordOf(row: ExportedRow, t: number): BodyRecord | null {
  if (row.direction !== 'host') {
    return { kind: 'frame', t, connection: row.connection, transport: 'ipc', direction: row.direction, opcode: row.opcode, payload: row.payload };
  }
  if (row.cmd === null || row.cmd === 'frame' || !BODY_KINDS.has(row.cmd)) return null;
  const fields = typeof row.payload === 'object' && row.payload !== null && !Array.isArray(row.payload) ? (row.payload as Fields) : {};
  return { ...fields, kind: row.cmd, t, ...(row.cmd === 'gateway' ? {} : { connection: row.connection }) } as unknown as BodyRecord;
}

/**
 * What the inspector's Export wrote (JSON lines, one row each, redacted by the host) read as a
 * recording, so that `companion replay` and `companion record show` take it (issue 26 §9). Rows
 * are put back in their order (`seq`: an export of a sorted view is not in time order); times
 * count from the first row. Secrets are redacted in an export, so the recording says so, and
 * replay substitutes what a fresh host issues anew. A line that is not a row refuses the file,
 * naming the line.
 */
export function parseInspectorExport(text: string, source: string): Recording {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > MAX_EXPORT_LINES) throw new RecordingError(`${source} holds more than ${MAX_EXPORT_LINES.toLocaleString('en-US')} rows`);
  const rows = lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new RecordingError(`${source} is not a recording (line ${index + 1} is not JSON, so it is no inspector export either)`);
    }
    const row = exportedRow(value);
    if (row === null) throw new RecordingError(`${source} is not a recording (line ${index + 1} is not a row of an inspector export)`);
    return row;
  });
  if (rows.length === 0) throw new RecordingError(`${source} is empty`, 'empty');
  rows.sort((a, b) => a.seq - b.seq);
  const start = Math.min(...rows.map((row) => row.at));
  const records: BodyRecord[] = [];
  let skipped = 0;
  for (const row of rows) {
    const record = recordOf(row, row.at - start);
    if (record === null) skipped += 1;
    else records.push(record);
  }
  const header: HeaderRecord = { kind: 'header', format: RECORDING_FORMAT, version: RECORDING_VERSION, companion: 'inspector export', started_at: new Date(start).toISOString(), redacted: true };
  return { header, records, skipped, tail: null };
}
