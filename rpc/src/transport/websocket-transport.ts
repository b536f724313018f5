import { WebSocket, type RawData } from '../../../common/src/node/ws-module.js';
import { FrameDecoder, type RawFrame } from '../framing/frame-codec.js';
import { CloseCode } from '../protocol/codes.js';
import { Opcode } from '../protocol/opcodes.js';
import type { ConnectionTransport, RemotePeer, TransportReceiver } from './connection-transport.js';
import type { FrameSink } from './connection-transport.js';

/** A WebSocket close reason may hold at most 123 bytes of UTF-8. */
export const MAX_CLOSE_REASON_BYTES = 123;

/** `message` cut to fit a close frame, never inside a character. */
export function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= MAX_CLOSE_REASON_BYTES) return message;
  let out = '';
  let bytes = 0;
  for (const char of message) {
    const size = Buffer.byteLength(char);
    if (bytes + size > MAX_CLOSE_REASON_BYTES) break;
    out += char;
    bytes += size;
  }
  return out;
}

/** Closes a WebSocket with a protocol close code and reason; a code ws refuses becomes 1008. */
export function closeWebSocket(ws: WebSocket, code: number, message: string): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  try {
    ws.close(code, closeReason(message));
  } catch {
    ws.close(1008, closeReason(message));
  }
}

/**
 * Turns the connection's IPC-framed output into WebSocket messages: each FRAME's JSON is one
 * text message, a CLOSE frame closes the socket with its code and message. It takes bytes as
 * any sink does (a QA output shaper may hand it frames split or coalesced) and reassembles
 * frames first.
 */
class WebSocketSink implements FrameSink {
  private readonly decoder = new FrameDecoder(Number.POSITIVE_INFINITY);
  /** Called when a message has been handed to the socket. */
  onSent: () => void = () => undefined;
  private readonly sent = (): void => this.onSent();

  constructor(private readonly ws: WebSocket) {}

  get destroyed(): boolean {
    return this.ws.readyState === WebSocket.CLOSED;
  }

  get writable(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  get writableLength(): number {
    return this.ws.bufferedAmount;
  }

  write(bytes: Buffer): boolean {
    for (const frame of this.decoder.push(bytes)) this.send(frame);
    return true;
  }

  private send(frame: RawFrame): void {
    if (frame.opcode === Opcode.Close) {
      const { code, message } = JSON.parse(frame.body.toString('utf8')) as { code: number; message: string };
      closeWebSocket(this.ws, code, message);
      return;
    }
    // PONG never happens here: a WebSocket carries no PING frames of the protocol.
    if (frame.opcode !== Opcode.Frame || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(frame.body, { binary: false }, this.sent);
  }
}

/** The handshake a WebSocket connection made in its URL (`?v=1&client_id=...`). */
export interface UrlHandshake {
  readonly v: 1;
  readonly client_id: string;
}

/**
 * An RPC connection over a WebSocket (`ws://127.0.0.1:6463/?v=1&client_id=...&encoding=json`).
 * Every text message is one command (there is no HANDSHAKE, PING or CLOSE opcode on this
 * transport); the handshake came with the URL and is handed to the connection as its first
 * frame, so the same code validates it and answers READY.
 */
export class WebSocketTransport implements ConnectionTransport {
  readonly kind = 'websocket' as const;
  readonly sink: WebSocketSink;
  private receiver: TransportReceiver | undefined;
  /**
   * Messages that came before the connection bound (the server may look the peer up first,
   * see PeerCap); reading is paused meanwhile, so only what was already read waits here.
   */
  private early: { readonly data: RawData; readonly isBinary: boolean }[] = [];
  private closedEarly = false;

  constructor(
    private readonly ws: WebSocket,
    readonly remote: RemotePeer,
    private readonly handshake: UrlHandshake,
  ) {
    this.sink = new WebSocketSink(ws);
    ws.on('error', () => undefined); // ws closes the socket itself; 'close' follows
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (this.receiver !== undefined) this.onMessage(data, isBinary);
      else {
        this.early.push({ data, isBinary });
        ws.pause();
      }
    });
    ws.on('close', () => {
      if (this.receiver !== undefined) this.receiver.closed();
      else this.closedEarly = true;
    });
  }

  bind(receiver: TransportReceiver): void {
    this.receiver = receiver;
    this.sink.onSent = () => receiver.drained();
    // After the server has registered the connection (bind runs inside its constructor), and
    // before any message: the socket's data events come later than a microtask.
    const body = Buffer.from(JSON.stringify(this.handshake));
    queueMicrotask(() => {
      receiver.received([{ opcode: Opcode.Handshake, body }]);
      const early = this.early;
      this.early = [];
      // Resumed first: new messages come in a later task, after these, and the connection
      // may pause reading again while it handles them.
      if (early.length > 0 && !this.closedEarly) this.ws.resume();
      for (const message of early) this.onMessage(message.data, message.isBinary);
      if (this.closedEarly) receiver.closed();
    });
  }

  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  end(): void {
    closeWebSocket(this.ws, CloseCode.Normal, '');
  }

  destroy(): void {
    this.ws.terminate();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const receiver = this.receiver;
    if (receiver === undefined) return;
    if (isBinary) {
      receiver.received([], 'binary messages are not supported: send JSON text (encoding=json)');
      return;
    }
    const body = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    receiver.received([{ opcode: Opcode.Frame, body }]);
  }
}
