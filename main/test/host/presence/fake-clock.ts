import type { RelayClock } from '../../../src/host/presence/presence-relay.js';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** A simulated clock: timers run only when the test advances time, in due order. */
export class FakeClock implements RelayClock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, running every timer due on the way at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers
        .filter((timer) => timer.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
    }
    this.time = end;
  }
}
