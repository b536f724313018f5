import type { RawFrame } from '../framing/frame-codec.js';

/** How a game reached the server: a `discord-ipc-N` socket or pipe, or the WebSocket on 6463-6472. */
export type Transport = 'ipc' | 'websocket';

/** What is known of the other end of a connection. */
export interface RemotePeer {
  /** The peer's IP address (WebSocket); null on IPC. */
  readonly address: string | null;
  readonly port: number | null;
  /** The browser `Origin` it sent (WebSocket); null when it sent none, and on IPC. */
  readonly origin: string | null;
  /** The peer's OS user id when the OS told us (WebSocket on Linux); else null. */
  readonly uid: number | null;
}

export const UNKNOWN_PEER: RemotePeer = { address: null, port: null, origin: null, uid: null };

/** How a transport hands input to its connection. */
export interface TransportReceiver {
  /**
   * Frames received, in order (a chunk may carry none, several, or part of one). `refused`:
   * the input after these frames broke a limit (a frame over the size cap); the connection
   * closes with 1003 and this message.
   */
  received(frames: readonly RawFrame[], refused?: string): void;
  /** Buffered output went out: reading may resume. */
  drained(): void;
  /** The stream is gone (either side closed it, or it failed). Called once. */
  closed(): void;
}

/**
 * The stream under an RpcConnection. Frames are written in IPC framing (8-byte header + JSON)
 * to `sink`: IPC writes them as they are (the sink is the socket itself, so the hot path has no
 * extra step); the WebSocket sends each FRAME's JSON as one text message, and a CLOSE frame
 * `{code, message}` closes it with that code and reason. So sending a frame and closing with a
 * code and message are the same call for both, and the output shaper between the queue and
 * the sink sees every frame.
 */
export interface ConnectionTransport {
  readonly kind: Transport;
  readonly remote: RemotePeer;
  /**
   * The accepted socket's file descriptor in this process, where it has one (IPC on Unix):
   * the per-peer cap looks its peer process up by it (see PeerProcessFinder).
   */
  readonly fd?: number | undefined;
  /** Where the connection's outbound queue writes encoded frames. */
  readonly sink: FrameSink;
  /** Starts delivering input to `receiver`; called once, by the connection. */
  bind(receiver: TransportReceiver): void;
  pause(): void;
  resume(): void;
  /** Ends gracefully once written output has gone out. */
  end(): void;
  /** Drops the stream at once. */
  destroy(): void;
}

/** The part of a socket the queue writes to. */
export interface FrameSink {
  readonly destroyed: boolean;
  readonly writable: boolean;
  readonly writableLength: number;
  write(frame: Buffer): boolean;
}
