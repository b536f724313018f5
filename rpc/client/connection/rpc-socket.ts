import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { encodeFrame, encodeRawFrame, FrameDecoder, type RawFrame } from '../../src/framing/frame-codec.js';
import { Opcode } from '../../src/protocol/opcodes.js';
import { CloseCode } from '../../src/protocol/codes.js';
import { ConnectError, RpcRequestError } from './errors.js';

/** The READY dispatch's `data`. */
export interface ReadyData {
  readonly v: number;
  readonly config: { readonly cdn_host?: string; readonly api_endpoint?: string; readonly environment?: string };
  readonly user?: {
    readonly id: string;
    readonly username: string;
    readonly discriminator?: string;
    readonly global_name?: string | null;
    readonly avatar?: string | null;
    readonly [key: string]: unknown;
  };
}

/** How a connection ended. */
export interface CloseInfo {
  /** The CLOSE frame's code, if the server sent one; 'keepalive' and the like have null. */
  readonly code: number | null;
  readonly message: string;
  /** Who ended it and why. */
  readonly reason: 'server-close' | 'socket-closed' | 'keepalive-timeout' | 'protocol-error' | 'local';
}

export interface RpcSocketOptions {
  readonly clientId: string;
  /** READY must arrive within this time after the socket connects (default 10 s, as npm and @xhayper). */
  readonly readyTimeoutMs?: number;
  /** Default per-request timeout (30 s). */
  readonly requestTimeoutMs?: number;
  /** A PING is sent this often while connected (default 5 s); 0 turns keepalive off. */
  readonly pingIntervalMs?: number;
  /** The connection is dropped when no PONG has come this long after a PING (default 15 s). */
  readonly pongTimeoutMs?: number;
  /** Largest inbound payload accepted (default 1 MiB). */
  readonly maxPayload?: number;
}

export interface RpcSocketEvents {
  /** A DISPATCH other than READY. */
  event: [evt: string, data: unknown];
  close: [CloseInfo];
}

interface Pending {
  readonly cmd: string;
  readonly resolve: (data: unknown) => void;
  readonly reject: (error: RpcRequestError) => void;
  readonly timer: NodeJS.Timeout | undefined;
}

export const DEFAULT_READY_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_PING_INTERVAL_MS = 5_000;
export const DEFAULT_PONG_TIMEOUT_MS = 15_000;

/**
 * One connection to one socket, from the HANDSHAKE to the close:
 * - every frame is written with a single write (header and body in one buffer);
 * - inbound frames are reassembled with the server's FrameDecoder, whatever the split or
 *   coalescing of the byte stream;
 * - requests carry a UUID nonce and are matched on it; each has its own timeout;
 * - PINGs from the server are answered with a PONG carrying the same bytes; the connection
 *   itself PINGs every `pingIntervalMs` and is dropped when `pongTimeoutMs` pass without a
 *   PONG;
 * - a CLOSE `{code, message}` from the server is kept and reported in the `close` event.
 * It never reconnects: RpcConnection does that.
 */
export class RpcSocket extends EventEmitter<RpcSocketEvents> {
  private readonly decoder: FrameDecoder;
  private readonly pending = new Map<string, Pending>();
  private pingTimer: NodeJS.Timeout | undefined;
  private pongDeadline: NodeJS.Timeout | undefined;
  /** performance.now() when the PING that armed `pongDeadline` was sent. */
  private pingSentAt = 0;
  /** performance.now() of the last chunk read from the socket. */
  private lastDataAt = 0;
  private closeFrame: { code: number; message: string } | undefined;
  private endReason: CloseInfo | undefined;
  private closedInfo: CloseInfo | undefined;
  private onReady: ((data: ReadyData) => void) | undefined;
  readonly requestTimeoutMs: number;

  private constructor(
    private readonly socket: net.Socket,
    readonly path: string,
    private readonly options: RpcSocketOptions,
  ) {
    super();
    this.decoder = new FrameDecoder(options.maxPayload ?? 1024 * 1024);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    socket.setNoDelay?.(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClosed());
  }

  /**
   * Connects to `socketPath`, sends HANDSHAKE `{v: 1, client_id}` and waits for READY.
   * Rejects with ConnectError: 'refused' when nothing accepts the connection, 'closed' when
   * the server sends CLOSE (its code and message; 4000 and 4004 are `fatal`) or hangs up,
   * 'timeout' when READY does not come in time.
   */
  static open(socketPath: string, options: RpcSocketOptions): Promise<{ socket: RpcSocket; ready: ReadyData }> {
    return new Promise((resolve, reject) => {
      const raw = net.createConnection(socketPath);
      const failConnect = (error: Error): void => {
        raw.destroy();
        reject(new ConnectError('refused', `cannot connect to ${socketPath}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      };
      raw.once('error', failConnect);
      raw.once('connect', () => {
        raw.off('error', failConnect);
        const socket = new RpcSocket(raw, socketPath, options);
        const timer = setTimeout(() => {
          socket.destroy('protocol-error', `no READY within ${options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS} ms`);
        }, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
        const onClose = (info: CloseInfo): void => {
          clearTimeout(timer);
          const fatal = info.code === CloseCode.InvalidClientId || info.code === CloseCode.InvalidVersion;
          const reason = info.reason === 'server-close' ? 'closed' : info.message.startsWith('no READY') ? 'timeout' : info.reason === 'protocol-error' ? 'protocol' : 'closed';
          const text = info.code === null ? info.message : `${info.code} ${info.message}`;
          reject(new ConnectError(reason, `handshake failed: ${text}`, info.code, fatal));
        };
        socket.once('close', onClose);
        socket.onReady = (ready) => {
          clearTimeout(timer);
          socket.off('close', onClose);
          socket.startKeepalive();
          resolve({ socket, ready });
        };
        socket.writeFrame(Opcode.Handshake, { v: 1, client_id: options.clientId });
      });
    });
  }

  get isOpen(): boolean {
    return this.closedInfo === undefined && this.endReason === undefined;
  }

  /**
   * Sends a command and resolves with the reply's `data`. Rejects with RpcRequestError:
   * 'rpc-error' for an ERROR reply (its code and message), 'timeout' after `timeoutMs`
   * (default: the connection's request timeout), 'disconnected' when the connection closes
   * first.
   */
  request(cmd: string, args: unknown, options: { evt?: string; timeoutMs?: number } = {}): Promise<unknown> {
    if (!this.isOpen) return Promise.reject(new RpcRequestError('disconnected', cmd, null, 'the connection is closed'));
    const nonce = randomUUID();
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              this.pending.delete(nonce);
              reject(new RpcRequestError('timeout', cmd, null, `${cmd}: no reply within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
      this.pending.set(nonce, { cmd, resolve, reject, timer });
      const payload: Record<string, unknown> = { cmd, args: args ?? {}, nonce };
      if (options.evt !== undefined) payload['evt'] = options.evt;
      this.writeFrame(Opcode.Frame, payload);
    });
  }

  /** Sends CLOSE and ends the connection (a deliberate disconnect). */
  close(message = 'client disconnect'): Promise<void> {
    if (this.closedInfo !== undefined) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.once('close', () => resolve()));
    if (this.endReason === undefined) {
      this.endReason = { code: null, message, reason: 'local' };
      this.stopKeepalive();
      this.socket.end(encodeFrame(Opcode.Close, { code: CloseCode.Normal, message }));
      // A server that does not close its side: do not wait for it.
      setTimeout(() => this.socket.destroy(), 1000).unref();
    }
    return closed;
  }

  /** Drops the connection at once. */
  destroy(reason: CloseInfo['reason'], message: string): void {
    if (this.endReason === undefined) this.endReason = { code: null, message, reason };
    this.stopKeepalive();
    this.socket.destroy();
  }

  private writeFrame(opcode: number, payload: unknown): void {
    if (this.socket.destroyed || this.socket.writableEnded) return;
    this.socket.write(encodeFrame(opcode, payload));
  }

  private onData(chunk: Buffer): void {
    this.lastDataAt = performance.now();
    let frames: RawFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.destroy('protocol-error', error instanceof Error ? error.message : 'bad frame');
      return;
    }
    for (const frame of frames) {
      if (!this.isOpen && this.endReason?.reason !== 'local') return;
      this.onFrame(frame);
    }
  }

  private onFrame(frame: RawFrame): void {
    switch (frame.opcode) {
      case Opcode.Ping:
        if (!this.socket.destroyed && !this.socket.writableEnded) this.socket.write(encodeRawFrame(Opcode.Pong, frame.body));
        return;
      case Opcode.Pong:
        // Any PONG proves the server is alive.
        if (this.pongDeadline !== undefined) clearTimeout(this.pongDeadline);
        this.pongDeadline = undefined;
        return;
      case Opcode.Close: {
        const payload = parseJson(frame.body);
        const code = typeof payload?.['code'] === 'number' ? payload['code'] : null;
        const message = typeof payload?.['message'] === 'string' ? payload['message'] : '';
        this.closeFrame = { code: code ?? 0, message };
        if (this.endReason === undefined) this.endReason = { code, message, reason: 'server-close' };
        this.stopKeepalive();
        this.socket.destroy();
        return;
      }
      case Opcode.Frame: {
        const payload = parseJson(frame.body);
        if (payload === undefined) {
          this.destroy('protocol-error', 'a FRAME that is not a JSON object');
          return;
        }
        this.onMessage(payload);
        return;
      }
      default:
        this.destroy('protocol-error', `unexpected opcode ${frame.opcode}`);
    }
  }

  private onMessage(payload: Record<string, unknown>): void {
    const nonce = payload['nonce'];
    if (typeof nonce === 'string') {
      const pending = this.pending.get(nonce);
      if (pending === undefined) return; // a reply that came after its timeout
      this.pending.delete(nonce);
      if (pending.timer !== undefined) clearTimeout(pending.timer);
      if (payload['evt'] === 'ERROR') {
        const data = payload['data'] as { code?: unknown; message?: unknown } | null | undefined;
        const code = typeof data?.code === 'number' ? data.code : null;
        const message = typeof data?.message === 'string' ? data.message : 'Unknown Error';
        pending.reject(new RpcRequestError('rpc-error', pending.cmd, code, message));
      } else {
        pending.resolve(payload['data'] ?? null);
      }
      return;
    }
    if (payload['cmd'] !== 'DISPATCH' || typeof payload['evt'] !== 'string') return;
    if (payload['evt'] === 'READY') {
      const ready = this.onReady;
      this.onReady = undefined;
      ready?.((payload['data'] ?? { v: 1, config: {} }) as ReadyData);
      return;
    }
    this.emit('event', payload['evt'], payload['data'] ?? null);
  }

  private startKeepalive(): void {
    const interval = this.options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    if (interval <= 0) return;
    const pongTimeout = this.options.pongTimeoutMs ?? DEFAULT_PONG_TIMEOUT_MS;
    this.pingTimer = setInterval(() => {
      if (!this.isOpen) return;
      this.writeFrame(Opcode.Ping, randomUUID());
      if (this.pongDeadline !== undefined) return;
      this.pingSentAt = performance.now();
      this.pongDeadline = setTimeout(() => this.onPongDeadline(pongTimeout), pongTimeout);
    }, interval);
    this.pingTimer.unref();
  }

  /**
   * The PONG deadline passed. After the event loop was blocked (a long frame, a debugger, a
   * suspended laptop), timers run before the socket is read, so the PONG may be waiting
   * unread: setImmediate lets the pending reads run first, and the connection is dropped
   * only if no data at all arrived since the PING was sent.
   */
  private onPongDeadline(pongTimeout: number): void {
    const sentAt = this.pingSentAt;
    setImmediate(() => {
      if (!this.isOpen) return;
      // A PONG read meanwhile cleared the deadline; any other data proves the server alive too.
      const alive = this.pongDeadline === undefined || this.lastDataAt >= sentAt;
      this.pongDeadline = undefined;
      if (!alive) this.destroy('keepalive-timeout', `no PONG within ${pongTimeout} ms`);
    });
  }

  private stopKeepalive(): void {
    if (this.pingTimer !== undefined) clearInterval(this.pingTimer);
    if (this.pongDeadline !== undefined) clearTimeout(this.pongDeadline);
    this.pingTimer = undefined;
    this.pongDeadline = undefined;
  }

  private onClosed(): void {
    if (this.closedInfo !== undefined) return;
    this.stopKeepalive();
    const info: CloseInfo =
      this.endReason ??
      (this.closeFrame === undefined
        ? { code: null, message: 'the connection closed', reason: 'socket-closed' }
        : { code: this.closeFrame.code, message: this.closeFrame.message, reason: 'server-close' });
    this.closedInfo = info;
    this.endReason ??= info;
    const detail = info.code === null ? info.message : `${info.code} ${info.message}`;
    for (const [nonce, pending] of this.pending) {
      this.pending.delete(nonce);
      if (pending.timer !== undefined) clearTimeout(pending.timer);
      pending.reject(new RpcRequestError('disconnected', pending.cmd, null, `${pending.cmd}: the connection closed before the reply (${detail})`));
    }
    this.emit('close', info);
  }
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  if (body.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
