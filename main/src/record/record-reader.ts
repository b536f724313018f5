import { readFile } from 'node:fs/promises';
import { Decoder, ExtensionCodec } from '@msgpack/msgpack';
import { BODY_KINDS, JSON_PAYLOAD_EXT, RECORDING_FORMAT, RECORDING_VERSION, type BodyRecord, type HeaderRecord } from './record-format.js';

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
  if (bytes.length === 0) throw new RecordingError(`${source} is empty: not a recording`);
  const values = recordingDecoder().decodeMulti(bytes);
  let header: HeaderRecord | undefined;
  const records: BodyRecord[] = [];
  let skipped = 0;
  let tail: RecordingTail | null = null;
  try {
    for (const value of values) {
      if (header === undefined) {
        header = asHeader(value, source);
        continue;
      }
      const record = asBody(value);
      if (record === undefined) skipped += 1;
      else records.push(record);
    }
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    // RangeError: the last value is incomplete (a kill while writing). DecodeError: garbage.
    const truncated = error instanceof RangeError;
    if (header === undefined) {
      throw new RecordingError(
        truncated ? `${source} is not a recording (it ends before its header is complete)` : `${source} is not a recording (not MessagePack)`,
      );
    }
    const kept = `${records.length} whole record${records.length === 1 ? '' : 's'} after the header`;
    tail = truncated
      ? { kind: 'truncated', message: `${source} ends with an incomplete record (cut off while writing); read ${kept}` }
      : { kind: 'corrupt', message: `${source} has bytes that are not a record after ${kept}; the rest is ignored` };
  }
  if (header === undefined) throw new RecordingError(`${source} is not a recording (no header)`);
  return { header, records, skipped, tail };
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
  return {
    kind: 'header',
    format: RECORDING_FORMAT,
    version,
    companion: typeof value['companion'] === 'string' ? value['companion'] : 'unknown',
    started_at: typeof value['started_at'] === 'string' ? value['started_at'] : '',
    redacted: value['redacted'] !== false,
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
