import { Buffer } from 'node:buffer';

/** 4 bytes opcode + 4 bytes payload length, both uint32 little-endian. */
export const HEADER_SIZE = 8;

/**
 * Default cap on an inbound payload. Clients send at most 16 KiB (the C library's
 * MaxMessageSize); 64 KiB leaves room for any real activity and bounds memory per
 * connection.
 */
export const DEFAULT_MAX_INBOUND_PAYLOAD = 64 * 1024;

export interface RawFrame {
  readonly opcode: number;
  readonly body: Buffer;
}

export class FrameTooLargeError extends Error {
  constructor(
    readonly length: number,
    readonly max: number,
  ) {
    super(`frame payload of ${length} bytes exceeds the limit of ${max} bytes`);
    this.name = 'FrameTooLargeError';
  }
}

/** Header and body in one buffer, so the caller can write the frame with a single write. */
export function encodeFrame(opcode: number, payload: unknown): Buffer {
  return encodeRawFrame(opcode, JSON.stringify(payload) ?? 'null');
}

/** For a body known to be pure ASCII: its length is its byte length, copied as latin1. */
export function encodeAsciiFrame(opcode: number, body: string): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_SIZE + body.length);
  frame.writeUInt32LE(opcode, 0);
  frame.writeUInt32LE(body.length, 4);
  frame.write(body, HEADER_SIZE, 'latin1');
  return frame;
}

export function encodeRawFrame(opcode: number, body: string | Uint8Array): Buffer {
  if (typeof body === 'string') {
    const length = Buffer.byteLength(body, 'utf8');
    const frame = Buffer.allocUnsafe(HEADER_SIZE + length);
    frame.writeUInt32LE(opcode, 0);
    frame.writeUInt32LE(length, 4);
    frame.write(body, HEADER_SIZE, 'utf8');
    return frame;
  }
  const frame = Buffer.allocUnsafe(HEADER_SIZE + body.length);
  frame.writeUInt32LE(opcode, 0);
  frame.writeUInt32LE(body.length, 4);
  frame.set(body, HEADER_SIZE);
  return frame;
}

/**
 * Incremental decoder: feed it chunks exactly as the socket delivers them (split anywhere,
 * or several frames coalesced) and it returns the complete frames. Partial input is kept
 * as a list of chunks and joined once, when the whole frame is there, so a frame that
 * trickles in byte by byte costs one copy. An announced length above the cap throws
 * before any of the body is buffered.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Total bytes (header + body) of the frame at the head of `chunks`, once its header is known. */
  private expected = 0;

  constructor(readonly maxPayload: number = DEFAULT_MAX_INBOUND_PAYLOAD) {}

  /** Bytes held for a frame that is not complete yet. */
  get buffered(): number {
    return this.size;
  }

  push(chunk: Buffer): RawFrame[] {
    let buf = chunk;
    if (this.size > 0) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      if (this.expected === 0) {
        if (this.size < HEADER_SIZE) return [];
        this.expected = HEADER_SIZE + this.checkedLength(this.peekHeaderLength());
      }
      if (this.size < this.expected) return [];
      buf = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      this.size = 0;
      this.expected = 0;
    }

    const frames: RawFrame[] = [];
    let offset = 0;
    while (buf.length - offset >= HEADER_SIZE) {
      const opcode = buf.readUInt32LE(offset);
      const length = this.checkedLength(buf.readUInt32LE(offset + 4));
      const end = offset + HEADER_SIZE + length;
      if (end > buf.length) {
        this.expected = HEADER_SIZE + length;
        break;
      }
      frames.push({ opcode, body: buf.subarray(offset + HEADER_SIZE, end) });
      offset = end;
    }
    if (offset < buf.length) {
      const rest = buf.subarray(offset);
      this.chunks = [rest];
      this.size = rest.length;
    }
    return frames;
  }

  private checkedLength(length: number): number {
    if (length > this.maxPayload) throw new FrameTooLargeError(length, this.maxPayload);
    return length;
  }

  private peekHeaderLength(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= HEADER_SIZE) return first.readUInt32LE(4);
    return Buffer.concat(this.chunks, this.size).readUInt32LE(4);
  }
}
