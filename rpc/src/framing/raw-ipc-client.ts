import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { Opcode } from '../protocol/opcodes.js';
import { encodeFrame, encodeRawFrame, FrameDecoder } from './frame-codec.js';

/** A frame the host sent, its JSON body parsed (null for an empty body). */
export interface RawIpcFrame<Payload = unknown> {
  readonly opcode: number;
  readonly payload: Payload;
}

/** One read from the socket: when it came (performance.now), its size, and the frames it completed. */
export interface RawIpcRead<Payload = unknown> {
  readonly at: number;
  readonly bytes: number;
  readonly frames: readonly RawIpcFrame<Payload>[];
}

export interface RawIpcClientOptions {
  /** The largest frame accepted from the host (default 1 GiB: tests send and expect big frames). */
  readonly maxPayload?: number;
  /**
   * Behave like a client library towards PING: answer it with PONG, and keep neither PING nor
   * PONG among the frames (default false: every frame is kept, nothing is answered).
   */
  readonly answerPings?: boolean;
}

/** The connecting constructor of RawIpcClient or a subclass (which may fix the payload type). */
type RawIpcClientClass<C> = new (socket: net.Socket, options?: RawIpcClientOptions) => C;
type PayloadOf<C> = C extends RawIpcClient<infer P> ? P : never;

/**
 * A game's end of one discord-ipc connection, speaking the framing directly (rpc's frame
 * codec): sends frames or raw bytes exactly as given (one write each, as the client libraries
 * do), keeps every frame the host sends in order, and waits for them: the next one, a reply by
 * nonce, any match, or the close. For tests, the end-to-end specs and `companion replay`.
 * Payloads are typed `Payload` (unknown unless a subclass says otherwise).
 */
export class RawIpcClient<Payload = unknown> {
  readonly frames: RawIpcFrame<Payload>[] = [];
  readonly reads: RawIpcRead<Payload>[] = [];
  /** Resolves when the socket has closed. */
  readonly closed: Promise<void>;
  /** Set when the bytes from the host were not valid frames or JSON. */
  garbled: string | null = null;
  private readonly decoder: FrameDecoder;
  private readonly waiters = new Set<() => void>();
  private readonly replyWatchers = new Map<string, (frame: RawIpcFrame<Payload>) => void>();
  private readonly answerPings: boolean;
  private ended = false;
  private cursor = 0;

  /** Wraps a connected socket; connect() and ready() are the usual ways in. */
  constructor(
    readonly socket: net.Socket,
    options: RawIpcClientOptions = {},
  ) {
    this.decoder = new FrameDecoder(options.maxPayload ?? 1 << 30);
    this.answerPings = options.answerPings ?? false;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** Connects to the host's socket at `path`. */
  static async connect<C extends RawIpcClient<unknown>>(this: RawIpcClientClass<C>, path: string, options?: RawIpcClientOptions): Promise<C> {
    return new this(await connectSocket(path), options);
  }

  /** Connects and sends the handshake; resolves with the first frame's payload (READY, or the CLOSE that refused it). */
  static async ready<C extends RawIpcClient<unknown>>(
    this: RawIpcClientClass<C>,
    path: string,
    clientId = '123456789012345678',
    options?: RawIpcClientOptions,
  ): Promise<{ client: C; ready: PayloadOf<C> }> {
    const client = new this(await connectSocket(path), options);
    client.send(Opcode.Handshake, { v: 1, client_id: clientId });
    const ready = await client.next();
    return { client, ready: ready.payload as PayloadOf<C> };
  }

  get isClosed(): boolean {
    return this.ended;
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Sends one frame (nothing once the socket is closed). */
  send(opcode: number, payload: unknown): void {
    this.sendRaw(encodeFrame(opcode, payload));
  }

  /** Writes bytes as they are: split frames, several at once, or no frame at all. */
  sendRaw(bytes: Uint8Array | string): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /**
   * Writes `count` frames (`frame(i)` for i = 0, 1, ...) as a game with blocking writes does:
   * whenever the socket's buffer is full, the next write waits for 'drain'. Rejects if the
   * socket fails or closes first.
   */
  writeBlocking(frame: (i: number) => Uint8Array, count: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let written = 0;
      const pump = (): void => {
        while (written < count) {
          const more = this.socket.write(frame(written));
          written += 1;
          if (!more) {
            this.socket.once('drain', pump);
            return;
          }
        }
        resolve();
      };
      this.socket.once('error', reject);
      this.socket.once('close', () => written < count && reject(new Error(`the socket closed after ${written} of ${count} writes`)));
      pump();
    });
  }

  /** Sends a command without waiting (a nonce in `extra` replaces the fresh one); returns its nonce (await the reply with reply()). */
  command(cmd: string, args: unknown, extra: Record<string, unknown> = {}): string {
    const payload = { cmd, args, nonce: `n-${randomUUID()}`, ...extra };
    this.send(Opcode.Frame, payload);
    return String(payload.nonce);
  }

  /** Sends a command and returns its reply's payload: next() until the frame with its nonce. */
  async request(cmd: string, args?: unknown, extra: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<Payload> {
    const nonce = this.command(cmd, args, extra);
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - performance.now()));
      if (nonceOf(frame.payload) === nonce) return frame.payload;
    }
  }

  /** The reply to the command with this nonce, among all frames received (already, or later). */
  async reply(nonce: string, timeoutMs = 10_000): Promise<Payload> {
    const frame = await this.waitFor((f) => nonceOf(f.payload) === nonce, `the reply to ${nonce}`, timeoutMs);
    return frame.payload;
  }

  /** The next frame not yet returned by next() (or request()); rejects after `timeoutMs` or when the socket closes first. */
  async next(timeoutMs = 2000): Promise<RawIpcFrame<Payload>> {
    const deadline = performance.now() + timeoutMs;
    while (this.cursor >= this.frames.length) {
      if (this.ended) throw new Error('connection closed before the next frame');
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms`);
      await this.change(left);
    }
    return this.frames[this.cursor++] as RawIpcFrame<Payload>;
  }

  /** The first frame received (already, or later) that matches; rejects on timeout or when the socket closes first. */
  async waitFor(match: (frame: RawIpcFrame<Payload>) => boolean, what: string, timeoutMs = 10_000): Promise<RawIpcFrame<Payload>> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(match);
      if (found !== undefined) return found;
      if (this.ended) throw new Error(`connection closed while waiting for ${what}; frames: ${JSON.stringify(this.frames)}`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; frames: ${JSON.stringify(this.frames)}`);
      await this.change(left);
    }
  }

  /** Resolves once the host has closed the socket; rejects after `timeoutMs`. */
  async waitClosed(timeoutMs = 10_000): Promise<void> {
    if (!(await this.until(() => this.ended, timeoutMs))) throw new Error(`the connection was not closed within ${timeoutMs} ms`);
  }

  /** Resolves once `done()` is true, the socket closes, or `timeoutMs` pass; true when `done()`. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!done()) {
      const left = deadline - performance.now();
      if (this.ended || left <= 0) return done();
      await this.change(left);
    }
    return true;
  }

  /** Calls `watcher` once with the first FRAME that carries `nonce`. */
  onReply(nonce: string, watcher: (frame: RawIpcFrame<Payload>) => void): void {
    this.replyWatchers.set(nonce, watcher);
  }

  /**
   * The frames that arrive before the reply to a side-effect-free request (an unknown
   * command, answered 4002). Anything the server had queued for this client before the
   * request, events included, arrives first, so an empty result proves nothing was sent.
   */
  async framesBeforeBarrier(): Promise<RawIpcFrame<Payload>[]> {
    const nonce = `barrier-${randomUUID()}`;
    this.send(Opcode.Frame, { cmd: 'BARRIER', nonce });
    const seen: RawIpcFrame<Payload>[] = [];
    for (;;) {
      const frame = await this.next();
      if (nonceOf(frame.payload) === nonce) return seen;
      seen.push(frame);
    }
  }

  /** Resolves true if no frame arrives within `ms`. */
  async silentFor(ms: number): Promise<boolean> {
    const before = this.frames.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.frames.length === before;
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
    const completed: RawIpcFrame<Payload>[] = [];
    for (const frame of frames) {
      if (this.answerPings && frame.opcode === Opcode.Ping) this.sendRaw(encodeRawFrame(Opcode.Pong, frame.body));
      // PONG answers our PINGs; a client library shows neither.
      if (this.answerPings && (frame.opcode === Opcode.Ping || frame.opcode === Opcode.Pong)) continue;
      const received: RawIpcFrame<Payload> = { opcode: frame.opcode, payload: this.parse(frame.opcode, frame.body) };
      this.frames.push(received);
      completed.push(received);
      this.notifyReply(received);
    }
    this.reads.push({ at: performance.now(), bytes: chunk.length, frames: completed });
    this.wake();
  }

  private parse(opcode: number, body: Buffer): Payload {
    if (body.length === 0) return null as Payload;
    try {
      return JSON.parse(body.toString('utf8')) as Payload;
    } catch {
      this.garbled = `the host sent a ${opcode} frame that is not JSON`;
      return null as Payload;
    }
  }

  private notifyReply(frame: RawIpcFrame<Payload>): void {
    if (this.replyWatchers.size === 0) return;
    const nonce = nonceOf(frame.payload);
    if (nonce === undefined) return;
    const watcher = this.replyWatchers.get(nonce);
    if (watcher === undefined) return;
    this.replyWatchers.delete(nonce);
    watcher(frame);
  }

  /** Resolves when a frame arrives or the socket closes, or after `ms`. */
  private change(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

function connectSocket(path: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A payload's nonce as a string (replies carry the request's), else undefined. */
function nonceOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const nonce = (payload as { nonce?: unknown }).nonce;
  return typeof nonce === 'string' || typeof nonce === 'number' ? String(nonce) : undefined;
}
