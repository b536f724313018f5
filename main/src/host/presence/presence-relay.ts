import { EventEmitter } from 'node:events';
import type { ActivityChange, GatewayActivity } from '../../../../rpc/src/index.js';
import type { PresenceStatus, PresenceUpdateCommand, WireActivity } from '../../../../platform/src/wire/index.js';
import { chooseShown, isPlainMostRecent, type ArbitrationPolicy, type LiveActivity } from './arbitration.js';
import { toWireActivity } from './to-wire-activity.js';
import { fitPresence } from './fit-presence.js';
import { DEFAULT_PRESENCE_SETTINGS, hiddenBy, redactActivity, ruleFor, type PresenceSettings } from './presence-privacy.js';
import type { RelayOutcome, RelayOutcomeDetail } from './relay-outcomes.js';

/** A LiveActivity while it is being built. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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
  /** 'command' (default): a SET_ACTIVITY; 'disconnect': the connection closed. */
  readonly cause?: 'command' | 'disconnect';
  /** When the connection was established (epoch ms), for the first-connected policy. */
  readonly connectedAt?: number;
}

/** The RPC server's `activity` event in the relay's form; undefined before the handshake named an app. */
export function relayChangeFromRpc(change: ActivityChange): RelayActivityChange | undefined {
  const applicationId = change.connection.clientId;
  if (applicationId === null) return undefined;
  return {
    connectionId: change.connection.id,
    applicationId,
    pid: change.pid,
    activity: change.activity,
    cause: change.cause,
    connectedAt: change.connection.connectedAt,
  };
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
  /** Overrides the settings' arbitration policy (pinning and privacy rules still apply). */
  readonly policy?: ArbitrationPolicy;
  /** The player's arbitration and privacy settings, read on every decision; call `settingsChanged()` when they change. */
  readonly settings?: () => PresenceSettings;
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
  /** What became of a game update (see RelayOutcome); one or more per update. */
  outcome: [RelayOutcome];
}

/** What the relay keeps per connection that sent a game update, for the outcomes. */
interface UpdateTrack {
  readonly applicationId: string;
  /** Updates seen from this connection (the `update` number of the latest). */
  updates: number;
  /** Updates waiting for a flush (held), reported once it happens. */
  held: number;
  /** The settings changed: its latest update gets a new outcome at the next flush (not a held update of its own). */
  reannounce: boolean;
  /** The connection closed: forgotten once nothing is held. */
  closed: boolean;
}

/** The update that made the relay flush now. */
interface Trigger {
  readonly connectionId: string;
  readonly track: UpdateTrack;
  readonly cause: 'command' | 'disconnect';
  readonly cleared: boolean;
}

/** A game's activity as the gateway gets it: the wire form, with the fields the app's redact rule names taken out. */
function sharedWireActivity(live: LiveActivity, startedAt: number | undefined, settings: PresenceSettings): WireActivity {
  const wire = toWireActivity(live.activity, live.applicationId, startedAt);
  const rule = ruleFor(settings, live.applicationId);
  return rule.mode === 'redact' ? redactActivity(wire, rule.fields) : wire;
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
 *
 * Every game update gets an `outcome` event (RelayOutcome): sent, held then sent or
 * coalesced, shadowed, hidden, unchanged, or later rejected. While a flush is pending, an
 * update costs a map update, the arbitration and a counter: no payload is built.
 */
export class PresenceRelay extends EventEmitter<PresenceRelayEvents> {
  private readonly send: (payload: PresenceUpdateCommand) => boolean;
  private readonly policy: ArbitrationPolicy | undefined;
  private readonly settings: () => PresenceSettings;
  private readonly limit: RateLimit;
  private readonly marginMs: number;
  private readonly retryMs: number;
  private readonly clock: RelayClock;
  private readonly status: () => PresenceStatus;
  /** Live activities in connection order (Map keeps insertion order). */
  /** Numbers updates, for ties within a millisecond; and the latest update time seen. */
  private updateSeq = 0;
  private latestUpdateAt = Number.NEGATIVE_INFINITY;
  private readonly activities = new Map<string, LiveActivity>();
  /** When each connection's current activity began: the activity's created_at. */
  private readonly startedAt = new Map<string, number>();
  /** Send times of game-activity updates still inside the window, oldest first. */
  private readonly gameSends: number[] = [];
  private lastSent: PresenceUpdateCommand | undefined;
  /** `lastSent` before it was fitted to one gateway payload: the same state again needs no fitting to be told unchanged. */
  private lastSentDesired: PresenceUpdateCommand | undefined;
  /** The connection whose activity the last send carried; undefined when it carried none. */
  private shown: string | undefined;
  /** The last game-activity send, for a RATE_LIMITED about it: whose update, and how many it covered. */
  private lastGameSend: { connectionId: string; count: number } | undefined;
  private readonly tracks = new Map<string, UpdateTrack>();
  private timer: { handle: unknown; at: number } | undefined;
  private blockedUntil = 0;
  private disposed = false;

  constructor(options: PresenceRelayOptions) {
    super();
    this.send = options.send;
    this.policy = options.policy;
    this.settings = options.settings ?? (() => DEFAULT_PRESENCE_SETTINGS);
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
    const track = this.trackFor(connectionId, change.applicationId);
    track.updates++;
    const cause = change.cause ?? 'command';
    const trigger: Trigger = { connectionId, track, cause, cleared: change.activity === null };
    if (cause === 'disconnect') track.closed = true;
    const settings = this.settings();
    const hidden = hiddenBy(settings, change.applicationId);
    if (change.activity === null) {
      // Only a clear of the activity being shown changes what the platform shows.
      const before = hidden === undefined ? this.winner(settings) : undefined;
      this.activities.delete(connectionId);
      this.startedAt.delete(connectionId);
      if (hidden !== undefined) this.report(trigger, { kind: 'hidden', rule: hidden });
      else if (before?.connectionId !== connectionId) this.reportNotShown(trigger, before);
      else this.flush(trigger);
      this.forgetIfDone(connectionId, track);
      return;
    }
    const now = this.clock.now();
    if (!this.startedAt.has(connectionId)) this.startedAt.set(connectionId, now);
    const updateSeq = ++this.updateSeq;
    // The relay's clock may step back (wall time); the shortcut below needs it not to have.
    const inOrder = now >= this.latestUpdateAt;
    this.latestUpdateAt = Math.max(this.latestUpdateAt, now);
    // Built field by field: the conditional spread it replaced made a throwaway object per update.
    const live: Mutable<LiveActivity> = { updateSeq, connectionId, applicationId: change.applicationId, activity: change.activity, updatedAt: now, pid: change.pid };
    if (change.connectedAt !== undefined) live.connectedAt = change.connectedAt;
    this.activities.set(connectionId, live);
    if (hidden !== undefined) {
      this.report(trigger, { kind: 'hidden', rule: hidden });
      return;
    }
    // The common case needs no look at the other games: the update just made is the latest,
    // so it is the winner (what mostRecentlyUpdated over every game would answer).
    const winner = inOrder && isPlainMostRecent(settings, this.policy) ? this.activities.get(connectionId) : this.winner(settings);
    if (winner?.connectionId !== connectionId) {
      this.reportNotShown(trigger, winner);
      return;
    }
    // Held back already (rate limit, block or retry): the flush that is due computes the
    // state then. A game calling SET_ACTIVITY in a loop costs a map update, not a payload.
    if (this.timer !== undefined && this.timer.at > now) {
      track.held++;
      this.report(trigger, { kind: 'held', until: this.timer.at, count: track.held });
      return;
    }
    this.flush(trigger);
  }

  /**
   * The game's connection closed. Its activity was cleared by a `disconnect` change already
   * when it had one; a connection that cleared its activity before closing gets an outcome for
   * the close here (`unchanged`: nothing left to take down).
   */
  connectionClosed(connectionId: string): void {
    if (this.disposed) return;
    const track = this.tracks.get(connectionId);
    if (track === undefined || track.closed) return;
    const live = this.activities.get(connectionId);
    if (live !== undefined) {
      this.activityChanged({ connectionId, applicationId: live.applicationId, pid: live.pid, activity: null, cause: 'disconnect' });
      return;
    }
    track.updates++;
    track.closed = true;
    this.report({ connectionId, track, cause: 'disconnect', cleared: true }, { kind: 'unchanged' });
    this.forgetIfDone(connectionId, track);
  }

  /** The gateway session is (again) ready: the platform may not have our presence, send it again. */
  connected(): void {
    if (this.disposed) return;
    this.lastSent = undefined;
    this.lastSentDesired = undefined;
    this.flush();
  }

  /**
   * The platform answered RATE_LIMITED to an op 3: the last update was dropped (the updates it
   * carried are reported `rejected`). Nothing goes out before `retryAfterMs`, then the current
   * state is sent again (and they are reported `sent`).
   */
  rateLimited(retryAfterMs: number): void {
    if (this.disposed) return;
    const wait = Math.max(0, retryAfterMs);
    this.reportRejected('rate_limited', wait, true);
    this.lastSent = undefined;
    this.lastSentDesired = undefined;
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + wait);
    this.flush();
  }

  /**
   * The platform refused the last game-activity update for another reason (an error dispatch):
   * its updates are reported `rejected`. Nothing is resent (the same payload would fail again);
   * the next change sends anew.
   */
  rejected(reason: string): void {
    if (!this.disposed) this.reportRejected(reason, null, false);
  }

  /** Something `current()` depends on changed outside the relay (the user's status). */
  refresh(): void {
    if (!this.disposed) this.flush();
  }

  /**
   * The settings changed: what is shown is worked out again, and every game with an activity
   * gets a new outcome for its latest update (sent, held, unchanged, shadowed or hidden).
   */
  settingsChanged(): void {
    if (this.disposed) return;
    for (const [connectionId, track] of this.tracks) {
      if (!track.closed && track.held === 0 && this.activities.has(connectionId)) track.reannounce = true;
    }
    this.flush();
    const timer = this.timer;
    if (timer === undefined) return;
    for (const [connectionId, track] of this.tracks) {
      if (track.held > 0 || track.reannounce) {
        this.emitOutcome(connectionId, track, 'command', !this.activities.has(connectionId), { kind: 'held', until: timer.at, count: Math.max(1, track.held) });
      }
    }
  }

  /** What the platform should show now. */
  current(): PresenceUpdateCommand {
    return this.compute(this.settings()).payload;
  }

  /** The connection whose activity the platform was last sent (what friends see); undefined: none. */
  shownConnectionId(): string | undefined {
    return this.shown;
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
    this.tracks.clear();
    this.removeAllListeners();
  }

  private compute(settings: PresenceSettings): { payload: PresenceUpdateCommand; winner: LiveActivity | undefined } {
    const { desired, winner } = this.desired(settings);
    return { payload: fitted(desired), winner };
  }

  /** The state to show, before it is fitted to one gateway payload. */
  private desired(settings: PresenceSettings): { desired: PresenceUpdateCommand; winner: LiveActivity | undefined } {
    const winner = this.winner(settings);
    let activities: WireActivity[] = [];
    if (winner !== undefined) {
      activities = [this.wireOf(winner, settings)];
    }
    return { desired: { since: 0, activities, status: this.status(), afk: false }, winner };
  }

  /**
   * The winner's activity as the gateway gets it. A game repeating its activity hands the same
   * object again (the RPC server reuses it), so the wire form (about 1 KB) is made once for it,
   * not per update. Measured 2026-11-25: scavenges during 6,000 SET_ACTIVITY on a fresh host
   * 32-33 before, 29 after (docs/performance.md, "Against arRPC").
   */
  private wireOf(winner: LiveActivity, settings: PresenceSettings): WireActivity {
    const startedAt = this.startedAt.get(winner.connectionId);
    const memo = this.lastWire;
    if (memo !== undefined && memo.activity === winner.activity && memo.applicationId === winner.applicationId && memo.startedAt === startedAt && memo.settings === settings) {
      return memo.wire;
    }
    const wire = sharedWireActivity(winner, startedAt, settings);
    this.lastWire = { activity: winner.activity, applicationId: winner.applicationId, startedAt, settings, wire };
    return wire;
  }

  /**
   * What friends would see of one game's activity if it were the one shown: the activity the
   * relay sends for it (made by the same function), or null when the settings hide it or the
   * game has none. The player's preview ("as friends see it") shows this.
   */
  sharedActivityOf(connectionId: string): WireActivity | null {
    const live = this.activities.get(connectionId);
    if (live === undefined) return null;
    const settings = this.settings();
    if (hiddenBy(settings, live.applicationId) !== undefined) return null;
    return sharedWireActivity(live, this.startedAt.get(connectionId), settings);
  }

  private lastWire: { activity: GatewayActivity; applicationId: string; startedAt: number | undefined; settings: PresenceSettings; wire: WireActivity } | undefined;

  private winner(settings: PresenceSettings): LiveActivity | undefined {
    return chooseShown(this.live(), settings, this.policy);
  }

  /**
   * Sends the current state unless the platform has it already, the window is full or a block
   * is on (then a flush is scheduled). `trigger`: the update that asked for it, which gets its
   * outcome here; updates held earlier get theirs when the state goes out (or turns out
   * unchanged).
   */
  private flush(trigger?: Trigger): void {
    if (this.disposed) return;
    const settings = this.settings();
    const { desired, winner } = this.desired(settings);
    // The state last sent, again (a game repeating its activity): unchanged, told without fitting it
    // again (measured 2026-11-25: 2 KB less garbage per SET_ACTIVITY, see docs/performance.md).
    const same = this.lastSent !== undefined && jsonEqual(this.lastSentDesired, desired);
    const payload = same ? (this.lastSent as PresenceUpdateCommand) : fitted(desired);
    if (this.lastSent !== undefined && (same || jsonEqual(this.lastSent, payload))) {
      if (trigger !== undefined) this.report(trigger, { kind: 'unchanged' });
      this.resolveHeld(settings, winner, false);
      return;
    }
    const now = this.clock.now();
    let due: number | undefined;
    const game = isGameActivityUpdate(payload);
    if (now < this.blockedUntil) due = this.blockedUntil;
    else if (game) {
      const slot = this.nextSlot(now);
      if (slot > now) due = slot;
    }
    if (due === undefined && !this.trySend(payload)) due = now + this.retryMs;
    if (due !== undefined) {
      this.scheduleAt(due);
      if (trigger !== undefined) {
        trigger.track.held++;
        this.report(trigger, { kind: 'held', until: this.timer?.at ?? due, count: trigger.track.held });
      }
      return;
    }
    this.lastSent = payload;
    this.lastSentDesired = desired;
    this.shown = payload.activities.length > 0 ? winner?.connectionId : undefined;
    if (trigger !== undefined) trigger.track.held++;
    const carried = winner === undefined ? undefined : this.tracks.get(winner.connectionId);
    if (game) {
      this.gameSends.push(now);
      this.lastGameSend = winner === undefined ? undefined : { connectionId: winner.connectionId, count: Math.max(1, carried?.held ?? 0) };
    }
    this.emit('sent', payload);
    this.resolveHeld(settings, winner, true);
  }

  /**
   * The outcome of every held update, now that the state went out (`sent`) or turned out to
   * be what the platform has (`unchanged`): the shown connection's updates and clears went out
   * (or changed nothing), others are shadowed or hidden.
   */
  private resolveHeld(settings: PresenceSettings, winner: LiveActivity | undefined, sent: boolean): void {
    for (const [connectionId, track] of this.tracks) {
      if (track.held === 0 && !track.reannounce) continue;
      const count = Math.max(1, track.held);
      track.held = 0;
      track.reannounce = false;
      const hidden = hiddenBy(settings, track.applicationId);
      let detail: RelayOutcomeDetail;
      if (hidden !== undefined) detail = { kind: 'hidden', rule: hidden };
      else if (winner !== undefined && winner.connectionId !== connectionId && this.activities.has(connectionId)) {
        detail = { kind: 'shadowed', by_application_id: winner.applicationId, by_connection_id: winner.connectionId };
      } else if (!sent) detail = { kind: 'unchanged' };
      else detail = count === 1 ? { kind: 'sent' } : { kind: 'coalesced', count };
      this.emitOutcome(connectionId, track, track.closed ? 'disconnect' : 'command', !this.activities.has(connectionId), detail);
      this.forgetIfDone(connectionId, track);
    }
  }

  /** An update of a game whose activity is not (or, after a clear, was not) the one shown. */
  private reportNotShown(trigger: Trigger, winner: LiveActivity | undefined): void {
    this.report(
      trigger,
      winner === undefined ? { kind: 'unchanged' } : { kind: 'shadowed', by_application_id: winner.applicationId, by_connection_id: winner.connectionId },
    );
  }

  private reportRejected(reason: string, retryAfterMs: number | null, resend: boolean): void {
    const carried = this.lastGameSend;
    this.lastGameSend = undefined;
    if (carried === undefined) return;
    const track = this.tracks.get(carried.connectionId);
    if (track === undefined) return;
    this.emitOutcome(carried.connectionId, track, track.closed ? 'disconnect' : 'command', !this.activities.has(carried.connectionId), {
      kind: 'rejected',
      reason,
      retry_after_ms: retryAfterMs,
    });
    // The resend reports them again (sent or coalesced) once it goes out.
    if (resend && !track.closed) track.held += carried.count;
  }

  private report(trigger: Trigger, detail: RelayOutcomeDetail): void {
    this.emitOutcome(trigger.connectionId, trigger.track, trigger.cause, trigger.cleared, detail);
  }

  private emitOutcome(connectionId: string, track: UpdateTrack, cause: 'command' | 'disconnect', cleared: boolean, detail: RelayOutcomeDetail): void {
    if (this.listenerCount('outcome') === 0) return;
    this.emit('outcome', {
      connection_id: connectionId,
      application_id: track.applicationId,
      update: track.updates,
      cause,
      cleared,
      at: this.clock.now(),
      ...detail,
    });
  }

  private trackFor(connectionId: string, applicationId: string): UpdateTrack {
    let track = this.tracks.get(connectionId);
    if (track === undefined) {
      track = { applicationId, updates: 0, held: 0, reannounce: false, closed: false };
      this.tracks.set(connectionId, track);
    }
    return track;
  }

  private forgetIfDone(connectionId: string, track: UpdateTrack): void {
    if (track.closed && track.held === 0 && !track.reannounce && this.tracks.get(connectionId) === track) this.tracks.delete(connectionId);
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

/** Always one gateway payload: an activity too big for it would never arrive at all. */
function fitted(desired: PresenceUpdateCommand): PresenceUpdateCommand {
  return fitPresence(desired).payload;
}

/**
 * Deep equality of JSON values; key order does not matter, an undefined property is an absent
 * one. Called on every game update: it walks both values without allocating (the version with
 * Object.keys, filter and every made 5 KB of garbage per SET_ACTIVITY, measured 2026-11-25).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) return arraysEqual(a as readonly unknown[], b as readonly unknown[]);
  return recordsEqual(a as Readonly<Record<string, unknown>>, b as Readonly<Record<string, unknown>>);
}

function arraysEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
  return true;
}

function recordsEqual(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  // Every defined property of `a` equals `b`'s, and `b` has as many defined properties.
  let defined = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key) || a[key] === undefined) continue;
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
    defined += 1;
  }
  for (const key in b) if (Object.hasOwn(b, key) && b[key] !== undefined) defined -= 1;
  return defined === 0;
}
