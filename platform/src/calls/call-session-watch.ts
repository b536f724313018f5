import type { PlatformLogger } from '../support/logger.js';
import type { CallService } from './call-service.js';

export interface CallSessionWatchDeps {
  readonly calls: CallService;
  /** Whether the user has a live gateway session of a game of that application (its own token's sessions only). */
  readonly connected: (userId: string, applicationId: string) => boolean;
  /** How long a participant whose last game session ended stays in the call (the voice connection's grace, ms). */
  readonly graceMs: number;
  readonly logger: PlatformLogger;
}

/**
 * Takes a player out of their lobby calls when their game has gone **(ours: the public record
 * does not say when the platform drops a lobby call's participant)**: when the user's last live
 * gateway session of a lobby's application ends, they stay in that lobby's call for the voice
 * connection's grace, and leave it then (the other participants get VOICE_STATE_UPDATE with
 * `channel_id` null and the voice server's `left`) unless a session of that application is live
 * again by then. Their voice connection does not keep them in: the game session does.
 */
export class CallSessionWatch {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly deps: CallSessionWatchDeps) {}

  /**
   * A gateway session of the user ended (it no longer counts as connected): a game's, of
   * `applicationId`, or null for the desktop client's (which changes nothing: the simulated
   * friend, in a call with no game at all, stays in it).
   */
  sessionEnded(userId: string, applicationId: string | null): void {
    if (this.closed || applicationId === null) return;
    for (const call of this.deps.calls.list(applicationId)) {
      if (!call.participants.some((participant) => participant.user_id === userId)) continue;
      if (this.deps.connected(userId, applicationId)) continue;
      this.schedule(call.lobby_id, call.application_id, userId);
    }
  }

  /** Stops every pending leave (the emulator closes). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(lobbyId: string, applicationId: string, userId: string): void {
    const key = `${lobbyId}\u0000${userId}`;
    if (this.timers.has(key)) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (this.closed || this.deps.connected(userId, applicationId)) return;
      this.deps.logger.debug({ lobbyId, userId }, 'call left: the game session ended');
      this.deps.calls.leave(lobbyId, userId);
    }, this.deps.graceMs);
    timer.unref();
    this.timers.set(key, timer);
  }
}
