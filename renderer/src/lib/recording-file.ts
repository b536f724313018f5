import { decodeMulti, ExtensionCodec } from '@msgpack/msgpack';
import type { FrameView } from '../../../preload/src/contract';

/**
 * Reads a recording (`companion serve --record`, or the inspector's Record button) in the
 * browser, for the inspector: a header, then MessagePack records one after the other. A file
 * cut off by a kill is read up to its last whole record. Only frame records become rows; the
 * host-side events (open, close, consent, gateway) stay in `companion record show`.
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

/**
 * A frame payload recorded as the JSON it went over the wire in (the recorder's extension type
 * 1, JSON_PAYLOAD_EXT in main/src/host/record/record-format.ts) decodes to its JSON value.
 */
const JSON_PAYLOAD_EXT = 1;
const utf8 = new TextDecoder();
const extensionCodec = new ExtensionCodec();
extensionCodec.register({
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

function text(value: unknown, max = 256): string | null {
  if (typeof value === 'string') return value.slice(0, max);
  return typeof value === 'number' ? String(value) : null;
}

/**
 * The bytes a chunk of a compressed recording inflates to (raw DEFLATE, the header's
 * `compression: 'deflate-raw'`). A chunk cut off by a kill gives what inflates before the cut,
 * with `cut` set.
 */
async function inflate(chunk: Uint8Array): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = new Blob([chunk as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts: Uint8Array[] = [];
  let cut = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch {
    cut = true;
  }
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, cut };
}

/**
 * A recording's records: the header, then every record in file order. In a compressed
 * recording (what Companion writes) the records after the header come in chunks, MessagePack
 * `bin` values of raw DEFLATE, inflated here one by one; in an older one they follow the
 * header as they are. A chunk cut off in the middle is left out (`companion record show`
 * reads its start too).
 */
async function* recordValues(bytes: Uint8Array, state: { truncated: boolean }): AsyncGenerator<unknown> {
  let compressed = false;
  let first = true;
  try {
    for (const value of decodeMulti(bytes, { extensionCodec })) {
      if (first) {
        first = false;
        compressed = typeof value === 'object' && value !== null && (value as Fields)['compression'] === 'deflate-raw';
        yield value;
        continue;
      }
      if (!compressed || !(value instanceof Uint8Array)) {
        yield value;
        continue;
      }
      const { bytes: inflated, cut } = await inflate(value);
      try {
        for (const record of decodeMulti(inflated, { extensionCodec })) yield record;
      } catch {
        state.truncated = true;
        return;
      }
      if (cut) {
        state.truncated = true;
        return;
      }
    }
  } catch (error) {
    if (first) throw new NotARecording('not MessagePack');
    if (error instanceof NotARecording) throw error;
    // A decode error after the header is a cut-off tail: keep what was read.
    state.truncated = true;
  }
}

export async function parseRecording(name: string, bytes: Uint8Array): Promise<LoadedRecording> {
  const frames: FrameView[] = [];
  let header: Fields | undefined;
  let otherRecords = 0;
  const state = { truncated: false };
  let start = 0;
  try {
    for await (const value of recordValues(bytes, state)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
        throw new NotARecording(`${name}: a record is not a map`);
      }
      const record = value as Fields;
      if (header === undefined) {
        if (record['kind'] !== 'header' || record['format'] !== 'companion-recording') throw new NotARecording(`${name} is not a Companion recording`);
        header = record;
        start = Date.parse(String(record['started_at']));
        if (!Number.isFinite(start)) start = 0;
        continue;
      }
      if (record['kind'] !== 'frame') {
        otherRecords += 1;
        continue;
      }
      const payload = record['payload'];
      const fields = typeof payload === 'object' && payload !== null ? (payload as Fields) : {};
      const t = typeof record['t'] === 'number' ? record['t'] : 0;
      frames.push({
        seq: frames.length + 1,
        connection_id: text(record['connection'], 64) ?? '?',
        direction: record['direction'] === 'out' ? 'out' : 'in',
        opcode: typeof record['opcode'] === 'number' ? record['opcode'] : -1,
        at: Math.round(start + t),
        cmd: text(fields['cmd']),
        evt: text(fields['evt']),
        nonce: text(fields['nonce']),
        payload,
      });
    }
  } catch (error) {
    if (error instanceof NotARecording && header !== undefined) throw error;
    throw new NotARecording(`${name} is not a Companion recording`);
  }
  if (header === undefined) throw new NotARecording(`${name} is empty`);
  return {
    name,
    companion: String(header['companion'] ?? '?'),
    startedAt: String(header['started_at'] ?? ''),
    redacted: header['redacted'] !== false,
    frames,
    otherRecords,
    truncated: state.truncated,
  };
}
