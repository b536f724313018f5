/**
 * A game for the platform and UI phases: one discord-ipc connection with raw framing
 * (HANDSHAKE, then FRAME commands), as a rich presence library would open it. Counts replies;
 * replies whose nonce someone waits for are parsed and handed over.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { encodeFrame, FrameDecoder } from '../../rpc/src/framing/frame-codec.js';
import { handshakeFrame, OP, readyProblem } from './shared.js';

interface Reply {
  /** performance.now() when the reply arrived. */
  readonly at: number;
  readonly message: Record<string, unknown>;
}

export class IpcGame {
  private readonly decoder = new FrameDecoder(1 << 24);
  private readonly waiters = new Map<string, (reply: Reply) => void>();
  private nonce = 0;
  replies = 0;
  errorReplies = 0;
  closed = false;

  private constructor(private readonly socket: net.Socket) {}

  /** Connects, completes the handshake and resolves once READY arrived. */
  static connect(path: string, timeoutMs = 10_000): Promise<IpcGame> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path });
      const game = new IpcGame(socket);
      let ready = false;
      const timer = setTimeout(() => fail('no READY within timeout'), timeoutMs);
      function fail(why: string): void {
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`game: ${why}`));
      }
      socket.on('error', (error) => {
        if (!ready) fail(error.message);
      });
      socket.on('close', () => {
        game.closed = true;
        if (!ready) fail('closed before READY');
      });
      socket.once('connect', () => socket.write(handshakeFrame()));
      socket.on('data', (chunk: Buffer) => {
        const at = performance.now();
        for (const frame of game.decoder.push(chunk)) {
          if (!ready) {
            const problem = readyProblem(frame.opcode, frame.body);
            if (problem !== null) return fail(problem);
            ready = true;
            clearTimeout(timer);
            resolve(game);
            continue;
          }
          if (frame.opcode === OP.Ping) {
            socket.write(encodeFrame(OP.Pong, JSON.parse(frame.body.toString('utf8')) as unknown));
            continue;
          }
          if (frame.opcode !== OP.Frame) continue;
          game.replies += 1;
          if (game.waiters.size === 0) {
            // Load replies nobody waits for: no full parse.
            if (frame.body.includes('"evt":"ERROR"')) game.errorReplies += 1;
            continue;
          }
          const message = JSON.parse(frame.body.toString('utf8')) as Record<string, unknown>;
          if (message.evt === 'ERROR') game.errorReplies += 1;
          const nonce = message.nonce;
          if (typeof nonce !== 'string') continue;
          const waiter = game.waiters.get(nonce);
          game.waiters.delete(nonce);
          waiter?.({ at, message });
        }
      });
    });
  }

  /** Sends one command; `wroteAt` is Date.now() just before the write. */
  request(cmd: string, args: Record<string, unknown>, nonce: string): { wroteAt: number; reply: Promise<Record<string, unknown>> } {
    const reply = new Promise<Reply>((resolve) => this.waiters.set(nonce, resolve));
    const frame = encodeFrame(OP.Frame, { cmd, args, nonce });
    const wroteAt = Date.now();
    this.socket.write(frame);
    return { wroteAt, reply: reply.then((r) => r.message) };
  }

  /**
   * Sends SET_ACTIVITY (null clears). `sentAt` is performance.now() just before the write;
   * `replied` resolves with the reply's arrival time.
   */
  setActivity(activity: Readonly<Record<string, unknown>> | null): { sentAt: number; replied: Promise<number> } {
    this.nonce += 1;
    const nonce = `presence-${this.nonce}`;
    const frame = encodeFrame(OP.Frame, { cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity }, nonce });
    const replied = new Promise<Reply>((resolve) => this.waiters.set(nonce, resolve));
    const sentAt = performance.now();
    this.socket.write(frame);
    return { sentAt, replied: replied.then((r) => r.at) };
  }

  /** Writes pre-encoded frames (a load generator's batch) as they are. */
  writeRaw(frames: Buffer): void {
    this.socket.write(frames);
  }

  close(): void {
    this.socket.destroy();
  }
}
