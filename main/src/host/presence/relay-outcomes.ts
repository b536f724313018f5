/**
 * What became of one game activity update (a SET_ACTIVITY, a clear, or the clear of a closed
 * connection) on its way to the platform. The JSON shape the control API serves (GET
 * /v1/presence, the `presence-outcome` event). Times are epoch ms.
 *
 * - `sent`: went out in a gateway presence update now.
 * - `coalesced`: `count` updates of this connection went out as one send (the latest state);
 *   follows their `held`.
 * - `held`: waiting for the platform's rate limit (or a retry) until `until`; `count` updates
 *   of this connection are held so far. A `sent`, `coalesced`, `shadowed`, `hidden` or
 *   `unchanged` for the same connection follows when the flush happens.
 * - `shadowed`: another game's activity is the one shown (`by_application_id`).
 * - `hidden`: a privacy rule keeps it from the platform: `hide-all`, or the app's `hide` rule.
 * - `rejected`: the platform refused the send that carried it (`reason`, e.g. `rate_limited`,
 *   with `retry_after_ms` when it said); the current state is sent again after that time.
 * - `unchanged`: identical to what the platform already shows: nothing to send.
 */
export type RelayOutcomeKind = 'sent' | 'coalesced' | 'held' | 'shadowed' | 'hidden' | 'rejected' | 'unchanged';

export type RelayOutcomeDetail =
  | { readonly kind: 'sent' }
  | { readonly kind: 'coalesced'; readonly count: number }
  | { readonly kind: 'held'; readonly until: number; readonly count: number }
  | { readonly kind: 'shadowed'; readonly by_application_id: string; readonly by_connection_id: string }
  | { readonly kind: 'hidden'; readonly rule: 'hide-all' | 'app' }
  | { readonly kind: 'rejected'; readonly reason: string; readonly retry_after_ms: number | null }
  | { readonly kind: 'unchanged' };

export type RelayOutcome = {
  readonly connection_id: string;
  readonly application_id: string;
  /**
   * Which update of this connection it is about: 1 for its first SET_ACTIVITY, counting every
   * SET_ACTIVITY and the close. For `coalesced` (and the outcomes that follow a `held`, or a
   * `rejected`) the latest update it covers.
   */
  readonly update: number;
  /** 'command': a SET_ACTIVITY; 'disconnect': the connection closed. */
  readonly cause: 'command' | 'disconnect';
  /** The update cleared the activity (SET_ACTIVITY without one, or a close). */
  readonly cleared: boolean;
  readonly at: number;
} & RelayOutcomeDetail;

export const RECENT_OUTCOMES = 200;
/** Last outcomes kept for connections (the connection seen first is forgotten first). */
const MAX_CONNECTIONS = 512;

/**
 * The outcomes the host keeps: the last one per connection, and a ring of the most recent
 * (`RECENT_OUTCOMES`). A `held` that follows a `held` of the same connection with the same
 * deadline replaces it in the ring (its `count` says how many are held), so a game calling
 * SET_ACTIVITY in a loop does not push everything else out.
 */
export class RelayOutcomeLog {
  private readonly ring: (RelayOutcome | undefined)[];
  /** Where the next entry goes. */
  private next = 0;
  private size = 0;
  private readonly lastByConnection = new Map<string, RelayOutcome>();

  constructor(private readonly capacity = RECENT_OUTCOMES) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ring = new Array<RelayOutcome | undefined>(capacity);
  }

  record(outcome: RelayOutcome): void {
    const connection = outcome.connection_id;
    // Replaced in place: no delete-then-set. A long-lived Map that deletes and re-adds on every
    // update rebuilds its hash table every few updates, and V8 allocates those tables straight
    // in the old generation; measured 2026-11-25, that was 3 of the 46 MB that outlived a
    // scavenge in 10 s of 100 games (docs/performance.md, "Third pass").
    const known = this.lastByConnection.has(connection);
    this.lastByConnection.set(connection, outcome);
    if (!known && this.lastByConnection.size > MAX_CONNECTIONS) {
      const oldest = this.lastByConnection.keys().next().value as string;
      this.lastByConnection.delete(oldest);
    }
    const newestIndex = (this.next - 1 + this.capacity) % this.capacity;
    const newest = this.size > 0 ? this.ring[newestIndex] : undefined;
    if (outcome.kind === 'held' && newest?.kind === 'held' && newest.connection_id === connection && newest.until === outcome.until) {
      this.ring[newestIndex] = outcome;
      return;
    }
    this.ring[this.next] = outcome;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  /** The connection's latest outcome, or null. */
  last(connectionId: string): RelayOutcome | null {
    return this.lastByConnection.get(connectionId) ?? null;
  }

  /** A connection that is gone: its last outcome is no longer needed (it stays in the ring). */
  forget(connectionId: string): void {
    this.lastByConnection.delete(connectionId);
  }

  /** The ring, oldest first. */
  /** The most recent outcomes, oldest first; `limit`: only that many of the newest. */
  recent(limit = this.capacity): RelayOutcome[] {
    const count = Math.min(this.size, Math.max(0, limit));
    const out: RelayOutcome[] = [];
    const start = (this.next - count + this.capacity) % this.capacity;
    for (let i = 0; i < count; i++) out.push(this.ring[(start + i) % this.capacity] as RelayOutcome);
    return out;
  }
}
