import { readFile } from 'node:fs/promises';
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { RecordingError } from '../../../../common/src/recording/recording-error.js';
import { BODY_KINDS, type BodyRecord, type HeaderRecord } from '../../../../common/src/recording/recording-format.js';
import { looksLikeExport, parseInspectorExport } from './export-reader.js';
import { isRecordMap, scanRecordingSync, type DeflatedChunk, type InflatedChunk, type RecordingScan, type RecordingTail } from '../../../../common/src/recording/recording-scan.js';

export interface Recording {
  readonly header: HeaderRecord;
  /** Every whole record after the header, in file order. */
  readonly records: readonly BodyRecord[];
  /** Records of a kind this version does not know (a newer writer), skipped. */
  readonly skipped: number;
  /** null when the file ends on a whole record. */
  readonly tail: RecordingTail | null;
}

/** Reads a recording; a cut-off end is reported in `tail`, never thrown. */
export async function readRecording(file: string): Promise<Recording> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RecordingError(`${file} does not exist`, 'unreadable');
    if (code === 'EISDIR') throw new RecordingError(`${file} is a directory, not a recording`, 'unreadable');
    throw new RecordingError(`cannot read ${file} (${code ?? 'error'})`, 'unreadable');
  }
  return parseRecording(bytes, file);
}

/** The records of a recording (or of an inspector export, read as one) held in memory; `source` names it in errors. */
export function parseRecording(bytes: Uint8Array, source: string): Recording {
  if (looksLikeExport(bytes)) return parseInspectorExport(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), source);
  const records: BodyRecord[] = [];
  let skipped = 0;
  const scan = scanRecording(bytes, source, (value) => {
    const record = asBody(value);
    if (record === undefined) skipped += 1;
    else records.push(record);
  });
  return { header: scan.header, records, skipped, tail: scan.tail };
}

/**
 * Walks a recording and hands every value after the header to `visit`, in file order, without
 * keeping them (common/src/recording/recording-scan.ts), inflating its chunks with zlib.
 */
export function scanRecording(bytes: Uint8Array, source: string, visit: (value: unknown) => void): RecordingScan {
  return scanRecordingSync(bytes, source, inflateChunk, visit);
}

/** A chunk cut off by the end of the file is inflated as far as its bytes go. */
function inflateChunk(chunk: DeflatedChunk): InflatedChunk {
  try {
    return inflateRawSync(chunk.data, chunk.cutOff ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {});
  } catch {
    return chunk.cutOff ? new Uint8Array(0) : null;
  }
}

/** A body record, or undefined for a kind (or shape) this version does not know. */
function asBody(value: unknown): BodyRecord | undefined {
  if (!isRecordMap(value) || typeof value['kind'] !== 'string' || !BODY_KINDS.has(value['kind']) || typeof value['t'] !== 'number') return undefined;
  if (value['kind'] === 'frame') {
    const ok =
      typeof value['connection'] === 'string' &&
      (value['direction'] === 'in' || value['direction'] === 'out') &&
      typeof value['opcode'] === 'number';
    if (!ok) return undefined;
    return { ...value, transport: typeof value['transport'] === 'string' ? value['transport'] : 'ipc' } as unknown as BodyRecord;
  }
  return value as unknown as BodyRecord;
}
