import { randomUUID } from 'node:crypto';
import net from 'node:net';

/** discord-ipc opcodes. */
export const Op = { Handshake: 0, Frame: 1, Close: 2, Ping: 3, Pong: 4 } as const;

export interface Frame {
  readonly opcode: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are arbitrary JSON, checked by the tests' expectations
  readonly payload: any;
}

/** Header: uint32 LE opcode, uint32 LE length; then the JSON body. */
export function encode(opcode: number, payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(opcode, 0);
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/**
 * A game speaking the framing directly: handshake, commands matched to their replies by nonce,
 * and every frame the host sent kept in order (events, CLOSE) for waitFor().
 */
export class RawGame {
  readonly frames: Frame[] = [];
  private buffer = Buffer.alloc(0);
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 8) {
        const opcode = this.buffer.readUInt32LE(0);
        const length = this.buffer.readUInt32LE(4);
        if (this.buffer.length < 8 + length) break;
        const text = this.buffer.subarray(8, 8 + length).toString('utf8');
        this.buffer = this.buffer.subarray(8 + length);
        this.frames.push({ opcode, payload: text === '' ? null : (JSON.parse(text) as unknown) });
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Connects to `socketPath` and completes the handshake (resolves after READY). */
  static async connect(socketPath: string, clientId: string): Promise<RawGame> {
    const socket = net.createConnection(socketPath);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const game = new RawGame(socket);
    game.send(Op.Handshake, { v: 1, client_id: clientId });
    const ready = await game.waitFor((frame) => frame.opcode === Op.Frame && frame.payload?.evt === 'READY', 'READY');
    if (ready === undefined) throw new Error('no READY');
    return game;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(opcode: number, payload: unknown): void {
    this.socket.write(encode(opcode, payload));
  }

  /** Sends a command without waiting; returns its nonce (await the reply with reply()). */
  command(cmd: string, args: unknown, extra: Record<string, unknown> = {}): string {
    const nonce = randomUUID();
    this.send(Op.Frame, { cmd, args, nonce, ...extra });
    return nonce;
  }

  /** The reply to the command with this nonce. */
  async reply(nonce: string, timeoutMs = 10_000): Promise<Frame['payload']> {
    const frame = await this.waitFor((f) => f.payload?.nonce === nonce, `the reply to ${nonce}`, timeoutMs);
    return frame.payload;
  }

  /** Sends a command and returns its reply's payload. */
  async request(cmd: string, args: unknown, extra: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<Frame['payload']> {
    return this.reply(this.command(cmd, args, extra), timeoutMs);
  }

  /** The first frame received (already, or later) that matches; rejects on timeout or when the socket closes first. */
  async waitFor(match: (frame: Frame) => boolean, what: string, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(match);
      if (found !== undefined) return found;
      if (this.closed) throw new Error(`connection closed while waiting for ${what}; frames: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; frames: ${JSON.stringify(this.frames)}`);
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
  }

  /** Resolves once the host has closed the socket. */
  async waitClosed(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the connection was not closed within ${timeoutMs} ms`);
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
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
