import { VOICE_FRAME_MS } from '../../../common/src/voice/voice-wire.js';

/**
 * A 20 ms tick that does not drift: each tick is scheduled for its own deadline from the start
 * (a late tick does not push the next ones back); after a stall of more than 5 frames it starts
 * over from now rather than running a burst of catch-up ticks.
 */
export class AudioClock {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private ticks = 0;

  constructor(private readonly tick: (nowMs: number) => void) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.startedAt = performance.now();
    this.ticks = 0;
    this.schedule();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const now = performance.now();
    let due = this.startedAt + (this.ticks + 1) * VOICE_FRAME_MS;
    if (now - due > 5 * VOICE_FRAME_MS) {
      this.startedAt = now;
      this.ticks = 0;
      due = now + VOICE_FRAME_MS;
    }
    this.timer = setTimeout(() => {
      this.ticks += 1;
      this.tick(performance.now());
      if (this.timer !== undefined) this.schedule();
    }, Math.max(0, due - now));
  }
}
