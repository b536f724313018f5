/**
 * A game for the platform phases: one discord-ipc connection with raw framing (HANDSHAKE, then
 * SET_ACTIVITY frames), as a rich presence library would open it.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { encodeFrame, FrameDecoder } from '../../rpc/src/framing/frame-codec.js';
import { handshakeFrame, OP, readyProblem } from './shared.js';

export class IpcGame {
  private readonly decoder = new FrameDecoder(1 << 20);
  private readonly replies = new Map<string, (at: number) => void>();
  private nonce = 0;

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
          const nonce = (JSON.parse(frame.body.toString('utf8')) as { nonce?: unknown }).nonce;
          if (typeof nonce !== 'string') continue;
          const waiter = game.replies.get(nonce);
          game.replies.delete(nonce);
          waiter?.(at);
        }
      });
    });
  }

  /**
   * Sends SET_ACTIVITY (null clears). `sentAt` is performance.now() just before the write;
   * `replied` resolves with the reply's arrival time.
   */
  setActivity(activity: Readonly<Record<string, unknown>> | null): { sentAt: number; replied: Promise<number> } {
    this.nonce += 1;
    const nonce = `presence-${this.nonce}`;
    const frame = encodeFrame(OP.Frame, { cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity }, nonce });
    const replied = new Promise<number>((resolve) => this.replies.set(nonce, resolve));
    const sentAt = performance.now();
    this.socket.write(frame);
    return { sentAt, replied };
  }

  close(): void {
    this.socket.destroy();
  }
}
