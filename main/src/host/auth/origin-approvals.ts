import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import * as v from 'valibot';
import { removeStrayTemps, writerGone } from '../../../../common/src/node/atomic-file.js';
import { moveAside, readJsonStateFile, writeJsonStateFile } from '../../base/json-state-file.js';
import type { OriginDecisionView, OriginRequestView } from '../../../../preload/src/contract.js';

/** The platform's own web pages: allowed for every application, as the real client allows them. */
export const PLATFORM_WEB_ORIGINS: readonly string[] = ['https://discord.com', 'https://ptb.discord.com', 'https://canary.discord.com'];

export const ORIGINS_FILE = 'rpc-origins.json';
const FORMAT_VERSION = 1;

/** The views the UI and the control API show: defined once, in the UI contract. */
export type { OriginDecisionView, OriginRequestView };

export type OriginRequestOutcome = 'approved' | 'denied' | 'expired';

export interface OriginApprovalsEvents {
  /** A new request, once the application's name is known (or known to be unknowable). */
  request: [request: OriginRequestView];
  /** A pending request ended. */
  settled: [request: OriginRequestView, outcome: OriginRequestOutcome];
  /** The list of decisions changed. */
  decisions: [];
}

export interface OriginApprovalsLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface OriginApprovalsOptions {
  readonly dataDir: string;
  /** Origins allowed for every application besides PLATFORM_WEB_ORIGINS (the configured platform's). */
  readonly trustedOrigins?: readonly string[];
  /**
   * The application's name for a request; null: the application does not exist, and no
   * request is made (a page cannot fill the list with made-up ids). Rejections leave the name null.
   */
  readonly applicationName?: (clientId: string) => string | null | Promise<string | null>;
  /** At most this many requests wait at once; the oldest goes first (default 32). */
  readonly maxPending?: number;
  /** A request with no new attempt for this long expires (default 10 minutes). */
  readonly pendingTtlMs?: number;
  readonly now?: () => number;
  readonly newId?: () => string;
  readonly logger?: OriginApprovalsLogger;
}

interface Pending {
  readonly id: string;
  readonly origin: string;
  readonly clientId: string;
  applicationName: string | null;
  readonly createdAt: number;
  lastAttemptAt: number;
  attempts: number;
  /** The name lookup settled and `request` was emitted. */
  announced: boolean;
}

interface Decision {
  readonly id: string;
  readonly origin: string;
  readonly clientId: string;
  readonly applicationName: string | null;
  readonly decision: 'approved' | 'denied';
  readonly decidedAt: number;
}

const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  approved: v.array(
    v.object({
      id: v.pipe(v.string(), v.minLength(1)),
      origin: v.string(),
      client_id: v.pipe(v.string(), v.regex(/^[0-9]{17,20}$/)),
      application_name: v.nullable(v.string()),
      approved_at: v.number(),
    }),
  ),
});

/**
 * The Origin header as `scheme://host[:port]` (lower-case, default ports dropped), or null when
 * it cannot be approved: `null` (sandboxed frames, files), or not a URL with a host.
 */
export function normalizeOrigin(header: string): string | null {
  if (header === 'null') return null;
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return null;
  }
  if (url.host === '') return null;
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  // Browser extensions (chrome-extension://id): URL gives them an opaque origin.
  return `${url.protocol}//${url.host}`;
}

const key = (origin: string, clientId: string): string => `${origin} ${clientId}`;

/**
 * Which web origins may use the RPC WebSocket, per application. A connection that carries an
 * Origin header is allowed when the origin is the platform's own (PLATFORM_WEB_ORIGINS and
 * `trustedOrigins`) or the player approved that origin for that application; otherwise it is
 * refused (4001 "Invalid Origin", by the listener) and a request waits for the player, as
 * consent prompts do. Approving does not reopen the refused connection: the next one is
 * accepted. Approvals are kept in `<data dir>/rpc-origins.json` (mode 0600, atomic writes);
 * denials are remembered until the host stops, so a page that retries does not ask again.
 */
export class OriginApprovals extends EventEmitter<OriginApprovalsEvents> {
  private readonly trusted: ReadonlySet<string>;
  private readonly pendingByKey = new Map<string, Pending>();
  private readonly decided = new Map<string, Decision>();
  private readonly maxPending: number;
  private readonly pendingTtlMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly logger: OriginApprovalsLogger | undefined;
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OriginApprovalsOptions) {
    super();
    const trusted = [...PLATFORM_WEB_ORIGINS, ...(options.trustedOrigins ?? [])].map(normalizeOrigin);
    this.trusted = new Set(trusted.filter((origin): origin is string => origin !== null));
    this.maxPending = Math.max(1, options.maxPending ?? 32);
    this.pendingTtlMs = options.pendingTtlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => randomBytes(12).toString('base64url'));
    this.logger = options.logger;
  }

  get file(): string {
    return path.join(this.options.dataDir, ORIGINS_FILE);
  }

  /**
   * Reads the approvals. A missing file is none; a corrupt one is renamed aside
   * (`rpc-origins.json.corrupt-<ms>`) and `warning` says so. Other read errors reject.
   */
  async load(): Promise<{ approved: number; warning: string | null }> {
    // Temps of a writer that died between writing and renaming (several hosts may share the dir).
    await removeStrayTemps(this.file, writerGone);
    const read = await readJsonStateFile(this.file, FileSchema, 'web origin approvals');
    if (read.kind === 'missing') return { approved: 0, warning: null };
    if (read.kind === 'invalid') {
      const aside = await moveAside(this.file, String(this.now()));
      const warning = `${ORIGINS_FILE} could not be read; kept as ${path.basename(aside)}; no web origin is approved`;
      this.logger?.warn({ file: this.file }, warning);
      return { approved: 0, warning };
    }
    for (const entry of read.value.approved) {
      const origin = normalizeOrigin(entry.origin);
      if (origin === null) continue;
      const { id, client_id: clientId, application_name: applicationName, approved_at: decidedAt } = entry;
      this.decided.set(key(origin, clientId), { id, origin, clientId, applicationName, decision: 'approved', decidedAt });
    }
    return { approved: this.approvedCount(), warning: null };
  }

  /**
   * The listener's question, for a connection with an Origin header: true when allowed. When
   * not, a request is recorded (or its attempts counted) unless the player denied the pair.
   */
  allows(originHeader: string, clientId: string): boolean {
    const origin = normalizeOrigin(originHeader);
    if (origin === null) return false;
    if (this.trusted.has(origin)) return true;
    const decision = this.decided.get(key(origin, clientId));
    if (decision !== undefined) return decision.decision === 'approved';
    this.expire();
    this.record(origin, clientId);
    return false;
  }

  /** Requests waiting for the player, oldest first. */
  pending(): OriginRequestView[] {
    this.expire();
    return [...this.pendingByKey.values()].map(toRequestView);
  }

  /** The player's answers: approved (kept) and denied (until the host stops), oldest first. */
  decisions(): OriginDecisionView[] {
    return [...this.decided.values()].sort((a, b) => a.decidedAt - b.decidedAt).map(toDecisionView);
  }

  /** Approves a pending request and saves it; false when no pending request has that id. */
  async approve(id: string): Promise<boolean> {
    const entry = this.settle(id, 'approved');
    if (entry === undefined) return false;
    await this.save();
    return true;
  }

  /** Denies a pending request (no new request for that pair until the host stops); false when unknown. */
  deny(id: string): boolean {
    return this.settle(id, 'denied') !== undefined;
  }

  /** Forgets a decision (an approval is removed from the file); false when no decision has that id. */
  async forget(id: string): Promise<boolean> {
    const found = [...this.decided.entries()].find(([, decision]) => decision.id === id);
    if (found === undefined) return false;
    this.decided.delete(found[0]);
    this.emitSafely('decisions');
    if (found[1].decision === 'approved') await this.save();
    return true;
  }

  /** Resolves once every write queued so far is done (or failed). */
  async flush(): Promise<void> {
    await this.last.catch(() => undefined);
  }

  private record(origin: string, clientId: string): void {
    const now = this.now();
    const existing = this.pendingByKey.get(key(origin, clientId));
    if (existing !== undefined) {
      existing.lastAttemptAt = now;
      existing.attempts += 1;
      return;
    }
    if (this.pendingByKey.size >= this.maxPending) {
      const oldest = this.pendingByKey.values().next().value as Pending;
      this.drop(oldest, 'expired');
    }
    const entry: Pending = { id: this.newId(), origin, clientId, applicationName: null, createdAt: now, lastAttemptAt: now, attempts: 1, announced: false };
    this.pendingByKey.set(key(origin, clientId), entry);
    this.logger?.info({ requestId: entry.id, clientId }, 'web origin waits for approval');
    void this.describe(entry);
  }

  /** Fills in the application's name, then announces the request; drops it when the app does not exist. */
  private async describe(entry: Pending): Promise<void> {
    let name: string | null | undefined;
    try {
      name = await this.options.applicationName?.(entry.clientId);
    } catch {
      name = undefined;
    }
    if (this.pendingByKey.get(key(entry.origin, entry.clientId)) !== entry) return;
    if (name === null) {
      this.pendingByKey.delete(key(entry.origin, entry.clientId));
      return;
    }
    entry.applicationName = name ?? null;
    entry.announced = true;
    this.emitSafely('request', toRequestView(entry));
  }

  private settle(id: string, outcome: 'approved' | 'denied'): Pending | undefined {
    this.expire();
    const entry = [...this.pendingByKey.values()].find((item) => item.id === id);
    if (entry === undefined) return undefined;
    const decision: Decision = {
      id: entry.id,
      origin: entry.origin,
      clientId: entry.clientId,
      applicationName: entry.applicationName,
      decision: outcome,
      decidedAt: this.now(),
    };
    this.decided.set(key(entry.origin, entry.clientId), decision);
    this.drop(entry, outcome);
    this.emitSafely('decisions');
    return entry;
  }

  private drop(entry: Pending, outcome: OriginRequestOutcome): void {
    this.pendingByKey.delete(key(entry.origin, entry.clientId));
    this.logger?.info({ requestId: entry.id, clientId: entry.clientId, outcome }, 'web origin request settled');
    if (entry.announced) this.emitSafely('settled', toRequestView(entry), outcome);
  }

  private expire(): void {
    const cutoff = this.now() - this.pendingTtlMs;
    for (const entry of [...this.pendingByKey.values()]) if (entry.lastAttemptAt <= cutoff) this.drop(entry, 'expired');
  }

  private approvedCount(): number {
    return [...this.decided.values()].filter((decision) => decision.decision === 'approved').length;
  }

  /** Writes every approval, after any write already queued. */
  private save(): Promise<void> {
    const approved = [...this.decided.values()]
      .filter((decision) => decision.decision === 'approved')
      .map((decision) => ({
        id: decision.id,
        origin: decision.origin,
        client_id: decision.clientId,
        application_name: decision.applicationName,
        approved_at: decision.decidedAt,
      }));
    const body = { version: FORMAT_VERSION, approved };
    const write = this.last.catch(() => undefined).then(() => writeJsonStateFile(this.file, body));
    this.last = write;
    return write;
  }

  /** A throwing listener must not break the listener's answer. */
  private emitSafely<K extends keyof OriginApprovalsEvents>(event: K, ...args: OriginApprovalsEvents[K]): void {
    try {
      (this.emit as (event: K, ...args: OriginApprovalsEvents[K]) => boolean)(event, ...args);
    } catch (error) {
      this.logger?.warn({ event, error: error instanceof Error ? error.name : typeof error }, 'origin approvals listener failed');
    }
  }
}

function toRequestView(entry: Pending): OriginRequestView {
  return {
    id: entry.id,
    origin: entry.origin,
    client_id: entry.clientId,
    application_name: entry.applicationName,
    created_at: entry.createdAt,
    last_attempt_at: entry.lastAttemptAt,
    attempts: entry.attempts,
  };
}

function toDecisionView(decision: Decision): OriginDecisionView {
  return {
    id: decision.id,
    origin: decision.origin,
    client_id: decision.clientId,
    application_name: decision.applicationName,
    decision: decision.decision,
    decided_at: decision.decidedAt,
  };
}
