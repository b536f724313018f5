import type { ResolvedApplication } from '../../../../rpc/src/index.js';
import type { RpcApplication } from '../../../../platform/src/wire/index.js';

/** What the directory needs from the platform. */
export interface ApplicationLookup {
  application(id: string): Promise<RpcApplication | null>;
}

/**
 * Application lookups for the handshake, cached: a known app for 10 minutes (a rename on the
 * platform shows after that), an unknown one for 30 s (so a game registered meanwhile is
 * admitted soon), and failures not at all (the next handshake asks again). Concurrent
 * handshakes of one app share one request.
 */
export class ApplicationDirectory {
  private readonly known = new Map<string, { readonly app: ResolvedApplication; readonly until: number }>();
  private readonly unknownUntil = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<ResolvedApplication | null>>();

  constructor(
    private readonly lookup: ApplicationLookup,
    private readonly now: () => number = Date.now,
    private readonly unknownTtlMs = 30_000,
    private readonly knownTtlMs = 10 * 60_000,
  ) {}

  resolve(clientId: string): ResolvedApplication | null | Promise<ResolvedApplication | null> {
    const now = this.now();
    const known = this.known.get(clientId);
    if (known !== undefined && known.until > now) return known.app;
    const until = this.unknownUntil.get(clientId);
    if (until !== undefined && until > now) return null;
    this.unknownUntil.delete(clientId);
    let pending = this.inFlight.get(clientId);
    if (pending === undefined) {
      pending = this.lookup.application(clientId).then((app) => {
        if (app === null) {
          this.unknownUntil.set(clientId, this.now() + this.unknownTtlMs);
          return null;
        }
        const resolved = { name: app.name };
        this.known.set(clientId, { app: resolved, until: this.now() + this.knownTtlMs });
        return resolved;
      });
      const settle = (): void => void this.inFlight.delete(clientId);
      pending.then(settle, settle);
      this.inFlight.set(clientId, pending);
    }
    return pending;
  }
}
