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
    /** Complete frames that came before the oversize header in the same input. */
    readonly frames: readonly RawFrame[] = [],
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

/** A frame whose body is `head + middle + tail`, all pure ASCII, copied in without joining them first. */
export function asciiFrameOf(opcode: number, head: string, middle: string, tail: string): Buffer {
  const length = head.length + middle.length + tail.length;
  const frame = Buffer.allocUnsafe(HEADER_SIZE + length);
  frame.writeUInt32LE(opcode, 0);
  frame.writeUInt32LE(length, 4);
  frame.write(head, HEADER_SIZE, 'latin1');
  frame.write(middle, HEADER_SIZE + head.length, 'latin1');
  frame.write(tail, HEADER_SIZE + head.length + middle.length, 'latin1');
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
 * or several frames coalesced) and it returns the complete frames. Frames wholly inside a
 * chunk are returned as views of it, without copying. A frame cut by a chunk boundary is
 * copied once into a buffer of exactly its size, allocated when its header is complete, so
 * input that trickles in costs no more memory than the frame itself. An announced length
 * above the cap throws FrameTooLargeError before any of the body is buffered; the error
 * carries the frames decoded before it.
 */
export class FrameDecoder {
  private readonly header = Buffer.alloc(HEADER_SIZE);
  private headerFill = 0;
  private opcode = 0;
  /** Body of the frame being assembled, once its header is complete. */
  private body: Buffer | null = null;
  private bodyFill = 0;

  constructor(readonly maxPayload: number = DEFAULT_MAX_INBOUND_PAYLOAD) {}

  /** Bytes held for a frame that is not complete yet. */
  get buffered(): number {
    return this.body === null ? this.headerFill : HEADER_SIZE + this.bodyFill;
  }

  push(chunk: Buffer): RawFrame[] {
    const frames: RawFrame[] = [];
    let offset = 0;

    if (this.headerFill > 0 || this.body !== null) {
      if (this.body === null) {
        const take = Math.min(HEADER_SIZE - this.headerFill, chunk.length);
        chunk.copy(this.header, this.headerFill, 0, take);
        this.headerFill += take;
        offset = take;
        if (this.headerFill < HEADER_SIZE) return frames;
        this.opcode = this.header.readUInt32LE(0);
        this.body = Buffer.allocUnsafe(this.checkedLength(this.header.readUInt32LE(4), frames));
        this.bodyFill = 0;
      }
      const body = this.body;
      const take = Math.min(body.length - this.bodyFill, chunk.length - offset);
      chunk.copy(body, this.bodyFill, offset, offset + take);
      this.bodyFill += take;
      offset += take;
      if (this.bodyFill < body.length) return frames;
      frames.push({ opcode: this.opcode, body });
      this.body = null;
      this.headerFill = 0;
    }

    while (chunk.length - offset >= HEADER_SIZE) {
      const opcode = chunk.readUInt32LE(offset);
      const length = this.checkedLength(chunk.readUInt32LE(offset + 4), frames);
      const end = offset + HEADER_SIZE + length;
      if (end > chunk.length) {
        // The frame continues in a later chunk: keep its start in a buffer of its size.
        this.opcode = opcode;
        this.headerFill = HEADER_SIZE;
        this.body = Buffer.allocUnsafe(length);
        this.bodyFill = chunk.copy(this.body, 0, offset + HEADER_SIZE);
        return frames;
      }
      frames.push({ opcode, body: chunk.subarray(offset + HEADER_SIZE, end) });
      offset = end;
    }
    if (offset < chunk.length) this.headerFill = chunk.copy(this.header, 0, offset);
    return frames;
  }

  private checkedLength(length: number, decoded: readonly RawFrame[]): number {
    if (length > this.maxPayload) throw new FrameTooLargeError(length, this.maxPayload, decoded);
    return length;
  }
}
