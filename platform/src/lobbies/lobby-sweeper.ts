import type { LobbyService } from './lobby-service.js';

/** What the sweeper needs of the lobbies: their idle sweep, how many there are, and a word when one is made. */
export type SweptLobbies = Pick<LobbyService, 'sweep' | 'count' | 'onStored'>;

/**
 * Runs the lobby service's idle sweep every second (a lobby's timeout is at least 5 s), while
 * there are lobbies: with none, no timer runs (issue 27 §4: an idle emulator sets no timer of
 * its own); the first lobby stored arms it again.
 */
export class LobbySweeper {
  private timer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly lobbies: SweptLobbies,
    private readonly intervalMs = 1000,
  ) {
    lobbies.onStored(() => this.arm());
  }

  /** Whether the sweep's timer runs now. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    this.started = true;
    this.arm();
  }

  stop(): void {
    this.started = false;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One sweep; the timer stops once no lobby is left. */
  sweepNow(): number {
    const deleted = this.lobbies.sweep();
    if (this.lobbies.count === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    return deleted;
  }

  private arm(): void {
    if (!this.started || this.timer !== undefined || this.lobbies.count === 0) return;
    this.timer = setInterval(() => this.sweepNow(), this.intervalMs);
    this.timer.unref();
  }
}
