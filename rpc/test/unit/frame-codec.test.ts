import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_MAX_INBOUND_PAYLOAD,
  encodeFrame,
  encodeRawFrame,
  FrameDecoder,
  FrameTooLargeError,
  HEADER_SIZE,
  type RawFrame,
} from '../../src/index.js';

const GIB = 1024 * 1024 * 1024;

function header(opcode: number, length: number): Buffer {
  const buf = Buffer.alloc(HEADER_SIZE);
  buf.writeUInt32LE(opcode, 0);
  buf.writeUInt32LE(length, 4);
  return buf;
}

/** Splits `stream` at the given cut points (any order, duplicates and out-of-range ignored). */
function splitAt(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < stream.length))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(stream.subarray(start, point));
    start = point;
  }
  chunks.push(stream.subarray(start));
  return chunks;
}

function bytewise(stream: Buffer): Buffer[] {
  return Array.from({ length: stream.length }, (_, i) => stream.subarray(i, i + 1));
}

/** Feeds every chunk, returning plain copies of the decoded frames. */
function feed(decoder: FrameDecoder, chunks: readonly Buffer[]): Array<{ opcode: number; body: Buffer }> {
  const out: Array<{ opcode: number; body: Buffer }> = [];
  for (const chunk of chunks) {
    for (const frame of decoder.push(chunk)) out.push({ opcode: frame.opcode, body: Buffer.from(frame.body) });
  }
  return out;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('encodeFrame / encodeRawFrame', () => {
  it('writes opcode and UTF-8 byte length as uint32 LE, then the JSON body, in one buffer', () => {
    const payload = { v: 1, client_id: '123456789012345678', note: 'héllo 😀' };
    const frame = encodeFrame(0, payload);
    const json = JSON.stringify(payload);
    const byteLength = Buffer.byteLength(json, 'utf8');
    expect(byteLength).toBeGreaterThan(json.length); // multibyte text: bytes, not UTF-16 units
    expect(frame.length).toBe(HEADER_SIZE + byteLength);
    expect(frame.readUInt32LE(0)).toBe(0);
    expect(frame.readUInt32LE(4)).toBe(byteLength);
    expect(frame.subarray(HEADER_SIZE).toString('utf8')).toBe(json);
  });

  it('matches the byte layout of the documented CLOSE frame {"code":4000,"message":"Invalid Client ID"}', () => {
    const frame = encodeFrame(2, { code: 4000, message: 'Invalid Client ID' });
    expect(frame.subarray(0, 8)).toEqual(Buffer.from([2, 0, 0, 0, 43, 0, 0, 0]));
    expect(frame.length).toBe(8 + 43);
  });

  it('encodes an undefined payload as the JSON text null', () => {
    const frame = encodeFrame(1, undefined);
    expect(frame.readUInt32LE(4)).toBe(4);
    expect(frame.subarray(HEADER_SIZE).toString('utf8')).toBe('null');
  });

  it('encodes raw string and byte bodies, including an empty body', () => {
    const fromString = encodeRawFrame(3, '');
    expect(fromString).toEqual(header(3, 0));

    const bytes = new Uint8Array([0x7b, 0x7d, 0xff]);
    const fromBytes = encodeRawFrame(4, bytes);
    expect(fromBytes.readUInt32LE(0)).toBe(4);
    expect(fromBytes.readUInt32LE(4)).toBe(3);
    expect([...fromBytes.subarray(HEADER_SIZE)]).toEqual([0x7b, 0x7d, 0xff]);

    const emoji = encodeRawFrame(1, '😀');
    expect(emoji.readUInt32LE(4)).toBe(4);
    expect(emoji.subarray(HEADER_SIZE).toString('utf8')).toBe('😀');
  });
});

describe('FrameDecoder: reassembly (property-based)', () => {
  const emoji = fc.constantFrom('😀', '👨‍👩‍👧‍👦', '🇫🇷', 'é', '日本語', '\u0000', '\u2028', '"\\');
  const payloadArb: fc.Arbitrary<{ body: string }> = fc.oneof(
    fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 }).map((value) => ({ body: JSON.stringify(value) })),
    fc.array(emoji, { maxLength: 8 }).map((parts) => ({ body: JSON.stringify({ text: parts.join('') }) })),
    fc.constant({ body: '' }),
  );
  const frameArb = fc.record({ opcode: fc.integer({ min: 0, max: 4 }), body: payloadArb.map((p) => p.body) });
  const framesArb = fc.array(frameArb, { maxLength: 12 });

  function encodeAll(frames: ReadonlyArray<{ opcode: number; body: string }>): Buffer {
    return Buffer.concat(frames.map((frame) => encodeRawFrame(frame.opcode, frame.body)));
  }

  function expectSameFrames(
    decoded: ReadonlyArray<{ opcode: number; body: Buffer }>,
    frames: ReadonlyArray<{ opcode: number; body: string }>,
  ): void {
    expect(decoded.map((frame) => frame.opcode)).toEqual(frames.map((frame) => frame.opcode));
    expect(decoded.map((frame) => frame.body.toString('utf8'))).toEqual(frames.map((frame) => frame.body));
    for (const [i, frame] of decoded.entries()) {
      const expected = frames[i];
      if (expected === undefined) throw new Error('more frames decoded than encoded');
      expect(frame.body.equals(Buffer.from(expected.body, 'utf8'))).toBe(true);
      if (expected.body !== '') expect(JSON.parse(frame.body.toString('utf8'))).toEqual(JSON.parse(expected.body));
    }
  }

  it('yields the same frames in order for arbitrary split points', () => {
    fc.assert(
      fc.property(framesArb, fc.array(fc.nat({ max: 4096 }), { maxLength: 40 }), (frames, cuts) => {
        const stream = encodeAll(frames);
        const decoder = new FrameDecoder(1 << 20);
        const decoded = feed(decoder, splitAt(stream, cuts));
        expectSameFrames(decoded, frames);
        expect(decoder.buffered).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('yields the same frames when the stream arrives all in one chunk', () => {
    fc.assert(
      fc.property(framesArb, (frames) => {
        const decoder = new FrameDecoder(1 << 20);
        expectSameFrames(feed(decoder, [encodeAll(frames)]), frames);
        expect(decoder.buffered).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('yields the same frames when the stream arrives one byte at a time', () => {
    fc.assert(
      fc.property(framesArb, (frames) => {
        const stream = encodeAll(frames);
        const decoder = new FrameDecoder(1 << 20);
        const decoded = feed(decoder, bytewise(stream));
        expectSameFrames(decoded, frames);
        expect(decoder.buffered).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('reports every frame exactly when its last byte arrives, and buffered counts the pending bytes', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { minLength: 1, maxLength: 6 }), (frames) => {
        const encoded = frames.map((frame) => encodeRawFrame(frame.opcode, frame.body));
        const stream = Buffer.concat(encoded);
        const ends = new Set<number>();
        let end = 0;
        for (const frame of encoded) {
          end += frame.length;
          ends.add(end);
        }
        const decoder = new FrameDecoder(1 << 20);
        let lastEnd = 0;
        for (let i = 0; i < stream.length; i += 1) {
          const out = decoder.push(stream.subarray(i, i + 1));
          const position = i + 1;
          if (ends.has(position)) {
            expect(out.length).toBe(1);
            lastEnd = position;
          } else {
            expect(out).toEqual([]);
          }
          expect(decoder.buffered).toBe(position - lastEnd);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('handles empty chunks anywhere in the stream', () => {
    const frames = [
      { opcode: 1, body: '{"a":1}' },
      { opcode: 3, body: '' },
    ];
    const stream = encodeAll(frames);
    const empty = Buffer.alloc(0);
    const decoder = new FrameDecoder();
    const decoded = feed(decoder, [empty, stream.subarray(0, 5), empty, stream.subarray(5), empty]);
    expectSameFrames(decoded, frames);
    expect(decoder.buffered).toBe(0);
  });
});

describe('FrameDecoder: zero-length bodies', () => {
  it('decodes a length-0 frame as a frame with an empty body', () => {
    const decoder = new FrameDecoder();
    const frames = decoder.push(header(1, 0));
    expect(frames).toHaveLength(1);
    const frame = frames[0] as RawFrame;
    expect(frame.opcode).toBe(1);
    expect(frame.body.length).toBe(0);
    expect(decoder.buffered).toBe(0);
  });

  it('decodes several coalesced length-0 frames, and one split across chunks', () => {
    const decoder = new FrameDecoder();
    const stream = Buffer.concat([header(3, 0), header(4, 0), header(1, 0)]);
    expect(decoder.push(stream).map((frame) => [frame.opcode, frame.body.length])).toEqual([
      [3, 0],
      [4, 0],
      [1, 0],
    ]);
    expect(decoder.push(header(2, 0).subarray(0, 5))).toEqual([]);
    expect(decoder.buffered).toBe(5);
    const rest = decoder.push(header(2, 0).subarray(5));
    expect(rest.map((frame) => [frame.opcode, frame.body.length])).toEqual([[2, 0]]);
    expect(decoder.buffered).toBe(0);
  });
});

describe('FrameDecoder: size cap', () => {
  it('defaults to a 64 KiB cap', () => {
    expect(DEFAULT_MAX_INBOUND_PAYLOAD).toBe(64 * 1024);
    expect(new FrameDecoder().maxPayload).toBe(DEFAULT_MAX_INBOUND_PAYLOAD);
  });

  it('throws FrameTooLargeError as soon as a header announcing 1 GiB arrives, before any body', () => {
    const decoder = new FrameDecoder();
    const error = catchError(() => decoder.push(header(1, GIB)));
    expect(error).toBeInstanceOf(FrameTooLargeError);
    expect(error).toBeInstanceOf(Error);
    const tooLarge = error as FrameTooLargeError;
    expect(tooLarge.name).toBe('FrameTooLargeError');
    expect(tooLarge.length).toBe(GIB);
    expect(tooLarge.max).toBe(DEFAULT_MAX_INBOUND_PAYLOAD);
    expect(tooLarge.message).toContain(String(GIB));
  });

  it.each([1, 2, 3, 4, 5, 6, 7])('throws on the 1 GiB header split after byte %i, once the header completes', (cut) => {
    const bytes = header(1, GIB);
    const decoder = new FrameDecoder();
    expect(decoder.push(bytes.subarray(0, cut))).toEqual([]);
    expect(() => decoder.push(bytes.subarray(cut))).toThrow(FrameTooLargeError);
  });

  it('throws on the 1 GiB header delivered one byte at a time, on the 8th byte', () => {
    const bytes = header(0, GIB);
    const decoder = new FrameDecoder();
    for (let i = 0; i < HEADER_SIZE - 1; i += 1) expect(decoder.push(bytes.subarray(i, i + 1))).toEqual([]);
    expect(() => decoder.push(bytes.subarray(HEADER_SIZE - 1))).toThrow(FrameTooLargeError);
  });

  it('throws on an oversize header that follows a complete frame in the same chunk', () => {
    const decoder = new FrameDecoder(1024);
    const chunk = Buffer.concat([encodeFrame(1, { ok: true }), header(1, GIB)]);
    expect(() => decoder.push(chunk)).toThrow(FrameTooLargeError);
  });

  it('throws on an oversize header that arrives in the chunk completing a pending frame', () => {
    const decoder = new FrameDecoder(1024);
    const first = encodeFrame(1, { ok: true });
    expect(decoder.push(first.subarray(0, 10))).toEqual([]);
    expect(() => decoder.push(Buffer.concat([first.subarray(10), header(1, 2048)]))).toThrow(FrameTooLargeError);
  });

  it('accepts a payload of exactly the cap and rejects cap + 1 at the header', () => {
    const cap = 1024;
    const atCap = encodeRawFrame(1, new Uint8Array(cap).fill(0x61));
    const decoder = new FrameDecoder(cap);
    const frames = decoder.push(atCap);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.body.length).toBe(cap);

    const error = catchError(() => new FrameDecoder(cap).push(header(1, cap + 1)));
    expect(error).toBeInstanceOf(FrameTooLargeError);
    expect((error as FrameTooLargeError).length).toBe(cap + 1);
    expect((error as FrameTooLargeError).max).toBe(cap);
  });

  it('applies the default cap exactly: 65536 accepted, 65537 rejected', () => {
    const decoder = new FrameDecoder();
    const atCap = encodeRawFrame(1, new Uint8Array(DEFAULT_MAX_INBOUND_PAYLOAD));
    expect(decoder.push(atCap).map((frame) => frame.body.length)).toEqual([DEFAULT_MAX_INBOUND_PAYLOAD]);
    expect(() => decoder.push(header(1, DEFAULT_MAX_INBOUND_PAYLOAD + 1))).toThrow(FrameTooLargeError);
  });

  it('accepts a payload at the cap when it arrives in pieces', () => {
    const cap = 300;
    const body = Buffer.alloc(cap, 0x62);
    const frame = encodeRawFrame(3, body);
    const decoder = new FrameDecoder(cap);
    const decoded = feed(decoder, splitAt(frame, [3, 8, 9, 150, 307]));
    expect(decoded).toHaveLength(1);
    expect(decoded[0]?.body.equals(body)).toBe(true);
    expect(decoder.buffered).toBe(0);
  });
});

describe('FrameDecoder: cost of trickled input', () => {
  it('decodes a 64 KiB frame fed one byte at a time, joining the pieces only once', () => {
    const body = Buffer.alloc(DEFAULT_MAX_INBOUND_PAYLOAD);
    for (let i = 0; i < body.length; i += 1) body[i] = 0x20 + (i % 90);
    const frame = encodeRawFrame(1, body);
    const concat = vi.spyOn(Buffer, 'concat');
    const decoder = new FrameDecoder();
    const decoded: RawFrame[] = [];
    for (let i = 0; i < frame.length; i += 1) decoded.push(...decoder.push(frame.subarray(i, i + 1)));
    expect(decoded).toHaveLength(1);
    expect(decoded[0]?.opcode).toBe(1);
    expect(decoded[0]?.body.equals(body)).toBe(true);
    expect(decoder.buffered).toBe(0);
    // One join to read the split header, one to assemble the frame: not one per byte.
    expect(concat.mock.calls.length).toBeLessThanOrEqual(2);
  });
});
