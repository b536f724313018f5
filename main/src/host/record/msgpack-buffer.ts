/**
 * A MessagePack encoder for JSON-shaped values, writing into one growing buffer: the
 * recorder's hot path. @msgpack/msgpack's Encoder allocates a copy per value and handles every
 * type MessagePack has; here values are what JSON.parse gives (or what JSON.stringify would
 * write: `undefined` and functions left out of objects, `toJSON` honoured), appended one after
 * the other with no per-value allocation, at about JSON.stringify's cost. What it writes is
 * plain MessagePack, read back with @msgpack/msgpack's decoder.
 *
 * A key named `__proto__` is written as `[__proto__]`: MessagePack readers refuse that key.
 *
 * Strings get the header their longest possible UTF-8 form needs (str8 for a 10-character
 * string that might take 30 bytes): valid MessagePack, a byte or two more than the minimum.
 */

import { holdsSecret, isSecretKey, isSecretValue, REDACTED } from './redact-secrets.js';
import { JSON_PAYLOAD_EXT } from '../../../../common/src/recording/recording-format.js';

/** How a `__proto__` key (JSON allows it, MessagePack readers do not) is written. */
export const PROTO_KEY = '[__proto__]';

/** A frame record's start: a map of 7 entries, `kind: 'frame'`, and the key `t`. */
const FRAME_PREFIX = Buffer.from([0x87, 0xa4, ...Buffer.from('kind'), 0xa5, ...Buffer.from('frame'), 0xa1, ...Buffer.from('t')]);

/** Connections whose frame fields are kept encoded (frameFields) before the cache starts over. */
const MAX_CACHED_CONNECTIONS = 1024;

/** Deeper values are refused (a cycle, or nothing a frame would hold). */
const MAX_DEPTH = 64;

/**
 * How a value is written: as it is; redacted as redactSecrets does (at the root of a payload,
 * where the RPC `nonce` is kept, or below it); or with every string replaced (under a secret
 * key). Redacting while encoding saves a second walk of each payload.
 */
const enum Mode {
  Plain,
  RedactRoot,
  Redact,
  AllStrings,
}

export class UnencodableValueError extends Error {
  constructor(what: string) {
    super(`cannot encode ${what} as MessagePack`);
    this.name = 'UnencodableValueError';
  }
}

export class MsgpackBuffer {
  private buffer: Buffer;
  private pos = 0;
  private redactField: string | undefined;
  /** The buffer behind the last take(), and one ready for reuse: two buffers take turns. */
  private lent: Buffer | undefined;
  private spare: Buffer | undefined;
  private readonly fieldsByConnection = new Map<string, { readonly transport: string; readonly bySlot: (Buffer | undefined)[] }>();

  constructor(private readonly initialSize = 256 * 1024) {
    this.buffer = Buffer.allocUnsafe(initialSize);
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.pos;
  }

  /**
   * Appends one value; on failure nothing of it stays in the buffer, and the error is thrown.
   * `redactField`: the top-level key (of a record) whose value is a payload to write with its
   * secrets redacted, exactly as redactSecrets would.
   */
  append(value: unknown, redactField?: string): void {
    const start = this.pos;
    this.redactField = redactField;
    try {
      this.value(value, 0, Mode.Plain);
    } catch (error) {
      this.pos = start;
      throw error instanceof RangeError && !(error instanceof UnencodableValueError) ? new UnencodableValueError('a value nested too deeply') : error;
    }
  }

  /**
   * A frame record (common/src/recording/recording-format.ts' FrameRecord, keys in that order), written field by
   * field without building the record: the recorder's hot path. `redact`: the payload's
   * secrets redacted as redactSecrets would. `json`: the payload's JSON as it went over the
   * wire; when nothing in the payload is to be redacted, those bytes are the payload
   * (a JSON_PAYLOAD_EXT extension) instead of encoding it value by value.
   */
  appendFrame(
    t: number,
    connection: string,
    transport: string,
    direction: 'in' | 'out',
    opcode: number,
    payload: unknown,
    redact: boolean,
    json?: Uint8Array,
  ): void {
    const start = this.pos;
    try {
      this.ensure(FRAME_PREFIX.length);
      this.buffer.set(FRAME_PREFIX, this.pos);
      this.pos += FRAME_PREFIX.length;
      this.number(t);
      const fields = this.frameFields(connection, transport, direction, opcode);
      this.ensure(fields.length);
      this.buffer.set(fields, this.pos);
      this.pos += fields.length;
      if (json !== undefined && json.length > 0 && !(redact && holdsSecret(payload, MAX_DEPTH))) this.ext(JSON_PAYLOAD_EXT, json);
      else this.value(payload, 1, redact ? Mode.RedactRoot : Mode.Plain);
    } catch (error) {
      this.pos = start;
      throw error instanceof RangeError && !(error instanceof UnencodableValueError) ? new UnencodableValueError('a value nested too deeply') : error;
    }
  }

  /**
   * A frame record's fields from `connection` to the key `payload`, encoded once per
   * connection, direction and opcode: they are the same for every frame of that kind.
   */
  private frameFields(connection: string, transport: string, direction: 'in' | 'out', opcode: number): Buffer {
    const slot = opcode * 2 + (direction === 'out' ? 1 : 0);
    let known = this.fieldsByConnection.get(connection);
    if (known === undefined || known.transport !== transport) {
      // Connections come and go: the cache starts over now and then rather than grow.
      if (this.fieldsByConnection.size >= MAX_CACHED_CONNECTIONS) this.fieldsByConnection.clear();
      known = { transport, bySlot: [] };
      this.fieldsByConnection.set(connection, known);
    }
    let fields = slot < 16 ? known.bySlot[slot] : undefined;
    if (fields === undefined) {
      const scratch = new MsgpackBuffer(256);
      scratch.string('connection');
      scratch.string(connection);
      scratch.string('transport');
      scratch.string(transport);
      scratch.string('direction');
      scratch.string(direction);
      scratch.string('opcode');
      scratch.number(opcode);
      scratch.string('payload');
      fields = Buffer.from(scratch.take());
      if (slot < 16) known.bySlot[slot] = fields;
    }
    return fields;
  }

  /**
   * The bytes written so far (a view of them); writing goes on in another buffer. The view
   * stays valid until `recycle()` says it is no longer needed (then its memory is reused).
   */
  take(): Buffer {
    const taken = this.buffer.subarray(0, this.pos);
    const spare = this.spare;
    this.lent = this.buffer;
    this.spare = undefined;
    this.buffer = spare !== undefined && spare.length >= Math.min(this.pos, this.initialSize) ? spare : Buffer.allocUnsafe(Math.max(this.initialSize, Math.min(this.pos, 16 * 1024 * 1024)));
    this.pos = 0;
    return taken;
  }

  /** The last view `take()` returned is done with (written out): its buffer is reused. */
  recycle(): void {
    if (this.lent !== undefined && this.lent.length <= 16 * 1024 * 1024) this.spare = this.lent;
    this.lent = undefined;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.pos + bytes));
    this.buffer.copy(next, 0, 0, this.pos);
    this.buffer = next;
  }

  private value(value: unknown, depth: number, mode: Mode): void {
    switch (typeof value) {
      case 'string':
        this.string(mode === Mode.AllStrings ? REDACTED : value);
        return;
      case 'number':
        this.number(value);
        return;
      case 'boolean':
        this.byte(value ? 0xc3 : 0xc2);
        return;
      case 'object':
        if (value === null) this.byte(0xc0);
        else this.object(value, depth, mode);
        return;
      case 'bigint':
        throw new UnencodableValueError('a bigint');
      default:
        // undefined, a function or a symbol where a value must be (an array item, the top): null, as JSON.
        this.byte(0xc0);
    }
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buffer[this.pos++] = b;
  }

  private number(n: number): void {
    this.ensure(9);
    const buf = this.buffer;
    if (Number.isInteger(n) && n >= -0x80000000 && n <= 0xffffffff) {
      if (n >= 0) {
        if (n < 0x80) buf[this.pos++] = n;
        else if (n < 0x100) {
          buf[this.pos++] = 0xcc;
          buf[this.pos++] = n;
        } else if (n < 0x10000) {
          buf[this.pos] = 0xcd;
          buf.writeUInt16BE(n, this.pos + 1);
          this.pos += 3;
        } else {
          buf[this.pos] = 0xce;
          buf.writeUInt32BE(n, this.pos + 1);
          this.pos += 5;
        }
      } else if (n >= -32) {
        buf[this.pos++] = n & 0xff;
      } else if (n >= -0x80) {
        buf[this.pos++] = 0xd0;
        buf.writeInt8(n, this.pos++);
      } else if (n >= -0x8000) {
        buf[this.pos] = 0xd1;
        buf.writeInt16BE(n, this.pos + 1);
        this.pos += 3;
      } else {
        buf[this.pos] = 0xd2;
        buf.writeInt32BE(n, this.pos + 1);
        this.pos += 5;
      }
      return;
    }
    if (!Number.isFinite(n)) {
      // JSON has no NaN or Infinity: null, as JSON.stringify writes them.
      buf[this.pos++] = 0xc0;
      return;
    }
    // Large integers (timestamps in ms) and fractions: float64, exact for every JS number.
    buf[this.pos] = 0xcb;
    buf.writeDoubleBE(n, this.pos + 1);
    this.pos += 9;
  }

  private string(s: string): void {
    const chars = s.length;
    const max = chars * 3;
    let header: number;
    if (max < 32) header = 1;
    else if (max < 0x100) header = 2;
    else if (max < 0x10000) header = 3;
    else header = 5;
    this.ensure(header + max);
    const buf = this.buffer;
    const start = this.pos + header;
    let bytes: number;
    if (chars < 64) {
      // Short strings: a plain loop beats the native call while they are ASCII.
      let i = 0;
      for (; i < chars; i += 1) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + i] = c;
      }
      bytes = i === chars ? chars : buf.write(s, start, 'utf8');
    } else {
      bytes = buf.write(s, start, 'utf8');
    }
    const at = this.pos;
    if (header === 1) buf[at] = 0xa0 | bytes;
    else if (header === 2) {
      buf[at] = 0xd9;
      buf[at + 1] = bytes;
    } else if (header === 3) {
      buf[at] = 0xda;
      buf.writeUInt16BE(bytes, at + 1);
    } else {
      buf[at] = 0xdb;
      buf.writeUInt32BE(bytes, at + 1);
    }
    this.pos = start + bytes;
  }

  private object(value: object, depth: number, mode: Mode): void {
    if (depth >= MAX_DEPTH) throw new UnencodableValueError('a value nested too deeply');
    if (Array.isArray(value)) {
      this.header(value.length, 0x90, 0xdc, 0xdd);
      const itemMode = mode === Mode.RedactRoot ? Mode.Redact : mode;
      for (const item of value) this.value(item, depth + 1, itemMode);
      return;
    }
    if (value instanceof Uint8Array) {
      this.bin(value);
      return;
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      this.value((toJSON as () => unknown).call(value), depth + 1, mode);
      return;
    }
    const record = value as Record<string, unknown>;
    // One pass over the keys (for-in: no key array): room for a fixmap header, filled in once
    // the entries are counted; a map of 16 entries or more moves over for its longer header.
    const at = this.pos;
    this.ensure(1);
    this.pos += 1;
    let count = 0;
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      const item = record[key];
      if (!isWritten(item)) continue;
      count += 1;
      // MessagePack readers refuse the key __proto__ (it would set an object's prototype).
      this.string(key === '__proto__' ? PROTO_KEY : key);
      const itemMode = mode === Mode.Plain ? (depth === 0 && key === this.redactField ? Mode.RedactRoot : Mode.Plain) : childMode(mode, key, item);
      this.value(item, depth + 1, itemMode);
    }
    if (count < 16) {
      this.buffer[at] = 0x80 | count;
      return;
    }
    const extra = count < 0x10000 ? 2 : 4;
    this.ensure(extra);
    const buf = this.buffer;
    buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    this.pos += extra;
    if (extra === 2) {
      buf[at] = 0xde;
      buf.writeUInt16BE(count, at + 1);
    } else {
      buf[at] = 0xdf;
      buf.writeUInt32BE(count, at + 1);
    }
  }

  private header(count: number, fix: number, x16: number, x32: number): void {
    this.ensure(5);
    const buf = this.buffer;
    if (count < 16) buf[this.pos++] = fix | count;
    else if (count < 0x10000) {
      buf[this.pos] = x16;
      buf.writeUInt16BE(count, this.pos + 1);
      this.pos += 3;
    } else {
      buf[this.pos] = x32;
      buf.writeUInt32BE(count, this.pos + 1);
      this.pos += 5;
    }
  }

  /** An ext value: ext 8/16/32 (0xc7-0xc9), then its type byte and data. */
  private ext(type: number, bytes: Uint8Array): void {
    this.ensure(6 + bytes.length);
    this.lengthPrefix(bytes.length, 0xc7);
    this.buffer[this.pos++] = type;
    this.raw(bytes);
  }

  /** A bin value: bin 8/16/32 (0xc4-0xc6), then its data. */
  private bin(bytes: Uint8Array): void {
    this.ensure(5 + bytes.length);
    this.lengthPrefix(bytes.length, 0xc4);
    this.raw(bytes);
  }

  /** The marker of the 8-bit form (`first`; the 16- and 32-bit forms follow it) and the length `n`. */
  private lengthPrefix(n: number, first: number): void {
    const buf = this.buffer;
    if (n < 0x100) {
      buf[this.pos++] = first;
      buf[this.pos++] = n;
    } else if (n < 0x10000) {
      buf[this.pos] = first + 1;
      buf.writeUInt16BE(n, this.pos + 1);
      this.pos += 3;
    } else {
      buf[this.pos] = first + 2;
      buf.writeUInt32BE(n, this.pos + 1);
      this.pos += 5;
    }
  }

  private raw(bytes: Uint8Array): void {
    this.buffer.set(bytes, this.pos);
    this.pos += bytes.length;
  }
}

/** How the value under `key` is written, given its parent's (redacting) mode. */
function childMode(mode: Mode, key: string, item: unknown): Mode {
  if (mode === Mode.AllStrings) return Mode.AllStrings;
  // The payload's own RPC nonce pairs a command with its reply: kept.
  if (mode === Mode.RedactRoot && key === 'nonce') return Mode.Plain;
  return isSecretKey(key) && isSecretValue(item) ? Mode.AllStrings : Mode.Redact;
}

/** What JSON.stringify keeps in an object: not undefined, functions or symbols. */
function isWritten(value: unknown): boolean {
  const type = typeof value;
  return type !== 'undefined' && type !== 'function' && type !== 'symbol';
}
