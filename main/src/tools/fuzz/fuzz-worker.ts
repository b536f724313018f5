import { encodeFrame, Opcode } from '../../../../rpc/src/index.js';
import type { FuzzFrame } from './fuzz-frames.js';
import { FuzzSocket, type Outcome } from './fuzz-socket.js';
import type { FuzzTally } from './fuzz-tally.js';
import type { FuzzTargets } from './valid-commands.js';

const BARRIER = encodeFrame(Opcode.Frame, { cmd: 'NOT_A_COMMAND', args: {}, nonce: 'barrier' });

/**
 * One fuzz client: sends frames one at a time and waits for each answer, on a ready
 * connection, an authenticated one, or a new one for handshake variants; a connection the host
 * closed is opened again for the next frame.
 */
export class FuzzWorker {
  private readySocket: FuzzSocket | undefined;
  private authenticatedSocket: FuzzSocket | undefined;

  constructor(
    private readonly socketPath: string,
    private readonly targets: FuzzTargets,
    private readonly tally: FuzzTally,
    private readonly replyTimeoutMs: number,
  ) {}

  async send(frame: FuzzFrame): Promise<Outcome> {
    if (frame.phase === 'handshake') return this.firstFrame(frame);
    const authenticated = frame.phase === 'authenticated';
    const socket = await this.socketFor(authenticated);
    if (frame.chunks.length > 1) await socket.writeApart(frame.chunks);
    else socket.write(frame.chunks);
    if (frame.barrier) socket.write([BARRIER]);
    if (frame.halfClose) socket.end();
    const outcome = frame.expect === 'ended' ? await this.untilEnded(socket) : await socket.next(this.replyTimeoutMs);
    if (outcome.kind !== 'frame') this.drop(authenticated);
    return outcome;
  }

  close(): void {
    this.drop(true);
    this.drop(false);
  }

  private async firstFrame(frame: FuzzFrame): Promise<Outcome> {
    const socket = await FuzzSocket.connect(this.socketPath);
    try {
      socket.write(frame.chunks);
      const first = await socket.next(this.replyTimeoutMs, true);
      // A PING sent before the HANDSHAKE is answered first.
      const pingFirst = (frame.chunks[0] as Buffer).readUInt32LE(0) === Opcode.Ping;
      return pingFirst && first.kind === 'frame' && first.opcode === Opcode.Pong ? await socket.next(this.replyTimeoutMs, true) : first;
    } finally {
      socket.destroy();
    }
  }

  /** Answers still due are read past: the host ends the socket once it has sent them. */
  private async untilEnded(socket: FuzzSocket): Promise<Outcome> {
    for (;;) {
      const outcome = await socket.next(this.replyTimeoutMs);
      if (outcome.kind !== 'frame') return outcome;
    }
  }

  private async socketFor(authenticated: boolean): Promise<FuzzSocket> {
    const current = authenticated ? this.authenticatedSocket : this.readySocket;
    if (current?.open === true) return current;
    const { socket } = await FuzzSocket.ready(this.socketPath, this.targets.clientId);
    if (authenticated) {
      const outcome = await socket.request('AUTHENTICATE', { access_token: this.targets.accessToken });
      if (outcome.kind !== 'frame' || (outcome.payload as { evt?: unknown }).evt !== null) this.tally.note('setup', `AUTHENTICATE with the fuzz's token failed: ${outcome.kind}`);
      this.authenticatedSocket = socket;
    } else this.readySocket = socket;
    return socket;
  }

  private drop(authenticated: boolean): void {
    if (authenticated) {
      this.authenticatedSocket?.destroy();
      this.authenticatedSocket = undefined;
    } else {
      this.readySocket?.destroy();
      this.readySocket = undefined;
    }
  }
}
