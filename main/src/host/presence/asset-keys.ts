/**
 * The art asset names each application uploaded, for the lint "asset key the app never
 * uploaded". Asked on the SET_ACTIVITY path, so it never waits: the first ask for an app
 * starts a fetch and answers undefined (the check is skipped), later asks get the names.
 * A failed fetch is retried after `retryMs`; names are refreshed after `ttlMs`.
 */
export interface AssetKeyCacheOptions {
  readonly fetch: (applicationId: string) => Promise<readonly string[]>;
  readonly now?: () => number;
  readonly ttlMs?: number;
  readonly retryMs?: number;
  /** Apps remembered at most (the oldest goes first). */
  readonly maxApps?: number;
}

interface Entry {
  keys: ReadonlySet<string> | undefined;
  /** When to fetch again. */
  staleAt: number;
  fetching: boolean;
}

export class AssetKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly options: AssetKeyCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Lower-cased asset names, or undefined while unknown. */
  keys(applicationId: string): ReadonlySet<string> | undefined {
    let entry = this.entries.get(applicationId);
    if (entry === undefined) {
      entry = { keys: undefined, staleAt: 0, fetching: false };
      this.entries.set(applicationId, entry);
      const max = this.options.maxApps ?? 256;
      if (this.entries.size > max) this.entries.delete(this.entries.keys().next().value as string);
    }
    if (!entry.fetching && this.now() >= entry.staleAt) this.refresh(applicationId, entry);
    return entry.keys;
  }

  private refresh(applicationId: string, entry: Entry): void {
    entry.fetching = true;
    this.options.fetch(applicationId).then(
      (names) => {
        entry.keys = new Set(names.map((name) => name.toLowerCase()));
        entry.staleAt = this.now() + (this.options.ttlMs ?? 10 * 60_000);
        entry.fetching = false;
      },
      () => {
        entry.staleAt = this.now() + (this.options.retryMs ?? 60_000);
        entry.fetching = false;
      },
    );
  }
}
