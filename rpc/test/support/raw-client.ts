/* eslint-disable @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON replies */
import net from 'node:net';
import { encodeFrame, encodeRawFrame, FrameDecoder, Opcode } from '../../src/index.js';

export interface DecodedFrame {
  readonly opcode: number;
  readonly payload: any;
}

/** A framing-level client for tests: sends raw bytes or frames, awaits decoded frames. */
export class RawClient {
  readonly frames: DecodedFrame[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly decoder = new FrameDecoder(1 << 30);
  readonly closed: Promise<void>;
  private isClosed = false;
  /** Number of separate 'data' chunks received (to observe coalescing). */
  chunks = 0;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks += 1;
      for (const frame of this.decoder.push(chunk)) {
        const text = frame.body.toString('utf8');
        this.frames.push({ opcode: frame.opcode, payload: text.length === 0 ? null : JSON.parse(text) });
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(socketPath: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(socketPath);
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Connects and completes the handshake; resolves with the READY payload. */
  static async ready(socketPath: string, clientId = '123456789012345678'): Promise<{ client: RawClient; ready: any }> {
    const client = await RawClient.connect(socketPath);
    client.send(Opcode.Handshake, { v: 1, client_id: clientId });
    const ready = await client.next();
    return { client, ready: ready.payload };
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  send(opcode: number, payload: unknown): void {
    this.socket.write(encodeFrame(opcode, payload));
  }

  sendRaw(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  frame(opcode: number, body: string): Buffer {
    return encodeRawFrame(opcode, body);
  }

  private cursor = 0;

  /** The next frame not yet returned by next(); rejects after `timeoutMs`. */
  async next(timeoutMs = 2000): Promise<DecodedFrame> {
    const deadline = Date.now() + timeoutMs;
    while (this.cursor >= this.frames.length) {
      if (this.isClosed) throw new Error('connection closed before the next frame');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames[this.cursor++] as DecodedFrame;
  }

  /** Sends a command and returns its reply payload. */
  async request(cmd: string, args?: unknown, extra: Record<string, unknown> = {}): Promise<any> {
    const nonce = `n-${Math.random().toString(36).slice(2)}`;
    this.send(Opcode.Frame, { cmd, args, nonce, ...extra });
    const frame = await this.next();
    return frame.payload;
  }

  /**
   * The frames that arrive before the reply to a side-effect-free request (an unknown
   * command, answered 4002). Anything the server had queued for this client before the
   * request, events included, arrives first, so an empty result proves nothing was sent.
   */
  async framesBeforeBarrier(): Promise<DecodedFrame[]> {
    const nonce = `barrier-${Math.random().toString(36).slice(2)}`;
    this.send(Opcode.Frame, { cmd: 'BARRIER', nonce });
    const seen: DecodedFrame[] = [];
    for (;;) {
      const frame = await this.next();
      if (frame.payload?.nonce === nonce) return seen;
      seen.push(frame);
    }
  }

  /** Resolves true if nothing arrives within `ms`. */
  async silentFor(ms: number): Promise<boolean> {
    const before = this.frames.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.frames.length === before;
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
