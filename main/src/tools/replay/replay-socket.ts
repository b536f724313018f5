import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { encodeFrame, encodeRawFrame, FrameDecoder, Opcode } from '../../../../rpc/src/index.js';

/** A frame the host sent, decoded, with when it arrived (ms on the replay's clock). */
export interface ReceivedFrame {
  readonly t: number;
  readonly opcode: number;
  readonly payload: unknown;
}

/**
 * The game's end of one replayed connection: a plain IPC socket that writes frames exactly as
 * given (one write each, as the client libraries do) and collects every frame the host sends.
 * It answers nothing by itself except PING (with PONG, as every client does).
 */
export class ReplaySocket {
  readonly received: ReceivedFrame[] = [];
  private readonly decoder = new FrameDecoder(16 * 1024 * 1024);
  private readonly waiters = new Set<() => void>();
  private readonly replyWatchers = new Map<string, (frame: ReceivedFrame) => void>();
  private ended = false;
  /** Set when the bytes from the host were not valid frames or JSON. */
  garbled: string | null = null;

  private constructor(
    private readonly socket: net.Socket,
    private readonly origin: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  /** Connects to the host's socket; `origin` is the replay's time zero (performance.now). */
  static connect(path: string, origin: number): Promise<ReplaySocket> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(path);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new ReplaySocket(socket, origin));
      });
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.ended;
  }

  send(opcode: number, payload: unknown): void {
    if (!this.ended && !this.socket.destroyed) this.socket.write(encodeFrame(opcode, payload));
  }

  /** Resolves once `done()` is true, the socket closes, or `timeoutMs` pass; true when `done()`. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!done()) {
      const left = deadline - performance.now();
      if (this.ended || left <= 0) return done();
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
    return true;
  }

  /** Calls `watcher` once with the first FRAME that carries `nonce`. */
  onReply(nonce: string, watcher: (frame: ReceivedFrame) => void): void {
    this.replyWatchers.set(nonce, watcher);
  }

  close(): void {
    this.ended = true;
    this.socket.destroy();
    this.wake();
  }

  private onData(chunk: Buffer): void {
    let frames;
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.garbled = error instanceof Error ? error.message : 'bad frame';
      this.socket.destroy();
      return;
    }
    for (const frame of frames) {
      if (frame.opcode === Opcode.Ping) {
        this.socket.write(encodeRawFrame(Opcode.Pong, frame.body));
        continue;
      }
      // PONG answers our PINGs; the host does not trace it, so the recording has none.
      if (frame.opcode === Opcode.Pong) continue;
      let payload: unknown = null;
      try {
        payload = frame.body.length === 0 ? null : JSON.parse(frame.body.toString('utf8'));
      } catch {
        this.garbled = `the host sent a ${frame.opcode} frame that is not JSON`;
      }
      const received: ReceivedFrame = { t: performance.now() - this.origin, opcode: frame.opcode, payload };
      this.received.push(received);
      this.notifyReply(received);
    }
    this.wake();
  }

  private notifyReply(frame: ReceivedFrame): void {
    if (this.replyWatchers.size === 0 || typeof frame.payload !== 'object' || frame.payload === null) return;
    const nonce = (frame.payload as { nonce?: unknown }).nonce;
    if (typeof nonce !== 'string' && typeof nonce !== 'number') return;
    const watcher = this.replyWatchers.get(String(nonce));
    if (watcher === undefined) return;
    this.replyWatchers.delete(String(nonce));
    watcher(frame);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
