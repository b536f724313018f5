import type { LobbyService } from './lobby-service.js';

/** Runs the lobby service's idle sweep every second until stopped (a lobby's timeout is at least 5 s). */
export class LobbySweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly lobbies: Pick<LobbyService, 'sweep'>,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.lobbies.sweep(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
