import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReplayAuthorization } from './replay-authorization.js';
import { ReplayConnection } from './replay-connection.js';
import type { ReplayPlan, Step, TimedFrame } from './replay-plan.js';
import type { ReplayOptions, ReplayReport, ReplayTarget } from './replay-types.js';

export type { ConnectionReport, FrameDifferences, ReplayOptions, ReplayReport, ReplayTarget } from './replay-types.js';

export const DEFAULT_REPLAY_TIMEOUT_MS = 5000;

async function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  if (wait > 0) await sleep(wait);
}

/** One run of a plan against a host: performs the steps, then reports per connection. */
class ReplayRun {
  private readonly timeoutMs: number;
  private readonly authorization: ReplayAuthorization;
  private readonly connections = new Map<string, ReplayConnection>();
  /** Paced runs: connections the recording closed, still waiting for their last frames. */
  private readonly closing: Promise<void>[] = [];
  private origin = 0;

  constructor(
    private readonly plan: ReplayPlan,
    private readonly target: ReplayTarget,
    private readonly options: ReplayOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS;
    this.authorization = new ReplayAuthorization({ platformUrl: target.platformUrl, clientSecret: options.clientSecret, timeoutMs: this.timeoutMs });
    for (const connection of plan.connections) this.connections.set(connection.id, new ReplayConnection(connection));
  }

  async run(): Promise<ReplayReport> {
    try {
      await this.performSteps();
      await Promise.all(this.closing);
      await Promise.all([...this.connections.values()].map(async (connection) => connection.finish(this.timeoutMs)));
      await this.authorization.settle();
    } finally {
      for (const connection of this.connections.values()) connection.socket?.close();
    }
    const reports = this.plan.connections.map((planned) => (this.connections.get(planned.id) as ReplayConnection).report());
    const differenceCount = reports.reduce((sum, r) => sum + r.frames.reduce((n, f) => n + f.differences.length, 0), 0);
    return { connections: reports, notes: this.authorization.notes, differenceCount };
  }

  private async performSteps(): Promise<void> {
    this.origin = performance.now();
    // Time zero is the first game action, not the start of the recording (a recording started
    // from the UI may wait minutes for its first game).
    const shift = this.plan.steps[0]?.t ?? 0;
    for (const step of this.plan.steps) {
      const connection = this.connections.get(step.connection.id) as ReplayConnection;
      if (!this.options.fast) await sleepUntil(this.origin + step.t - shift);
      await this.perform(step, connection);
    }
  }

  private async perform(step: Step, connection: ReplayConnection): Promise<void> {
    switch (step.kind) {
      case 'open':
        await connection.open(this.target.ipcPath);
        return;
      case 'send':
        await this.send(connection, step.frame);
        return;
      case 'close':
        // Paced, a connection that waits for its last frames must not hold the others' timeline back.
        if (this.options.fast) await connection.finish(this.timeoutMs);
        else this.closing.push(connection.finish(this.timeoutMs));
        return;
    }
  }

  private async send(connection: ReplayConnection, frame: TimedFrame): Promise<void> {
    const socket = connection.openSocket;
    if (socket === null) return;
    const payload = await this.authorization.payload(connection, frame);
    socket.send(frame.opcode, payload);
    connection.sent += 1;
    // Fast: the next frame goes once this one's answer (if the recording has one) is here.
    if (this.options.fast) await connection.awaitAnswer(socket, frame, this.timeoutMs);
  }
}

/**
 * Plays the game side of a recording against a running host: per recorded connection a real
 * IPC socket, the recorded frames (with fresh authorization values, see
 * AuthorizationSubstitutes) at their recorded times or, with `fast`, each once the previous
 * reply arrived; then compares what the host sent with what the recording says it sent.
 * Replies are paired by nonce (replay sends the recorded nonces), events by name and position
 * within the connection, CLOSE frames by position. Payloads are compared with
 * comparePayloads' rules, with secrets redacted on both sides, so a report never prints one.
 */
export async function runReplay(plan: ReplayPlan, target: ReplayTarget, options: ReplayOptions): Promise<ReplayReport> {
  return new ReplayRun(plan, target, options).run();
}
