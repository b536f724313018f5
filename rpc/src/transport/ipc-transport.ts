import type { Socket } from 'node:net';
import { FrameDecoder, FrameTooLargeError, type RawFrame } from '../framing/frame-codec.js';
import { UNKNOWN_PEER, type ConnectionTransport, type RemotePeer, type TransportReceiver } from './connection-transport.js';

/**
 * A `discord-ipc-N` connection: binary framing over a Unix socket or named pipe. Frames go to
 * the socket unchanged (the socket is the outbound queue's sink); incoming bytes are decoded
 * here, split and coalesced frames alike.
 */
export class IpcTransport implements ConnectionTransport {
  readonly kind = 'ipc' as const;
  readonly remote: RemotePeer = UNKNOWN_PEER;
  private readonly decoder: FrameDecoder;
  readonly fd: number | undefined;

  constructor(
    private readonly socket: Socket,
    maxPayload: number,
  ) {
    this.decoder = new FrameDecoder(maxPayload);
    socket.on('error', () => undefined); // resets are normal; 'close' follows
    this.fd = descriptorOf(socket);
  }

  get sink(): Socket {
    return this.socket;
  }

  bind(receiver: TransportReceiver): void {
    const socket = this.socket;
    socket.on('data', (chunk: Buffer) => this.decode(chunk, receiver));
    socket.on('drain', () => receiver.drained());
    socket.on('close', () => receiver.closed());
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private decode(chunk: Buffer, receiver: TransportReceiver): void {
    let frames: readonly RawFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      if (!(error instanceof FrameTooLargeError)) throw error;
      receiver.received(error.frames, error.message);
      return;
    }
    receiver.received(frames);
  }
}

/**
 * The socket's file descriptor: Node keeps it on the socket's libuv handle and has no public
 * accessor. Undefined for a named pipe (Windows) or a socket without a handle.
 */
function descriptorOf(socket: Socket): number | undefined {
  const fd = (socket as unknown as { readonly _handle?: { readonly fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}
