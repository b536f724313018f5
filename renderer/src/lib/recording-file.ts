import { RecordingError } from '../../../common/src/recording/recording-error';
import { isRecordMap, scanRecordingAsync, type DeflatedChunk, type InflatedChunk, type RecordingScan } from '../../../common/src/recording/recording-scan';
import type { FrameView } from '../../../preload/src/contract';

/**
 * Reads a recording (`companion serve --record`, or the inspector's Record button) in the
 * browser, for the inspector, with the reader `companion record show` uses (common/src/recording):
 * a file cut off by a kill is read up to its last whole record. Only frame records become rows;
 * the host-side events (open, close, consent, gateway) stay in `companion record show`.
 */
export interface LoadedRecording {
  readonly name: string;
  readonly companion: string;
  readonly startedAt: string;
  readonly redacted: boolean;
  readonly frames: readonly FrameView[];
  /** Records of other kinds (connections, consent, gateway) in the file. */
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

/** A recording's frame records, kept in order, and a count of the others. */
class FrameRecords {
  readonly records: Fields[] = [];
  otherRecords = 0;

  constructor(private readonly name: string) {}

  readonly add = (value: unknown): void => {
    if (!isRecordMap(value)) throw new NotARecording(`${this.name}: a record is not a map`);
    if (value['kind'] === 'frame') this.records.push(value);
    else this.otherRecords += 1;
  };

  /** The inspector's rows, with their times on the wall clock (`start`: the header's started_at, ms). */
  views(start: number): FrameView[] {
    return this.records.map((record, index) => {
      const payload = record['payload'];
      const fields = typeof payload === 'object' && payload !== null ? (payload as Fields) : {};
      const t = typeof record['t'] === 'number' ? record['t'] : 0;
      return {
        seq: index + 1,
        connection_id: text(record['connection'], 64) ?? '?',
        direction: record['direction'] === 'out' ? 'out' : 'in',
        opcode: typeof record['opcode'] === 'number' ? record['opcode'] : -1,
        at: Math.round(start + t),
        cmd: text(fields['cmd']),
        evt: text(fields['evt']),
        nonce: text(fields['nonce']),
        payload,
      };
    });
  }
}

/** What the inspector says about a file the reader refused. */
function refusal(name: string, error: RecordingError): NotARecording {
  if (error.reason === 'empty') return new NotARecording(`${name} is empty`);
  // A recording of a newer format: the reader's message says which version it reads.
  if (error.reason === 'unsupported') return new NotARecording(error.message);
  return new NotARecording(`${name} is not a Companion recording`);
}

export async function parseRecording(name: string, bytes: Uint8Array): Promise<LoadedRecording> {
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
