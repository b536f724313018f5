import type { GatewayActivity } from '../../../../rpc/src/index.js';
import type { PresenceRelay } from '../presence/presence-relay.js';
import type { DetectedGame } from './game-detector.js';

/** The relay's connection id of a detected game's activity (one per application). */
export const DETECTED_CONNECTION_PREFIX = 'detected:';

export function detectedConnectionId(applicationId: string): string {
  return `${DETECTED_CONNECTION_PREFIX}${applicationId}`;
}

export function isDetectedConnection(connectionId: string): boolean {
  return connectionId.startsWith(DETECTED_CONNECTION_PREFIX);
}

/** "Playing <name>" since the game started (its process start where the OS says it): what the desktop client shows for a game without rich presence. */
export function detectedActivity(game: DetectedGame): GatewayActivity {
  return { name: game.name, type: 0, application_id: game.applicationId, platform: 'desktop', timestamps: { start: game.startedAt }, metadata: {} };
}

/** Why a running detected game is not given to the relay, or `shown` when it is. */
export type DetectedShowing = 'shown' | 'excluded' | 'rpc' | 'off';

export interface DetectedActivitiesOptions {
  readonly relay: Pick<PresenceRelay, 'activityChanged' | 'live'>;
  /** The global switch. */
  readonly enabled: () => boolean;
  /** The player switched this game off. */
  readonly excluded: (applicationId: string) => boolean;
}

/**
 * Detected games as activities of the presence relay, beside the games' RPC activities: each
 * running game not switched off is one relay "connection" (`detected:<application id>`), so the
 * arbitration, the privacy rules and the rate limit apply to it as to an RPC activity. A game
 * whose own RPC connection has an activity (same application id) is shown by that one only:
 * its detected activity is taken out while the RPC one lasts, and comes back after it.
 */
export class DetectedActivities {
  private readonly running = new Map<string, DetectedGame>();
  /** Applications whose detected activity the relay holds. */
  private readonly fed = new Set<string>();

  constructor(private readonly options: DetectedActivitiesOptions) {}

  started(game: DetectedGame): void {
    this.running.set(game.applicationId, game);
    this.sync(game.applicationId);
  }

  ended(game: DetectedGame): void {
    this.running.delete(game.applicationId);
    this.sync(game.applicationId);
  }

  /** An RPC connection's activity changed (the relay already has it). */
  rpcChanged(applicationId: string): void {
    if (this.running.has(applicationId) || this.fed.has(applicationId)) this.sync(applicationId);
  }

  /** The switches changed: every running game is looked at again. */
  settingsChanged(): void {
    for (const applicationId of new Set([...this.running.keys(), ...this.fed])) this.sync(applicationId);
  }

  /** What becomes of a running game's activity now. */
  showing(applicationId: string): DetectedShowing {
    if (!this.options.enabled()) return 'off';
    if (this.options.excluded(applicationId)) return 'excluded';
    if (this.hasRpcActivity(applicationId)) return 'rpc';
    return 'shown';
  }

  /** Takes every detected activity out of the relay (detection stops). */
  clear(): void {
    this.running.clear();
    for (const applicationId of [...this.fed]) this.withdraw(applicationId);
  }

  private sync(applicationId: string): void {
    const game = this.running.get(applicationId);
    const wanted = game !== undefined && this.showing(applicationId) === 'shown';
    if (wanted && !this.fed.has(applicationId)) this.feed(game);
    else if (!wanted && this.fed.has(applicationId)) this.withdraw(applicationId);
  }

  private feed(game: DetectedGame): void {
    this.fed.add(game.applicationId);
    this.options.relay.activityChanged({
      connectionId: detectedConnectionId(game.applicationId),
      applicationId: game.applicationId,
      pid: game.pid,
      activity: detectedActivity(game),
      connectedAt: game.startedAt,
    });
  }

  private withdraw(applicationId: string): void {
    this.fed.delete(applicationId);
    this.options.relay.activityChanged({ connectionId: detectedConnectionId(applicationId), applicationId, pid: null, activity: null, cause: 'disconnect' });
  }

  private hasRpcActivity(applicationId: string): boolean {
    return this.options.relay.live().some((live) => live.applicationId === applicationId && !isDetectedConnection(live.connectionId));
  }
}
