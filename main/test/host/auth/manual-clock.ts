import type { ConsentClock } from '../../../src/host/auth/consent-broker.js';

/** A clock that moves only when told; timers fire in time order during `advance`. */
export class ManualClock implements ConsentClock {
  time: number;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private nextHandle = 1;

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + ms, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (due === undefined || entry[1].at < due[1].at)) due = entry;
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
}
