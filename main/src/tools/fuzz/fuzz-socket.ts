import net from 'node:net';
import { encodeFrame, FrameDecoder, Opcode } from '../../../../rpc/src/index.js';

/** What came back for a frame. */
export type Outcome =
  | { readonly kind: 'frame'; readonly opcode: number; readonly payload: unknown }
  | { readonly kind: 'close'; readonly code: unknown; readonly message: unknown }
  /** The socket ended without a CLOSE frame. */
  | { readonly kind: 'ended' }
  | { readonly kind: 'timeout' }
  /** The host sent a frame that is not JSON. */
  | { readonly kind: 'undecodable'; readonly detail: string };

interface Received {
  readonly opcode: number;
  readonly payload: unknown;
  readonly undecodable?: string;
}

function isEvent(frame: Received, acceptReady: boolean): boolean {
  const payload = frame.payload as { cmd?: unknown; evt?: unknown } | null;
  if (frame.opcode !== Opcode.Frame || payload?.cmd !== 'DISPATCH') return false;
  return !(acceptReady && payload.evt === 'READY');
}

/**
 * One raw connection of the fuzz: writes bytes as given, and hands back what the host
 * answers, one frame at a time, skipping unsolicited events (DISPATCH).
 */
export class FuzzSocket {
  private readonly decoder = new FrameDecoder(1 << 30);
  private readonly queue: Received[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private closed = false;
  /** Events (DISPATCH) skipped so far. */
  events = 0;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static connect(path: string, timeoutMs = 5000): Promise<FuzzSocket> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(path);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to ${path} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new FuzzSocket(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Connects and completes a plain HANDSHAKE; resolves with the socket and READY's data. */
  static async ready(path: string, clientId: string, timeoutMs = 5000): Promise<{ socket: FuzzSocket; ready: { user?: { id?: unknown } } }> {
    const socket = await FuzzSocket.connect(path, timeoutMs);
    socket.write([encodeFrame(Opcode.Handshake, { v: 1, client_id: clientId })]);
    const outcome = await socket.next(timeoutMs, true);
    const payload = outcome.kind === 'frame' ? (outcome.payload as { evt?: unknown; data?: unknown }) : undefined;
    if (payload?.evt !== 'READY') {
      socket.destroy();
      throw new Error(`HANDSHAKE was not answered with READY: ${JSON.stringify(outcome)}`);
    }
    return { socket, ready: payload.data as { user?: { id?: unknown } } };
  }

  get open(): boolean {
    return !this.closed;
  }

  write(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) this.socket.write(chunk);
  }

  /** Writes each chunk in its own turn of the event loop, so they tend to arrive apart. */
  async writeApart(chunks: readonly Buffer[]): Promise<void> {
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      this.socket.write(chunk);
    }
  }

  /** Ends our side (the host sees the end of the stream). */
  end(): void {
    this.socket.end();
  }

  /** Sends a command and waits for its answer. */
  async request(cmd: string, args: unknown, timeoutMs = 10_000): Promise<Outcome> {
    this.write([encodeFrame(Opcode.Frame, { cmd, args, nonce: `setup-${cmd}` })]);
    return this.next(timeoutMs);
  }

  /** The next frame that is not an event (READY counts when `acceptReady`), or how the socket ended. */
  async next(timeoutMs: number, acceptReady = false): Promise<Outcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.head < this.queue.length) {
        const frame = this.queue[this.head++] as Received;
        if (this.head > 64) this.compact();
        if (frame.undecodable !== undefined) return { kind: 'undecodable', detail: frame.undecodable };
        if (isEvent(frame, acceptReady)) {
          this.events += 1;
          continue;
        }
        if (frame.opcode === Opcode.Close) {
          const payload = frame.payload as { code?: unknown; message?: unknown } | null;
          return { kind: 'close', code: payload?.code, message: payload?.message };
        }
        return { kind: 'frame', opcode: frame.opcode, payload: frame.payload };
      }
      if (this.closed) return { kind: 'ended' };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'timeout' };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private compact(): void {
    this.queue.splice(0, this.head);
    this.head = 0;
  }

  private onData(chunk: Buffer): void {
    let frames;
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.queue.push({ opcode: -1, payload: null, undecodable: error instanceof Error ? error.message : String(error) });
      this.socket.destroy();
      this.wake?.();
      return;
    }
    for (const frame of frames) {
      const text = frame.body.toString('utf8');
      try {
        this.queue.push({ opcode: frame.opcode, payload: text === '' ? null : JSON.parse(text) });
      } catch {
        this.queue.push({ opcode: frame.opcode, payload: null, undecodable: `opcode ${frame.opcode}: a body that is not JSON (${frame.body.length} bytes)` });
      }
    }
    this.wake?.();
  }
}
