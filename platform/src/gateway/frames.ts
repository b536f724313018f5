import { constants, createDeflate } from 'node:zlib';
import { WebSocket } from '../../../common/src/node/ws-module.js';

/** How a gateway connection's messages go on the wire. */
export interface GatewayFrames {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Without `compress`: each message is one text frame. */
export class TextFrames implements GatewayFrames {
  constructor(private readonly ws: WebSocket) {}

  send(text: string): void {
    this.ws.send(text);
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }
}

/**
 * `compress=zlib-stream` (the gateway's transport compression): one zlib (RFC 1950) context for
 * the whole connection; each message is written to it and flushed with Z_SYNC_FLUSH, and what
 * that flush gives is one binary frame, ending in `00 00 FF FF`, so a client inflates frames in
 * order with one inflater. A close goes out after the messages sent before it.
 */
export class ZlibStreamFrames implements GatewayFrames {
  private readonly deflate = createDeflate();
  private pending: Buffer[] = [];

  constructor(private readonly ws: WebSocket) {
    this.deflate.on('data', (chunk: Buffer) => this.pending.push(chunk));
    this.deflate.on('error', () => undefined);
    ws.once('close', () => this.deflate.destroy());
  }

  send(text: string): void {
    if (this.deflate.destroyed) return;
    this.deflate.write(text);
    this.deflate.flush(constants.Z_SYNC_FLUSH, () => {
      const frame = Buffer.concat(this.pending);
      this.pending = [];
      if (frame.length > 0 && this.ws.readyState === WebSocket.OPEN) this.ws.send(frame, { binary: true });
    });
  }

  close(code: number, reason: string): void {
    const closeNow = (): void => {
      if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
    };
    if (this.deflate.destroyed) return closeNow();
    this.deflate.flush(constants.Z_SYNC_FLUSH, closeNow);
  }
}

/** The frames for a connection's `compress` query value; undefined for a value the emulator does not speak. */
export function framesFor(ws: WebSocket, compress: string | null): GatewayFrames | undefined {
  if (compress === null || compress === '') return new TextFrames(ws);
  if (compress === 'zlib-stream') return new ZlibStreamFrames(ws);
  return undefined;
}
