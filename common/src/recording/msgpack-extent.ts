/**
 * Where a MessagePack value ends, without decoding it: what a recording reader needs to find
 * where the header ends and where each compressed chunk's data lies, so that a chunk cut off at
 * the end of the file can still be inflated as far as it goes (recording-scan.ts).
 */

/** The value starting at `offset` is not complete: the input ends inside it. */
export class IncompleteValueError extends RangeError {
  constructor() {
    super('the input ends inside a MessagePack value');
    this.name = 'IncompleteValueError';
  }
}

/** A byte that starts no MessagePack value (0xc1), at `offset`. */
export class InvalidValueError extends Error {
  constructor(readonly offset: number) {
    super(`no MessagePack value starts with the byte at ${offset}`);
    this.name = 'InvalidValueError';
  }
}

/** A value nested deeper than this is treated as invalid (nothing a recording writes comes near it). */
const MAX_DEPTH = 256;

/** The offset just after the MessagePack value that starts at `offset`. */
export function valueEnd(bytes: Uint8Array, offset: number): number {
  return skip(bytes, offset, 0);
}

function need(bytes: Uint8Array, end: number): number {
  if (end > bytes.length) throw new IncompleteValueError();
  return end;
}

function uint(bytes: Uint8Array, at: number, size: 1 | 2 | 4): number {
  need(bytes, at + size);
  if (size === 1) return bytes[at] as number;
  if (size === 2) return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
  return (bytes[at] as number) * 0x1000000 + (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
}

/** `count` values one after the other from `at` (a map of n entries is 2n values). */
function skipMany(bytes: Uint8Array, at: number, count: number, depth: number): number {
  let pos = at;
  for (let i = 0; i < count; i += 1) pos = skip(bytes, pos, depth + 1);
  return pos;
}

function skip(bytes: Uint8Array, offset: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new InvalidValueError(offset);
  need(bytes, offset + 1);
  const b = bytes[offset] as number;
  const next = offset + 1;
  if (b <= 0x7f || b >= 0xe0) return next; // fixint
  if (b <= 0x8f) return skipMany(bytes, next, (b & 0x0f) * 2, depth); // fixmap
  if (b <= 0x9f) return skipMany(bytes, next, b & 0x0f, depth); // fixarray
  if (b <= 0xbf) return need(bytes, next + (b & 0x1f)); // fixstr
  switch (b) {
    case 0xc0: // nil
    case 0xc2: // false
    case 0xc3: // true
      return next;
    case 0xc4: // bin 8
    case 0xd9: // str 8
      return need(bytes, next + 1 + uint(bytes, next, 1));
    case 0xc5: // bin 16
    case 0xda: // str 16
      return need(bytes, next + 2 + uint(bytes, next, 2));
    case 0xc6: // bin 32
    case 0xdb: // str 32
      return need(bytes, next + 4 + uint(bytes, next, 4));
    case 0xc7: // ext 8: length, type, data
      return need(bytes, next + 2 + uint(bytes, next, 1));
    case 0xc8: // ext 16
      return need(bytes, next + 3 + uint(bytes, next, 2));
    case 0xc9: // ext 32
      return need(bytes, next + 5 + uint(bytes, next, 4));
    case 0xca: // float 32
      return need(bytes, next + 4);
    case 0xcb: // float 64
      return need(bytes, next + 8);
    case 0xcc: // uint 8
    case 0xd0: // int 8
      return need(bytes, next + 1);
    case 0xcd: // uint 16
    case 0xd1: // int 16
      return need(bytes, next + 2);
    case 0xce: // uint 32
    case 0xd2: // int 32
      return need(bytes, next + 4);
    case 0xcf: // uint 64
    case 0xd3: // int 64
      return need(bytes, next + 8);
    case 0xd4: // fixext 1, 2, 4, 8, 16: type + data
      return need(bytes, next + 2);
    case 0xd5:
      return need(bytes, next + 3);
    case 0xd6:
      return need(bytes, next + 5);
    case 0xd7:
      return need(bytes, next + 9);
    case 0xd8:
      return need(bytes, next + 17);
    case 0xdc: // array 16
      return skipMany(bytes, next + 2, uint(bytes, next, 2), depth);
    case 0xdd: // array 32
      return skipMany(bytes, next + 4, uint(bytes, next, 4), depth);
    case 0xde: // map 16
      return skipMany(bytes, next + 2, uint(bytes, next, 2) * 2, depth);
    case 0xdf: // map 32
      return skipMany(bytes, next + 4, uint(bytes, next, 4) * 2, depth);
    default: // 0xc1: never used
      throw new InvalidValueError(offset);
  }
}

/** The data of a `bin` value at `offset` (its start and end), or undefined when the value there is not a bin. */
export function binData(bytes: Uint8Array, offset: number): { start: number; end: number } | undefined {
  const b = bytes[offset];
  const size = b === 0xc4 ? 1 : b === 0xc5 ? 2 : b === 0xc6 ? 4 : undefined;
  if (size === undefined) return undefined;
  const start = offset + 1 + size;
  return { start, end: start + uint(bytes, offset + 1, size) };
}
