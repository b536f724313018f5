import type { Decoder } from '@msgpack/msgpack';
import { binData, IncompleteValueError, valueEnd } from './msgpack-extent.js';
import { decodeValues, recordingDecoder } from './recording-codec.js';
import { RecordingError } from './recording-error.js';
import { RECORDING_COMPRESSION, RECORDING_FORMAT, RECORDING_VERSION, type HeaderRecord } from './recording-format.js';

/** How the file ended, when it did not end on a whole record. */
export interface RecordingTail {
  /** 'truncated': cut off inside a record (a kill while writing); 'corrupt': bytes that are not MessagePack. */
  readonly kind: 'truncated' | 'corrupt';
  /** For people: what was found and what was kept. */
  readonly message: string;
}

export interface RecordingScan {
  readonly header: HeaderRecord;
  readonly tail: RecordingTail | null;
  /** Bytes of the records themselves (after decompression; the header not counted). */
  readonly recordBytes: number;
}

/** A compressed chunk's raw DEFLATE data (RFC 1951), for the caller to inflate. */
export interface DeflatedChunk {
  readonly data: Uint8Array;
  /** The file ends inside this chunk: inflate as far as the data goes, up to the cut. */
  readonly cutOff: boolean;
}

/**
 * What inflating a DeflatedChunk gave: its bytes (for a cut-off chunk, what inflates before the
 * cut, possibly nothing), or null when a whole chunk does not inflate.
 */
export type InflatedChunk = Uint8Array | null;

type Visit = (value: unknown) => void;

/**
 * Walks a recording held in memory and hands every value after the header to `visit`, in file
 * order, without keeping them (a recording of a busy host can hold far more records than fit in
 * memory decoded). Chunks of a compressed file (RECORDING_COMPRESSION) go through `inflate` one
 * at a time. A cut-off end is reported in `tail`: a value cut off in a plain file is dropped; a
 * chunk cut off is inflated as far as it goes, and its whole records are kept. A file that is
 * not a recording (or of a newer format) throws RecordingError; `source` names it in messages.
 */
export function scanRecordingSync(bytes: Uint8Array, source: string, inflate: (chunk: DeflatedChunk) => InflatedChunk, visit: Visit): RecordingScan {
  const steps = scanSteps(bytes, source, visit);
  let step = steps.next();
  while (step.done !== true) step = steps.next(inflate(step.value));
  return step.value;
}

/** scanRecordingSync for an inflater that is asynchronous (the browser's DecompressionStream). */
export async function scanRecordingAsync(bytes: Uint8Array, source: string, inflate: (chunk: DeflatedChunk) => Promise<InflatedChunk>, visit: Visit): Promise<RecordingScan> {
  const steps = scanSteps(bytes, source, visit);
  let step = steps.next();
  while (step.done !== true) step = steps.next(await inflate(step.value));
  return step.value;
}

/** Counts the records handed on, for the tail's message. */
class RecordCount {
  private records = 0;

  constructor(
    private readonly source: string,
    private readonly visit: Visit,
  ) {}

  readonly counted = (value: unknown): void => {
    this.records += 1;
    this.visit(value);
  };

  tail(kind: RecordingTail['kind']): RecordingTail {
    const kept = `${this.records} whole record${this.records === 1 ? '' : 's'} after the header`;
    return kind === 'truncated'
      ? { kind, message: `${this.source} ends with an incomplete record (cut off while writing); read ${kept}` }
      : { kind, message: `${this.source} has bytes that are not a record after ${kept}; the rest is ignored` };
  }
}

/** The reading itself, as steps that ask the caller to inflate each chunk (so one reader serves a synchronous and an asynchronous inflater). */
function* scanSteps(bytes: Uint8Array, source: string, visit: Visit): Generator<DeflatedChunk, RecordingScan, InflatedChunk> {
  const decoder = recordingDecoder();
  const { header, end } = readHeader(bytes, source, decoder);
  const count = new RecordCount(source, visit);
  if (header.compression === undefined) {
    // Records one after the other (version 1 files): a cut-off last one ends the reading.
    const ended = decodeValues(decoder, bytes.subarray(end), count.counted);
    const tail = ended === 'whole' ? null : count.tail(ended === 'cut' ? 'truncated' : 'corrupt');
    return { header, tail, recordBytes: bytes.length - end };
  }
  let recordBytes = 0;
  for (let pos = end; pos < bytes.length; ) {
    let chunk: { start: number; end: number } | undefined;
    try {
      chunk = binData(bytes, pos);
    } catch {
      return { header, tail: count.tail('truncated'), recordBytes }; // cut off inside the chunk's own header
    }
    if (chunk === undefined) return { header, tail: count.tail('corrupt'), recordBytes };
    // Cut off inside the chunk: its start still inflates to whole records.
    const cutOff = chunk.end > bytes.length;
    const inflated = yield { data: bytes.subarray(chunk.start, Math.min(chunk.end, bytes.length)), cutOff };
    // A whole chunk that does not inflate to whole records was not written by Companion.
    if (inflated === null && !cutOff) return { header, tail: count.tail('corrupt'), recordBytes };
    const records = inflated ?? new Uint8Array(0);
    const ended = decodeValues(decoder, records, count.counted);
    if (ended === 'corrupt' || (ended === 'cut' && !cutOff)) return { header, tail: count.tail('corrupt'), recordBytes };
    recordBytes += records.length;
    if (cutOff) return { header, tail: count.tail('truncated'), recordBytes };
    pos = chunk.end;
  }
  return { header, tail: null, recordBytes };
}

function readHeader(bytes: Uint8Array, source: string, decoder: Decoder): { header: HeaderRecord; end: number } {
  if (bytes.length === 0) throw new RecordingError(`${source} is empty: not a recording`, 'empty');
  let end: number;
  try {
    end = valueEnd(bytes, 0);
  } catch (error) {
    if (error instanceof IncompleteValueError) throw new RecordingError(`${source} is not a recording (it ends before its header is complete)`);
    throw new RecordingError(`${source} is not a recording (not MessagePack)`);
  }
  let value: unknown;
  try {
    value = decoder.decode(bytes.subarray(0, end));
  } catch {
    throw new RecordingError(`${source} is not a recording (not MessagePack)`);
  }
  return { header: asHeader(value, source), end };
}

/** A MessagePack map (not an array, not binary data). */
export function isRecordMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function asHeader(value: unknown, source: string): HeaderRecord {
  if (!isRecordMap(value) || value['kind'] !== 'header' || value['format'] !== RECORDING_FORMAT) {
    throw new RecordingError(`${source} is not a recording (it does not start with a ${RECORDING_FORMAT} header)`);
  }
  const version = value['version'];
  if (typeof version !== 'number' || version > RECORDING_VERSION) {
    const reason = typeof version === 'number' ? 'unsupported' : 'not-a-recording';
    throw new RecordingError(`${source} is a recording of format version ${String(version)}; this Companion reads version ${RECORDING_VERSION}`, reason);
  }
  const compression = value['compression'];
  if (compression !== undefined && compression !== RECORDING_COMPRESSION) {
    throw new RecordingError(`${source} is compressed with ${String(compression)}; this Companion reads ${RECORDING_COMPRESSION}`, 'unsupported');
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
