import { clampUnit } from './backoff.js';

export interface HeartbeatOptions {
  /** From Hello's `heartbeat_interval` (ms). */
  readonly intervalMs: number;
  /** Jitter source for the first beat, in [0, 1). */
  readonly random: () => number;
  /** Sends op 1; returns false if it could not be sent (then no ACK is awaited). */
  readonly beat: () => boolean;
  /** Called once when a beat is due and the previous one was never acknowledged. */
  readonly onZombie: () => void;
  readonly now: () => number;
}

/**
 * The heartbeat of one connection: first beat after `interval × random()` (so clients that
 * reconnect together do not beat together), then one per interval. A beat that finds the
 * previous one unacknowledged means the connection is a zombie.
 */
export class Heartbeat {
  private firstTimer: ReturnType<typeof setTimeout> | undefined;
  private intervalTimer: ReturnType<typeof setInterval> | undefined;
  private awaitingAck = false;
  private lastSentAt: number | undefined;
  private stopped = false;
  /** Round trip of the last acknowledged beat (ms). */
  latencyMs: number | undefined;

  constructor(private readonly options: HeartbeatOptions) {}

  /** The delay before the first beat (ms), for logs and tests. */
  start(): number {
    const delay = Math.round(this.options.intervalMs * clampUnit(this.options.random()));
    this.firstTimer = setTimeout(() => {
      this.firstTimer = undefined;
      this.tick();
      if (!this.stopped) this.intervalTimer = setInterval(() => this.tick(), this.options.intervalMs);
    }, delay);
    return delay;
  }

  /** A beat now, without the zombie check: the server asked for one (op 1). */
  beatNow(): void {
    if (this.stopped) return;
    if (this.options.beat()) {
      this.awaitingAck = true;
      this.lastSentAt = this.options.now();
    }
  }

  ack(): void {
    this.awaitingAck = false;
    if (this.lastSentAt !== undefined) this.latencyMs = this.options.now() - this.lastSentAt;
  }

  stop(): void {
    this.stopped = true;
    if (this.firstTimer !== undefined) clearTimeout(this.firstTimer);
    if (this.intervalTimer !== undefined) clearInterval(this.intervalTimer);
    this.firstTimer = undefined;
    this.intervalTimer = undefined;
  }

  private tick(): void {
    if (this.stopped) return;
    if (this.awaitingAck) {
      this.stop();
      this.options.onZombie();
      return;
    }
    this.beatNow();
  }
}
