import { encodeFrame, Opcode } from '../../../../rpc/src/index.js';
import { FuzzSocket } from './fuzz-socket.js';

export interface BystanderReport {
  readonly requests: number;
  readonly replies: number;
  /** Replies slower than the bound. */
  readonly late: number;
  readonly boundMs: number;
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  readonly maxMs: number | null;
  /** What went wrong, if anything: the connection closed, a reply never came, an ERROR. */
  readonly failures: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number) * 100) / 100;
}

/**
 * A well-behaved game beside the fuzz: SET_ACTIVITY every `periodMs` on its own connection,
 * each reply awaited and timed. The fuzz must not starve it.
 */
export class Bystander {
  private readonly latencies: number[] = [];
  private readonly failures: string[] = [];
  private requests = 0;
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly socketPath: string,
    private readonly clientId: string,
    private readonly boundMs = 500,
    private readonly periodMs = 50,
  ) {}

  start(): void {
    this.running = this.run().catch((error: unknown) => void this.failures.push(error instanceof Error ? error.message : String(error)));
  }

  async stop(): Promise<BystanderReport> {
    this.stopped = true;
    await this.running;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      requests: this.requests,
      replies: sorted.length,
      late: sorted.filter((ms) => ms > this.boundMs).length,
      boundMs: this.boundMs,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length === 0 ? null : Math.round((sorted.at(-1) as number) * 100) / 100,
      failures: this.failures.slice(0, 10),
    };
  }

  private async run(): Promise<void> {
    const { socket } = await FuzzSocket.ready(this.socketPath, this.clientId);
    try {
      while (!this.stopped) {
        const t0 = performance.now();
        await this.once(socket, t0);
        if (!socket.open) return;
        await sleep(this.periodMs - (performance.now() - t0));
      }
    } finally {
      socket.destroy();
    }
  }

  private async once(socket: FuzzSocket, t0: number): Promise<void> {
    this.requests += 1;
    const nonce = `bystander-${this.requests}`;
    const activity = { state: 'Watching the fuzz', details: `Round ${this.requests}`, timestamps: { start: 1_700_000_000_000 } };
    socket.write([encodeFrame(Opcode.Frame, { cmd: 'SET_ACTIVITY', args: { pid: process.pid, activity }, nonce })]);
    const outcome = await socket.next(10_000);
    const reply = outcome.kind === 'frame' ? (outcome.payload as { evt?: unknown; nonce?: unknown }) : undefined;
    if (reply === undefined || reply.nonce !== nonce || reply.evt !== null) {
      this.failures.push(`request ${this.requests}: ${JSON.stringify(outcome).slice(0, 200)}`);
      return;
    }
    this.latencies.push(performance.now() - t0);
  }
}
