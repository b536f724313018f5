import { readFile } from 'node:fs/promises';
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { Decoder, ExtensionCodec } from '@msgpack/msgpack';
import { binData, IncompleteValueError, valueEnd } from './msgpack-extent.js';
import { BODY_KINDS, JSON_PAYLOAD_EXT, RECORDING_COMPRESSION, RECORDING_FORMAT, RECORDING_VERSION, type BodyRecord, type HeaderRecord } from './record-format.js';

/** The file is missing, unreadable, or not a Companion recording. */
export class RecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingError';
  }
}

/** How the file ended, when it did not end on a whole record. */
export interface RecordingTail {
  /** 'truncated': cut off inside a record (a kill while writing); 'corrupt': bytes that are not MessagePack. */
  readonly kind: 'truncated' | 'corrupt';
  /** For people: what was found and what was kept. */
  readonly message: string;
}

export interface Recording {
  readonly header: HeaderRecord;
  /** Every whole record after the header, in file order. */
  readonly records: readonly BodyRecord[];
  /** Records of a kind this version does not know (a newer writer), skipped. */
  readonly skipped: number;
  /** null when the file ends on a whole record. */
  readonly tail: RecordingTail | null;
}

const utf8 = new TextDecoder();

/** The extensions a recording uses: a JSON_PAYLOAD_EXT payload decodes to its JSON value. */
export const recordingExtensions = new ExtensionCodec();
recordingExtensions.register({
  type: JSON_PAYLOAD_EXT,
  encode: () => null,
  decode: (data) => {
    try {
      return JSON.parse(utf8.decode(data)) as unknown;
    } catch {
      return '[not JSON]';
    }
  },
});

/** A decoder for recording files (with their extensions). */
export function recordingDecoder(): Decoder {
  return new Decoder({ extensionCodec: recordingExtensions });
}

/** Reads a recording; a cut-off end is reported in `tail`, never thrown. */
export async function readRecording(file: string): Promise<Recording> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RecordingError(`${file} does not exist`);
    if (code === 'EISDIR') throw new RecordingError(`${file} is a directory, not a recording`);
    throw new RecordingError(`cannot read ${file} (${code ?? 'error'})`);
  }
  return parseRecording(bytes, file);
}

/** The records of a recording held in memory; `source` names it in errors. */
export function parseRecording(bytes: Uint8Array, source: string): Recording {
  const records: BodyRecord[] = [];
  let skipped = 0;
  const scan = scanRecording(bytes, source, (value) => {
    const record = asBody(value);
    if (record === undefined) skipped += 1;
    else records.push(record);
  });
  return { header: scan.header, records, skipped, tail: scan.tail };
}

export interface RecordingScan {
  readonly header: HeaderRecord;
  readonly tail: RecordingTail | null;
  /** Bytes of the records themselves (after decompression; the header not counted). */
  readonly recordBytes: number;
}

/**
 * Walks a recording and hands every value after the header to `visit`, in file order, without
 * keeping them (a recording of a busy host can hold far more records than fit in memory
 * decoded). Chunks of a compressed file (record-format.ts, RECORDING_COMPRESSION) are
 * inflated one at a time. A cut-off end is reported in `tail`: a value cut off in a plain file
 * is dropped; a chunk cut off is inflated as far as it goes, and its whole records are kept.
 */
export function scanRecording(bytes: Uint8Array, source: string, visit: (value: unknown) => void): RecordingScan {
  if (bytes.length === 0) throw new RecordingError(`${source} is empty: not a recording`);
  const decoder = recordingDecoder();
  let pos: number;
  try {
    pos = valueEnd(bytes, 0);
  } catch (error) {
    if (error instanceof IncompleteValueError) throw new RecordingError(`${source} is not a recording (it ends before its header is complete)`);
    throw new RecordingError(`${source} is not a recording (not MessagePack)`);
  }
  let headerValue: unknown;
  try {
    headerValue = decoder.decode(bytes.subarray(0, pos));
  } catch {
    throw new RecordingError(`${source} is not a recording (not MessagePack)`);
  }
  const header = asHeader(headerValue, source);
  let records = 0;
  let recordBytes = 0;
  const counted = (value: unknown): void => {
    records += 1;
    visit(value);
  };
  let tail: RecordingTail | null = null;
  const cut = (kind: RecordingTail['kind']): RecordingTail => {
    const kept = `${records} whole record${records === 1 ? '' : 's'} after the header`;
    return kind === 'truncated'
      ? { kind, message: `${source} ends with an incomplete record (cut off while writing); read ${kept}` }
      : { kind, message: `${source} has bytes that are not a record after ${kept}; the rest is ignored` };
  };
  if (header.compression === undefined) {
    // Records one after the other (version 1 files): a cut-off last one ends the reading.
    try {
      for (const value of decoder.decodeMulti(bytes.subarray(pos))) counted(value);
    } catch (error) {
      tail = cut(error instanceof RangeError ? 'truncated' : 'corrupt');
    }
    return { header, tail, recordBytes: bytes.length - pos };
  }
  while (pos < bytes.length) {
    let chunk: { start: number; end: number } | undefined;
    try {
      chunk = binData(bytes, pos);
    } catch {
      tail = cut('truncated'); // cut off inside the chunk's own header
      break;
    }
    if (chunk === undefined) {
      tail = cut('corrupt');
      break;
    }
    // Cut off inside the chunk: its start still inflates to whole records.
    const cutOff = chunk.end > bytes.length;
    try {
      recordBytes += readChunk(bytes.subarray(chunk.start, Math.min(chunk.end, bytes.length)), cutOff, decoder, counted);
    } catch {
      // A whole chunk that does not inflate to whole records was not written by Companion.
      tail = cut('corrupt');
      break;
    }
    if (cutOff) {
      tail = cut('truncated');
      break;
    }
    pos = chunk.end;
  }
  return { header, tail, recordBytes };
}

/**
 * Inflates a chunk's DEFLATE data and visits its records; returns the inflated size. A chunk
 * `cutOff` (the file ends inside it) is inflated as far as its bytes go, up to its last whole
 * record; otherwise a chunk that does not inflate to whole records throws.
 */
function readChunk(deflated: Uint8Array, cutOff: boolean, decoder: Decoder, visit: (value: unknown) => void): number {
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(deflated, cutOff ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {});
  } catch (error) {
    if (cutOff) return 0;
    throw error;
  }
  try {
    for (const value of decoder.decodeMulti(inflated)) visit(value);
  } catch (error) {
    // RangeError: the inflated bytes end inside a record.
    if (!(cutOff && error instanceof RangeError)) throw error;
  }
  return inflated.length;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function asHeader(value: unknown, source: string): HeaderRecord {
  if (!isMap(value) || value['kind'] !== 'header' || value['format'] !== RECORDING_FORMAT) {
    throw new RecordingError(`${source} is not a recording (it does not start with a ${RECORDING_FORMAT} header)`);
  }
  const version = value['version'];
  if (typeof version !== 'number' || version > RECORDING_VERSION) {
    throw new RecordingError(`${source} is a recording of format version ${String(version)}; this Companion reads version ${RECORDING_VERSION}`);
  }
  const compression = value['compression'];
  if (compression !== undefined && compression !== RECORDING_COMPRESSION) {
    throw new RecordingError(`${source} is compressed with ${String(compression)}; this Companion reads ${RECORDING_COMPRESSION}`);
  }
  return {
    kind: 'header',
    format: RECORDING_FORMAT,
    version,
    companion: typeof value['companion'] === 'string' ? value['companion'] : 'unknown',
    started_at: typeof value['started_at'] === 'string' ? value['started_at'] : '',
    redacted: value['redacted'] !== false,
    ...(compression === undefined ? {} : { compression }),
  };
}

/** A body record, or undefined for a kind (or shape) this version does not know. */
function asBody(value: unknown): BodyRecord | undefined {
  if (!isMap(value) || typeof value['kind'] !== 'string' || !BODY_KINDS.has(value['kind']) || typeof value['t'] !== 'number') return undefined;
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
