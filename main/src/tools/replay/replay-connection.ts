import { Opcode } from '../../../../rpc/src/index.js';
import { commandNonces, covers, nonceOf, slotCounts } from './replay-frame-keys.js';
import { pairedDifferences } from './replay-pairing.js';
import type { PlannedConnection, TimedFrame } from './replay-plan.js';
import { RawIpcClient, type RawIpcClientOptions, type RawIpcFrame } from '../../../../rpc/src/index.js';

/**
 * The replay's socket: frames up to 16 MiB, every frame kept. The host's PONG to a recorded PING
 * is compared like any reply (a socket that hid PINGs and PONGs reported every recorded PONG as
 * missing: issue 26 §9); the host never PINGs a game, and a recorded PING from it would be
 * compared too.
 */
const REPLAY_SOCKET: RawIpcClientOptions = { maxPayload: 16 * 1024 * 1024, answerPings: false };
import type { ConnectionReport, FrameDifferences } from './replay-types.js';

/** One recorded connection while it is replayed: its socket, what was sent, and what went wrong beside the frames. */
export class ReplayConnection {
  socket: RawIpcClient | null = null;
  sent = 0;
  /** Nonces of the commands sent, so replies can be told from events. */
  readonly nonces: ReadonlySet<string>;
  /** Differences that are not a recorded frame's (cannot connect, a failed token exchange). */
  readonly extra: FrameDifferences[] = [];

  constructor(readonly plan: PlannedConnection) {
    this.nonces = commandNonces(plan.inbound);
  }

  /** Connects to the host; a failure is a difference of this connection. */
  async open(ipcPath: string): Promise<void> {
    try {
      this.socket = await RawIpcClient.connect(ipcPath, REPLAY_SOCKET);
    } catch (error) {
      this.extra.push({ what: 'connect', differences: [{ path: '$', expected: 'a connection', actual: `cannot connect to ${ipcPath} (${(error as NodeJS.ErrnoException).code ?? 'error'})` }] });
    }
  }

  /** The open socket, or null when it never opened or has closed. */
  get openSocket(): RawIpcClient | null {
    return this.socket === null || this.socket.isClosed ? null : this.socket;
  }

  /** Waits (bounded) until the host answered `frame` as often as the recording says it did. */
  async awaitAnswer(socket: RawIpcClient, frame: TimedFrame, timeoutMs: number): Promise<void> {
    const outbound = this.plan.outbound;
    if (frame.opcode === Opcode.Handshake) {
      if (outbound.length > 0) await socket.until(() => socket.frames.length > 0, timeoutMs);
      return;
    }
    const nonce = nonceOf(frame.payload);
    if (nonce === null || frame.opcode !== Opcode.Frame) return;
    const expected = outbound.filter((out) => nonceOf(out.payload) === nonce).length;
    if (expected > 0) await socket.until(() => socket.frames.filter((got) => nonceOf(got.payload) === nonce).length >= expected, timeoutMs);
  }

  /** Waits for what the connection still expects (bounded), then closes it. */
  async finish(timeoutMs: number): Promise<void> {
    const socket = this.openSocket;
    if (socket === null) return;
    const expected = slotCounts(this.plan.outbound, this.nonces);
    await socket.until(() => covers(slotCounts(socket.frames, this.nonces), expected), timeoutMs);
    socket.close();
  }

  report(): ConnectionReport {
    const { plan, socket } = this;
    const received: readonly RawIpcFrame[] = socket?.frames ?? [];
    const frames: FrameDifferences[] = [...this.extra];
    if (plan.skipped === null && socket !== null) {
      frames.push(...pairedDifferences(plan.outbound, received, this.nonces));
      if (socket.garbled !== null) frames.push({ what: 'framing', differences: [{ path: '$', expected: 'valid frames', actual: socket.garbled }] });
    }
    return { id: plan.id, clientId: plan.clientId, skipped: plan.skipped, sent: this.sent, received: received.length, frames };
  }
}
