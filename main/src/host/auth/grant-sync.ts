import type { RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import { OAuthGatewayEvent, type OAuthGrant, type PlatformUser } from '../../../../platform/src/wire/index.js';
import type { GrantCache } from './grant-cache.js';
import type { GrantLookup } from './consent-broker.js';
import { closeRevoked } from '../guilds/revocation.js';

/** The grant calls the sync makes with the signed-in user's token. */
export interface GrantPlatform {
  grants(): Promise<OAuthGrant[]>;
  revokeGrant(grantId: string): Promise<void>;
}

export interface GrantSyncOptions {
  readonly cache: GrantCache;
  readonly server: RpcServer;
  readonly platform: () => GrantPlatform | null;
  readonly user: () => PlatformUser | null;
  readonly logger: RpcLogger;
}

export class GrantNotFoundError extends Error {
  readonly status = 404;
  constructor(applicationId: string) {
    super(`No grant for application ${applicationId}`);
    this.name = 'GrantNotFoundError';
  }
}

/**
 * Keeps the host's remembered grants true to the platform, which owns them:
 * - the cache is trusted only once a refresh for the signed-in user has succeeded, so one
 *   user's grants never approve another user's requests (after a switch, or a file left by
 *   another account), and nothing is remembered while the platform cannot be asked;
 * - a refresh whose answer was fetched before a grant event is dropped (a list from before a
 *   revocation must not bring the grant back);
 * - grant events from the gateway update the cache; a revocation closes the app's
 *   authenticated games with 4003, and so does a refresh that finds a grant gone (a revocation
 *   missed while the gateway was away);
 * - an approval is remembered at once (before the platform's event arrives), so a second
 *   identical request does not prompt again.
 */
export class GrantSync {
  /** The user whose grants the cache holds, confirmed by the platform; null: not trusted. */
  private owner: string | null = null;
  private events = 0;
  private revoked = 0;
  private disposed = false;

  constructor(private readonly options: GrantSyncOptions) {}

  /** What the consent broker asks: covered only by confirmed grants of the current user. */
  readonly lookup: GrantLookup = {
    covers: (applicationId, scopes, integrationType) =>
      this.owner !== null && this.owner === this.options.user()?.id && this.options.cache.covers(applicationId, scopes, integrationType),
  };

  /** Bumped on every revocation (AUTHENTICATE checks its token again when it moved). */
  revocations(): number {
    return this.revoked;
  }

  /** The signed-in user's grants, once confirmed; empty until then. */
  list(): OAuthGrant[] {
    return this.owner !== null && this.owner === this.options.user()?.id ? this.options.cache.list() : [];
  }

  /** The account changed: nothing cached may be used until the new user's grants are fetched. */
  accountChanged(): void {
    this.owner = null;
    this.events += 1;
    void this.options.cache.replaceAll([]).catch(() => undefined);
    this.refresh();
  }

  /** The host is closing: no more refreshes or writes. */
  dispose(): void {
    this.disposed = true;
  }

  refresh(): void {
    if (this.disposed) return;
    const platform = this.options.platform();
    const user = this.options.user();
    if (platform === null || user === null) return;
    const started = this.events;
    platform
      .grants()
      .then(async (list) => {
        if (this.disposed || this.options.user()?.id !== user.id) return; // closing, or another account by now
        if (started !== this.events) {
          // A grant event came in meanwhile: this answer may predate it; ask again.
          this.refresh();
          return;
        }
        await this.options.cache.replaceAll(list);
        if (started !== this.events) {
          this.refresh();
          return;
        }
        this.owner = user.id;
        this.closeUngranted(list);
      })
      .catch((error: unknown) => this.options.logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'could not refresh grants'));
  }

  /** The player approved and a code was issued: remember it now. */
  granted(grant: { applicationId: string; scopes: readonly string[]; integrationType: number | null }): void {
    if (this.owner === null || this.disposed) return;
    void this.options.cache
      .record({
        id: `pending:${grant.applicationId}`,
        application: { id: grant.applicationId, name: '', icon: null },
        scopes: [...grant.scopes],
        integration_type: grant.integrationType,
        created_at: new Date().toISOString(),
      })
      .catch(() => undefined);
    this.refresh();
  }

  dispatch(t: string, d: unknown): void {
    if (this.disposed) return;
    if (t === OAuthGatewayEvent.GrantCreate) {
      this.events += 1;
      if (this.owner !== null) void this.options.cache.record((d as { grant: OAuthGrant }).grant).catch(() => undefined);
      this.refresh();
    } else if (t === OAuthGatewayEvent.GrantDelete) {
      const grant = (d as { grant: OAuthGrant }).grant;
      this.events += 1;
      this.revoked += 1;
      void this.options.cache.remove(grant.application.id).catch(() => undefined);
      // The tokens are gone: the app's authenticated games lose their access at once.
      closeRevoked(this.options.server, grant.application.id);
    }
  }

  /** Revokes the app's grant on the platform (the gateway's event then does the rest). */
  async revoke(applicationId: string): Promise<void> {
    const platform = this.options.platform();
    if (platform === null) throw Object.assign(new Error('Not signed in to the platform'), { status: 503 });
    const grant = (await platform.grants()).find((g) => g.application.id === applicationId);
    if (grant === undefined) throw new GrantNotFoundError(applicationId);
    await platform.revokeGrant(grant.id);
  }

  private closeUngranted(list: readonly OAuthGrant[]): void {
    const granted = new Set(list.map((grant) => grant.application.id));
    const apps = new Set<string>();
    for (const connection of this.options.server.connections()) {
      const app = connection.authenticatedApplicationId;
      if (connection.authenticated && app !== null && !granted.has(app)) apps.add(app);
    }
    for (const app of apps) {
      this.revoked += 1;
      closeRevoked(this.options.server, app);
    }
  }
}
