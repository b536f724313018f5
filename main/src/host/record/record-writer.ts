import { open, type FileHandle } from 'node:fs/promises';
import { deflateRawSync, type ZlibOptions } from 'node:zlib';
import { MsgpackBuffer } from './msgpack-buffer.js';
import { RECORDING_COMPRESSION, type BodyRecord, type HeaderRecord } from '../../../../common/src/recording/recording-format.js';

/**
 * DEFLATE at its fastest level: a batch of records (repetitive JSON and MessagePack) shrinks
 * several times over for less than writing it out uncompressed would cost (in `npm run bench`'s
 * record phase on our CI machine, appending to a file costs about 3 ns of CPU per byte, level 1
 * about 0.5). memLevel 9: a little faster than the default 8 for the same size. It runs on the
 * event loop: a full batch (FLUSH_BYTES) takes about a millisecond, and on the thread pool the
 * same work was no cheaper per request in the bench (plus a hop to a worker and back).
 */
const DEFLATE_OPTIONS: ZlibOptions = { level: 1, memLevel: 9, chunkSize: 256 * 1024 };

/** Above this many encoded bytes waiting for the disk, new records are dropped (and counted). */
export const DEFAULT_MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/**
 * A batch waits at most this long before it is written, or until it holds FLUSH_BYTES. Each
 * write is a job on libuv's thread pool with a wake-up of the event loop when it is done;
 * batching by time (rather than once per event-loop turn) keeps that to 50 per second under
 * load, and a big batch compresses better and for less per byte. A kill loses at most this
 * much of the recording; the file stays readable.
 */
export const FLUSH_INTERVAL_MS = 20;
export const FLUSH_BYTES = 2 * 1024 * 1024;

export interface RecordWriterOptions {
  /** Redact secrets in frame payloads and gateway data while encoding (redactSecrets' rules). */
  readonly redact?: boolean;
  readonly maxBufferedBytes?: number;
  /** Called once when a write fails; the writer has stopped by then (later records are dropped). */
  readonly onError?: (error: Error) => void;
}

export interface RecordWriterStats {
  /** Records handed to the disk (header included). */
  readonly records: number;
  /** Bytes handed to the disk. */
  readonly bytes: number;
  /** Records dropped because the buffer was full or the writer had failed. */
  readonly dropped: number;
}

/**
 * Appends MessagePack records to a file, off the hot path: `append` encodes the record at once
 * (the caller's objects may change later) into the batch buffer, and the batch goes to the
 * disk in one write FLUSH_INTERVAL_MS later, or at once when it holds FLUSH_BYTES (one write
 * at a time: what comes during a write waits for the next batch). The header is written as it
 * is; when it says `compression`, each later batch is compressed and written as one chunk
 * (common/src/recording/recording-format.ts, RECORDING_COMPRESSION).
 * Each record is a whole MessagePack value, so a file cut off by a kill is readable up to the
 * last record that reached the disk. `close` writes everything still buffered.
 */
export class RecordWriter {
  private readonly batch = new MsgpackBuffer();
  private batchRecords = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private failed: Error | undefined;
  private written = 0;
  private writtenBytes = 0;
  private droppedCount = 0;
  /** Dropped since the last gap was reported in the file. */
  private unreportedGap = 0;
  private readonly maxBufferedBytes: number;

  private constructor(
    private readonly handle: FileHandle,
    readonly file: string,
    private readonly options: RecordWriterOptions,
    private readonly compressed: boolean,
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  }

  /** Creates (or truncates) `file`, mode 0600, and writes the header. */
  static async create(file: string, header: HeaderRecord, options: RecordWriterOptions = {}): Promise<RecordWriter> {
    const handle = await open(file, 'w', 0o600);
    const writer = new RecordWriter(handle, file, options, header.compression === RECORDING_COMPRESSION);
    // The header goes out on its own and uncompressed: any MessagePack reader can tell the file.
    writer.batch.append(header);
    writer.batchRecords = 1;
    await writer.flush(false);
    if (writer.failed !== undefined) {
      await handle.close().catch(() => undefined);
      throw writer.failed;
    }
    return writer;
  }

  get stats(): RecordWriterStats {
    return { records: this.written, bytes: this.writtenBytes, dropped: this.droppedCount };
  }

  get error(): Error | undefined {
    return this.failed;
  }

  /** Queues one record; never throws (an unencodable payload is recorded as such). */
  append(record: HeaderRecord | BodyRecord): void {
    if (!this.accepting(record.kind === 'header' ? undefined : record.t)) return;
    try {
      this.encode(record);
    } catch {
      this.droppedCount += 1;
      return;
    }
    this.batchRecords += 1;
    this.schedule();
  }

  /**
   * Whether a record may go into the batch: not after close or a failure, not above the
   * buffer limit (counted as dropped). After a gap, the first record accepted (at `t`) is
   * preceded by a gap record.
   */
  private accepting(t: number | undefined): boolean {
    if (this.closing || this.failed !== undefined) {
      this.droppedCount += 1;
      return false;
    }
    if (this.batch.length >= this.maxBufferedBytes) {
      this.droppedCount += 1;
      this.unreportedGap += 1;
      return false;
    }
    if (this.unreportedGap > 0 && t !== undefined) {
      this.batch.append({ kind: 'gap', t, dropped: this.unreportedGap });
      this.batchRecords += 1;
      this.unreportedGap = 0;
    }
    return true;
  }

  /**
   * A frame record, as append({kind: 'frame', ...}) would write it, without building the
   * record (the hot path). `json`: the payload's wire JSON, copied as it is when nothing in it
   * is to be redacted (MsgpackBuffer.appendFrame).
   */
  appendFrame(t: number, connection: string, transport: string, direction: 'in' | 'out', opcode: number, payload: unknown, json?: Uint8Array): void {
    if (!this.accepting(t)) return;
    try {
      this.batch.appendFrame(t, connection, transport, direction, opcode, payload, this.options.redact === true, json);
    } catch {
      try {
        this.encode({ kind: 'frame', t, connection, transport, direction, opcode, payload });
      } catch {
        this.droppedCount += 1;
        return;
      }
    }
    this.batchRecords += 1;
    this.schedule();
  }

  /** Writes what is buffered and closes the file. */
  async close(): Promise<void> {
    if (this.closing) return this.writing ?? Promise.resolve();
    this.closing = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.batchRecords > 0 && this.failed === undefined) await this.flush(this.compressed);
    await this.handle.close().catch(() => undefined);
  }

  private encode(record: HeaderRecord | BodyRecord): void {
    const secretField = this.options.redact !== true ? undefined : record.kind === 'frame' ? 'payload' : record.kind === 'gateway' ? 'data' : undefined;
    try {
      this.batch.append(record, secretField);
    } catch (error) {
      // A payload MessagePack cannot hold (not JSON-shaped): keep the record, say so.
      const placeholder = '[not encodable]';
      if (record.kind === 'frame') this.batch.append({ ...record, payload: placeholder });
      else if (record.kind === 'gateway') this.batch.append({ ...record, data: placeholder });
      else throw error;
    }
  }

  private schedule(): void {
    if (this.writing !== undefined) return;
    if (this.batch.length >= FLUSH_BYTES) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush(this.compressed);
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.writing === undefined && !this.closing && this.batchRecords > 0) void this.flush(this.compressed);
    }, FLUSH_INTERVAL_MS);
  }

  /**
   * One write of the whole batch (compressed into one chunk when `compress`); a batch that
   * filled meanwhile follows at once.
   */
  private flush(compress: boolean): Promise<void> {
    const count = this.batchRecords;
    const batch = this.batch.take();
    this.batchRecords = 0;
    let ready: Promise<Buffer>;
    try {
      ready = Promise.resolve(compress ? chunk(deflateRawSync(batch, DEFLATE_OPTIONS)) : batch);
    } catch (error) {
      ready = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const writing = ready.then(async (bytes) => {
      // The batch's buffer is free once compressed; written as it is, once written.
      if (compress) this.batch.recycle();
      await writeAll(this.handle, bytes);
      return bytes.length;
    }).then(
      (length) => {
        this.written += count;
        this.writtenBytes += length;
        if (!compress) this.batch.recycle();
        this.writing = undefined;
        // What came meanwhile waits for its own batch (a full one goes at once).
        if (this.batchRecords > 0 && this.failed === undefined && !this.closing) this.schedule();
        return undefined;
      },
      (error: unknown) => {
        this.writing = undefined;
        this.failed = error instanceof Error ? error : new Error(String(error));
        this.droppedCount += count + this.batchRecords;
        this.batch.take();
        this.batchRecords = 0;
        this.options.onError?.(this.failed);
      },
    );
    this.writing = writing;
    return writing;
  }
}

/** A compressed batch as a MessagePack `bin` value (bin 32: a batch can pass 64 KiB). */
function chunk(compressed: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + compressed.length);
  out[0] = 0xc6;
  out.writeUInt32BE(compressed.length, 1);
  compressed.copy(out, 5);
  return out;
}

/** Writes until every byte is written (a short write continues where it stopped). */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}
