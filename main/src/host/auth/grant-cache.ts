import path from 'node:path';
import * as v from 'valibot';
import type { OAuthGrant } from '../../../../platform/src/wire/oauth.js';
import { removeStrayTemps } from '../../../../common/src/node/atomic-file.js';
import { fileTimestamp, moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import { pidExists } from '../../../../common/src/node/pid-exists.js';

/** Same shape as the host's pino logger (only what the cache uses). */
export interface GrantCacheLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface GrantCacheOptions {
  /** Epoch ms; names the aside copy of a corrupt file. Default Date.now. */
  readonly now?: () => number;
  readonly logger?: GrantCacheLogger;
  /**
   * Whether a process id is running; a stray temp file of a dead process is removed on load.
   * Default: `process.kill(pid, 0)`.
   */
  readonly isAlive?: (pid: number) => boolean;
}

/** What `load()` found. `warning`: a problem the player should read (also logged); null when none. */
export interface GrantCacheLoadResult {
  readonly grants: number;
  readonly warning: string | null;
}

export const GRANTS_FILE = 'grants.json';
const FORMAT_VERSION = 1;

const GrantSchema = v.object({
  id: v.string(),
  application: v.object({ id: v.string(), name: v.string(), icon: v.nullable(v.string()) }),
  scopes: v.array(v.string()),
  integration_type: v.nullable(v.number()),
  created_at: v.string(),
});
const FileSchema = v.object({ version: v.literal(FORMAT_VERSION), grants: v.array(GrantSchema) });

/** Scopes of `a`, then those of `b` it lacks, in order. */
function unionScopes(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  for (const scope of b) if (!out.includes(scope)) out.push(scope);
  return out;
}

/**
 * The host's copy of the player's OAuth2 grants: `<data dir>/grants.json`, mode 0600. The
 * platform is the source of truth (`GET /oauth2/tokens`, `replaceAll`); the cache lets the
 * consent broker approve a request that a remembered grant covers without asking the network.
 *
 * Every change goes through one queue (like AccountCache): applied in memory, then written as a
 * whole to a temp file with a unique name, fsynced, and renamed over the old file, so a crash
 * at any point leaves either the old file or the new one, never a torn one. A corrupt file is
 * renamed aside to `grants.json.corrupt-<timestamp>` with a warning; it is never dropped.
 */
export class GrantCache {
  private grants: OAuthGrant[] = [];
  /** The grant list as the file holds it (JSON), to skip writes that would change nothing. */
  private onDisk: string | undefined;
  private loaded: Promise<GrantCacheLoadResult> | undefined;
  private last: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;
  private readonly logger: GrantCacheLogger | undefined;
  private readonly isAlive: (pid: number) => boolean;

  constructor(
    private readonly dataDir: string,
    options: GrantCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger;
    this.isAlive = options.isAlive ?? pidExists;
  }

  get file(): string {
    return path.join(this.dataDir, GRANTS_FILE);
  }

  /**
   * Reads the file (once; later calls answer the first result). A missing file is no grants.
   * A file that is not valid JSON, or not a grant list, is renamed aside and the result carries
   * a warning saying where it went. Other read errors (e.g. EACCES) reject: the file is left
   * alone and nothing is written over it.
   */
  load(): Promise<GrantCacheLoadResult> {
    this.loaded ??= this.enqueue(() => this.loadNow()).catch((error: unknown) => {
      // A failed read (not a corrupt file) may succeed later: let the next call try again.
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /**
   * Whether one remembered grant of the app already holds every one of `expandedScopes`
   * (umbrellas expanded, see `expandScopes`). Integration types must match; a request without
   * one (null) is covered by a grant of any type. False before `load()` finished.
   */
  covers(applicationId: string, expandedScopes: readonly string[], integrationType: number | null): boolean {
    return this.grants.some(
      (grant) =>
        grant.application.id === applicationId &&
        (integrationType === null || grant.integration_type === integrationType) &&
        expandedScopes.every((scope) => grant.scopes.includes(scope)),
    );
  }

  /** The cached grants, in the order they were first recorded. */
  list(): OAuthGrant[] {
    return [...this.grants];
  }

  /**
   * Records a grant the platform issued or widened. It merges into the cached grant with the
   * same id or, failing that, the same application and integration type: scopes are the union,
   * the other fields come from `grant`. Resolves once the file holds it.
   */
  record(grant: OAuthGrant): Promise<void> {
    return this.change(() => {
      const index = this.findIndex(grant);
      if (index === -1) {
        this.grants.push(grant);
        return;
      }
      const existing = this.grants[index] as OAuthGrant;
      this.grants[index] = { ...grant, scopes: unionScopes(existing.scopes, grant.scopes) };
      // Two cached grants may now describe the same one (same id): keep the merged one.
      this.grants = this.grants.filter((other, at) => at === index || other.id !== grant.id);
    });
  }

  /** Forgets every grant of the application; resolves with how many were removed. */
  remove(applicationId: string): Promise<number> {
    return this.change(() => this.removeWhere((grant) => grant.application.id === applicationId));
  }

  /** Forgets one grant by its id; resolves with whether it was cached. */
  removeGrant(grantId: string): Promise<boolean> {
    return this.change(() => this.removeWhere((grant) => grant.id === grantId) > 0);
  }

  /** Replaces the cache with the platform's list (`GET /oauth2/tokens`). */
  replaceAll(grants: readonly OAuthGrant[]): Promise<void> {
    return this.change(() => {
      this.grants = [];
      for (const grant of grants) {
        const index = this.findIndex(grant);
        if (index === -1) this.grants.push(grant);
        else {
          const existing = this.grants[index] as OAuthGrant;
          this.grants[index] = { ...grant, scopes: unionScopes(existing.scopes, grant.scopes) };
        }
      }
    });
  }

  /** Resolves when every change queued so far is on disk (or failed). */
  async flush(): Promise<void> {
    await this.last.catch(() => undefined);
  }

  private findIndex(grant: OAuthGrant): number {
    const byId = this.grants.findIndex((other) => other.id === grant.id);
    if (byId !== -1) return byId;
    return this.grants.findIndex(
      (other) => other.application.id === grant.application.id && other.integration_type === grant.integration_type,
    );
  }

  private removeWhere(test: (grant: OAuthGrant) => boolean): number {
    const before = this.grants.length;
    this.grants = this.grants.filter((grant) => !test(grant));
    return before - this.grants.length;
  }

  /** Runs after every earlier operation, whether it failed or not. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.catch(() => undefined).then(work);
    this.last = next;
    return next;
  }

  /**
   * One change: loads first if nobody did (so a change never writes over grants it has not
   * read), applies it in memory and writes the whole list. If the write fails the change stays
   * in memory and the next write carries it.
   */
  private change<T>(apply: () => T): Promise<T> {
    const loading = this.load();
    return this.enqueue(async () => {
      await loading;
      const result = apply();
      await this.writeNow();
      return result;
    });
  }

  private async loadNow(): Promise<GrantCacheLoadResult> {
    // Temp files left by a writer that died between writing and renaming (never read). Ours
    // are never in flight here: load runs in the write queue.
    await removeStrayTemps(
      this.file,
      (pid) => pid === process.pid || !this.isAlive(pid),
      (name) => this.logger?.info({ file: name }, 'grant cache: removed a temp file left by an interrupted write'),
    );
    const read = await readJsonStateFile(this.file, FileSchema, 'a grant list');
    if (read.kind === 'missing') return { grants: 0, warning: null };
    if (read.kind === 'valid') {
      this.grants = [];
      for (const grant of read.value.grants) {
        if (this.findIndex(grant) === -1) this.grants.push(grant);
      }
      this.onDisk = JSON.stringify(this.grants);
      return { grants: this.grants.length, warning: null };
    }
    const aside = await moveAside(this.file, fileTimestamp(this.now()));
    const warning = `${GRANTS_FILE} ${read.problem}; kept as ${path.basename(aside)}; starting with no remembered grants`;
    this.logger?.warn({ file: this.file, aside }, warning);
    return { grants: 0, warning };
  }

  private async writeNow(): Promise<void> {
    // A refresh after every reconnect usually finds the same list: no disk write for that.
    const content = JSON.stringify(this.grants);
    if (content === this.onDisk) return;
    await writeJsonStateFile(this.file, { version: FORMAT_VERSION, saved_at: new Date(this.now()).toISOString(), grants: this.grants });
    this.onDisk = content;
  }
}
