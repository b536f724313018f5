import { EventEmitter } from 'node:events';
import type { ActivityChange, GatewayActivity } from '../../../rpc/src/index.js';
import type { PresenceStatus, PresenceUpdateCommand } from '../../../platform/src/wire/index.js';
import { mostRecentlyUpdated, type ArbitrationPolicy, type LiveActivity } from './arbitration.js';
import { toWireActivity } from './to-wire-activity.js';
import { fitPresence } from './fit-presence.js';

/** Time and timers, injectable so tests run a simulated clock. */
export interface RelayClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemClock: RelayClock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // A pending flush must not keep the process alive at shutdown.
    timer.unref();
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One game's activity changed; `activity: null` clears it (SET_ACTIVITY null or a disconnect). */
export interface RelayActivityChange {
  readonly connectionId: string;
  readonly applicationId: string;
  readonly pid: number | null;
  readonly activity: GatewayActivity | null;
}

/** The RPC server's `activity` event in the relay's form; undefined before the handshake named an app. */
export function relayChangeFromRpc(change: ActivityChange): RelayActivityChange | undefined {
  const applicationId = change.connection.clientId;
  if (applicationId === null) return undefined;
  return { connectionId: change.connection.id, applicationId, pid: change.pid, activity: change.activity };
}

export interface RateLimit {
  readonly count: number;
  readonly windowMs: number;
}

/** The platform's game-activity limit: 5 updates per 20 s per gateway session. */
export const GAME_ACTIVITY_LIMIT: RateLimit = { count: 5, windowMs: 20_000 };

export interface PresenceRelayOptions {
  /** Sends op 3. false: not sent (not connected, or over the connection's send budget now). */
  readonly send: (payload: PresenceUpdateCommand) => boolean;
  readonly policy?: ArbitrationPolicy;
  readonly limit?: RateLimit;
  /**
   * Added to the window before a slot counts as free (default 250 ms). The platform measures
   * the window on arrival, so a send exactly one window after another could land inside it
   * when the earlier one was delayed more; 0 gives the exact window.
   */
  readonly marginMs?: number;
  /** After `send` returned false, try again this much later (default 2 s) unless `connected()` comes first. */
  readonly retryMs?: number;
  readonly clock?: RelayClock;
  /** The user's own status (default online). Call `refresh()` when it changes. */
  readonly status?: () => PresenceStatus;
}

export interface PresenceRelayEvents {
  sent: [PresenceUpdateCommand];
}

/**
 * Relays the games' activities to the platform as the user's presence: one activity, chosen
 * by the arbitration policy among every connected game's current activity.
 *
 * The platform drops game-activity updates beyond its limit, so the relay never sends more
 * than `limit.count` of them in any `limit.windowMs`. Changes over the limit are coalesced:
 * one flush is scheduled for the moment a slot frees, and it sends the state current then,
 * so intermediate states are skipped and the latest always arrives. Updates without a game
 * activity (a clear) are not game-activity updates for the platform and go out at once.
 */
export class PresenceRelay extends EventEmitter<PresenceRelayEvents> {
  private readonly send: (payload: PresenceUpdateCommand) => boolean;
  private readonly policy: ArbitrationPolicy;
  private readonly limit: RateLimit;
  private readonly marginMs: number;
  private readonly retryMs: number;
  private readonly clock: RelayClock;
  private readonly status: () => PresenceStatus;
  /** Live activities in connection order (Map keeps insertion order). */
  private readonly activities = new Map<string, LiveActivity>();
  /** When each connection's current activity began: the activity's created_at. */
  private readonly startedAt = new Map<string, number>();
  /** Send times of game-activity updates still inside the window, oldest first. */
  private readonly gameSends: number[] = [];
  private lastSent: PresenceUpdateCommand | undefined;
  private timer: { handle: unknown; at: number } | undefined;
  private blockedUntil = 0;
  private disposed = false;

  constructor(options: PresenceRelayOptions) {
    super();
    this.send = options.send;
    this.policy = options.policy ?? mostRecentlyUpdated;
    this.limit = options.limit ?? GAME_ACTIVITY_LIMIT;
    if (!Number.isInteger(this.limit.count) || this.limit.count < 1 || !(this.limit.windowMs > 0)) {
      throw new RangeError('limit needs a count of at least 1 and a positive window');
    }
    this.marginMs = options.marginMs ?? 250;
    this.retryMs = options.retryMs ?? 2_000;
    this.clock = options.clock ?? systemClock;
    this.status = options.status ?? (() => 'online');
  }

  activityChanged(change: RelayActivityChange): void {
    if (this.disposed) return;
    const { connectionId } = change;
    if (change.activity === null) {
      this.activities.delete(connectionId);
      this.startedAt.delete(connectionId);
    } else {
      const now = this.clock.now();
      if (!this.startedAt.has(connectionId)) this.startedAt.set(connectionId, now);
      this.activities.set(connectionId, {
        connectionId,
        applicationId: change.applicationId,
        activity: change.activity,
        updatedAt: now,
        pid: change.pid,
      });
      // Held back already (rate limit, block or retry): the flush that is due computes the
      // state then. A game calling SET_ACTIVITY in a loop costs a map update, not a payload.
      if (this.timer !== undefined && this.timer.at > this.clock.now()) return;
    }
    this.flush();
  }

  /** The gateway session is (again) ready: the platform may not have our presence, send it again. */
  connected(): void {
    if (this.disposed) return;
    this.lastSent = undefined;
    this.flush();
  }

  /**
   * The platform answered RATE_LIMITED to an op 3: the last update was dropped. Nothing goes
   * out before `retryAfterMs`, then the current state is sent again.
   */
  rateLimited(retryAfterMs: number): void {
    if (this.disposed) return;
    this.lastSent = undefined;
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + Math.max(0, retryAfterMs));
    this.flush();
  }

  /** Something `current()` depends on changed outside the relay (the user's status). */
  refresh(): void {
    if (!this.disposed) this.flush();
  }

  /** What the platform should show now. */
  current(): PresenceUpdateCommand {
    const winner = this.policy(this.live());
    const activities = winner === undefined
      ? []
      : [toWireActivity(winner.activity, winner.applicationId, this.startedAt.get(winner.connectionId))];
    // Always one gateway payload: an activity too big for it would never arrive at all.
    return fitPresence({ since: 0, activities, status: this.status(), afk: false }).payload;
  }

  /** Every game's live activity, in connection order. */
  live(): readonly LiveActivity[] {
    return [...this.activities.values()];
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.activities.clear();
    this.startedAt.clear();
    this.removeAllListeners();
  }

  private flush(): void {
    if (this.disposed) return;
    const payload = this.current();
    if (this.lastSent !== undefined && jsonEqual(this.lastSent, payload)) return;
    const now = this.clock.now();
    if (now < this.blockedUntil) {
      this.scheduleAt(this.blockedUntil);
      return;
    }
    const game = isGameActivityUpdate(payload);
    if (game) {
      const slot = this.nextSlot(now);
      if (slot > now) {
        this.scheduleAt(slot);
        return;
      }
    }
    if (!this.trySend(payload)) {
      this.scheduleAt(now + this.retryMs);
      return;
    }
    this.lastSent = payload;
    if (game) this.gameSends.push(now);
    this.emit('sent', payload);
  }

  /** A throwing `send` counts as not sent: flushes also run from timers, where a throw would be uncaught. */
  private trySend(payload: PresenceUpdateCommand): boolean {
    try {
      return this.send(payload);
    } catch {
      return false;
    }
  }

  /** The earliest time a game-activity update may be sent (now or later). */
  private nextSlot(now: number): number {
    const span = this.limit.windowMs + this.marginMs;
    while (this.gameSends.length > 0 && (this.gameSends[0] as number) + span <= now) this.gameSends.shift();
    if (this.gameSends.length < this.limit.count) return now;
    return (this.gameSends[this.gameSends.length - this.limit.count] as number) + span;
  }

  /** One pending timer at most; an earlier deadline replaces a later one. */
  private scheduleAt(at: number): void {
    if (this.timer !== undefined && this.timer.at <= at) return;
    this.cancelTimer();
    const handle = this.clock.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, Math.max(0, at - this.clock.now()));
    this.timer = { handle, at };
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimer(this.timer.handle);
    this.timer = undefined;
  }
}

/** The platform counts an update against the limit when one of its activities names an application. */
export function isGameActivityUpdate(payload: PresenceUpdateCommand): boolean {
  return payload.activities.some((activity) => activity.application_id !== undefined);
}

/** Deep equality of JSON values; key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  const aKeys = Object.keys(aRecord).filter((key) => aRecord[key] !== undefined);
  const bKeys = Object.keys(bRecord).filter((key) => bRecord[key] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((key) => jsonEqual(aRecord[key], bRecord[key]));
}
