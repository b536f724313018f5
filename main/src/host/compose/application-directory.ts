import type { ResolvedApplication } from '../../../../rpc/src/index.js';
import type { RpcApplication } from '../../../../platform/src/wire/index.js';

/** A look-up the platform refused for now (rate limited): the app is unknown, and not remembered as such. */
export const REFUSED = 'refused';

/** What the directory needs from the platform: the app, null (unknown), or REFUSED. */
export interface ApplicationLookup {
  application(id: string): Promise<RpcApplication | null | typeof REFUSED>;
}

/** Entries each cache holds at most: games are a handful, so only a flood of ids ever reaches it. */
export const DIRECTORY_MAX_ENTRIES = 1024;

/** A map of entries that expire, holding at most `max` (expired ones go first, then the oldest). */
class ExpiringCache<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly until: number }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live value, or undefined (an expired entry is dropped). */
  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, until: number, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    if (this.entries.size <= this.max) return;
    for (const [id, entry] of this.entries) if (entry.until <= now) this.entries.delete(id);
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(id);
    }
  }
}

/**
 * Application lookups for the handshake, cached: a known app for 10 minutes (a rename on the
 * platform shows after that), an unknown one for 30 s (so a game registered meanwhile is
 * admitted soon), and failures and refusals not at all (the next handshake asks again).
 * Concurrent handshakes of one app share one request. Each cache holds at most
 * DIRECTORY_MAX_ENTRIES ids, so a flood of distinct ids does not grow the host.
 */
export class ApplicationDirectory {
  private readonly known: ExpiringCache<ResolvedApplication>;
  private readonly unknown: ExpiringCache<true>;
  private readonly inFlight = new Map<string, Promise<ResolvedApplication | null>>();

  constructor(
    private readonly lookup: ApplicationLookup,
    private readonly now: () => number = Date.now,
    private readonly unknownTtlMs = 30_000,
    private readonly knownTtlMs = 10 * 60_000,
    maxEntries = DIRECTORY_MAX_ENTRIES,
  ) {
    this.known = new ExpiringCache(maxEntries);
    this.unknown = new ExpiringCache(maxEntries);
  }

  /** Ids remembered, known and unknown (for tests and measurements). */
  get cached(): number {
    return this.known.size + this.unknown.size;
  }

  resolve(clientId: string): ResolvedApplication | null | Promise<ResolvedApplication | null> {
    const now = this.now();
    const known = this.known.get(clientId, now);
    if (known !== undefined) return known;
    if (this.unknown.get(clientId, now) === true) return null;
    let pending = this.inFlight.get(clientId);
    if (pending === undefined) {
      pending = this.lookup.application(clientId).then((app) => this.remember(clientId, app));
      const settle = (): void => void this.inFlight.delete(clientId);
      pending.then(settle, settle);
      this.inFlight.set(clientId, pending);
    }
    return pending;
  }

  private remember(clientId: string, app: RpcApplication | null | typeof REFUSED): ResolvedApplication | null {
    const now = this.now();
    if (app === REFUSED) return null;
    if (app === null) {
      this.unknown.set(clientId, true, now + this.unknownTtlMs, now);
      return null;
    }
    const resolved = { name: app.name };
    this.known.set(clientId, resolved, now + this.knownTtlMs, now);
    return resolved;
  }
}
