import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { expandScopes, SCOPE_DESCRIPTIONS } from '../../../../platform/src/wire/oauth.js';
import { ACCESS_DENIED_MESSAGE, TIMED_OUT_MESSAGE, type AuthorizeOutcomeKind } from '../../../../rpc/src/protocol/authorize-outcomes.js';
import { RpcErrorCode } from '../../../../rpc/src/protocol/codes.js';

import type { ConsentPolicy } from './consent-policy.js';

export { CONSENT_POLICIES, parseConsentPolicy, type ConsentPolicy } from './consent-policy.js';

/** How a request ended; the kinds are rows of AUTHORIZE_OUTCOMES (rpc/src/protocol/authorize-outcomes.ts). */
export type ConsentOutcome =
  | { readonly kind: Extract<AuthorizeOutcomeKind, 'approved'>; readonly remembered: boolean }
  | { readonly kind: Extract<AuthorizeOutcomeKind, 'denied'> }
  | { readonly kind: Extract<AuthorizeOutcomeKind, 'dismissed'> }
  | { readonly kind: Extract<AuthorizeOutcomeKind, 'timed-out'> };

/**
 * The ERROR an outcome answers AUTHORIZE with, from the AUTHORIZE_OUTCOMES table; null for
 * approved (the caller fetches the code, and answers `server_error` if the platform fails).
 */
export function consentOutcomeError(outcome: ConsentOutcome): { code: number; message: string } | null {
  switch (outcome.kind) {
    case 'approved':
      return null;
    case 'denied':
    case 'dismissed':
      return { code: RpcErrorCode.OAuth2Error, message: ACCESS_DENIED_MESSAGE };
    case 'timed-out':
      return { code: RpcErrorCode.OAuth2Error, message: TIMED_OUT_MESSAGE };
  }
}

export type ConsentDecision = 'approve' | 'deny' | 'dismiss';

export interface ConsentAskInput {
  readonly applicationId: string;
  readonly applicationName: string;
  readonly applicationIcon: string | null;
  /** The platform verified the app; the prompt marks it unverified otherwise. */
  readonly verified: boolean;
  /** As the game requested them (umbrellas such as `sdk.social_layer` not yet expanded). */
  readonly scopes: readonly string[];
  /** 0 guild install, 1 user install, null when not given. */
  readonly integrationType: number | null;
  /** `consent` (what libraries always send), `none`, or not given. */
  readonly prompt: 'consent' | 'none' | undefined;
  /** The RPC connection that asked, for the UI; null when not from a connection. */
  readonly connectionId: string | null;
  /** Aborted when the game goes away: the request is dismissed at once. */
  readonly signal?: AbortSignal;
}

export interface ScopeDescription {
  readonly scope: string;
  /** What the player reads; the scope itself when there is no description. */
  readonly text: string;
}

/** A request as front ends show it. Times are epoch ms. */
export interface ConsentRequestView {
  /** Random, url-safe (base64url, 22 characters). */
  readonly id: string;
  readonly applicationId: string;
  readonly applicationName: string;
  readonly applicationIcon: string | null;
  readonly verified: boolean;
  /** As requested. */
  readonly scopes: readonly string[];
  /** Umbrellas expanded: what the player is asked to grant. */
  readonly expandedScopes: readonly string[];
  /** One per expanded scope, in the same order. */
  readonly descriptions: readonly ScopeDescription[];
  readonly integrationType: number | null;
  readonly prompt: 'consent' | 'none' | null;
  readonly connectionId: string | null;
  /** `queued`: waiting for its turn; `visible`: shown, its time limit running; `settled`: over. */
  readonly state: 'queued' | 'visible' | 'settled';
  readonly createdAt: number;
  /** When the prompt became visible; null while queued (or when it never was). */
  readonly visibleAt: number | null;
  /** visibleAt + the time limit; null while queued (the limit counts from visibility). */
  readonly expiresAt: number | null;
}

export interface ConsentBrokerEvents {
  /** A prompt became visible: show it. */
  request: [request: ConsentRequestView];
  /** A request that was pending (queued or visible) ended: hide it. */
  settled: [request: ConsentRequestView, outcome: ConsentOutcome];
  /** A remembered grant approved a request without a prompt: tell the player. */
  'auto-approved': [request: ConsentRequestView];
  /** A request was decided when asked, without a prompt (a remembered grant or the policy); for recordings. */
  decided: [request: ConsentRequestView, outcome: ConsentOutcome];
}

/** Injectable time, for tests. */
export interface ConsentClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: ConsentClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the broker needs of the grant cache. */
export interface GrantLookup {
  covers(applicationId: string, expandedScopes: readonly string[], integrationType: number | null): boolean;
}

export interface ConsentBrokerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface ConsentBrokerOptions {
  readonly grants: GrantLookup;
  /** Default `prompt`. */
  readonly policy?: ConsentPolicy;
  /** The setting "always ask": `prompt: consent` asks even when a grant covers the request. Default false. */
  readonly alwaysAsk?: boolean;
  /** Time limit of a visible prompt, counted from when it becomes visible. Default 5 minutes. */
  readonly timeoutMs?: number;
  /**
   * How many prompts may be visible at once, never two of one application. Default 1: one
   * prompt overall, the rest wait in one FIFO queue across applications.
   */
  readonly maxVisible?: number;
  readonly clock?: ConsentClock;
  /** Default 16 random bytes, base64url. */
  readonly newId?: () => string;
  readonly logger?: ConsentBrokerLogger;
}

export const DEFAULT_CONSENT_TIMEOUT_MS = 5 * 60_000;

interface Pending {
  readonly id: string;
  readonly input: ConsentAskInput;
  readonly expandedScopes: readonly string[];
  readonly createdAt: number;
  visibleAt: number | null;
  timer: unknown;
  readonly resolve: (outcome: ConsentOutcome) => void;
  readonly detach: () => void;
}

/** Plain words for each scope, in the order given. */
export function describeScopes(expandedScopes: readonly string[]): ScopeDescription[] {
  return expandedScopes.map((scope) => ({ scope, text: SCOPE_DESCRIPTIONS[scope] ?? scope }));
}

/**
 * Asks the player whether an application may have the scopes it requested (RPC AUTHORIZE),
 * independent of any UI: front ends (the TTY prompt, the control API, the UI) listen to
 * `request` and answer with `decide(id, ...)`.
 *
 * Queue: prompts become visible in FIFO order of `ask()`, at most `maxVisible` at once (default
 * 1) and never two of the same application; a request whose application already has a visible
 * prompt waits even if a later request of another application is shown first. The time limit
 * counts from when a prompt becomes visible, so a request never times out unseen while queued
 * (its game may still cancel it by disconnecting, which aborts `signal`).
 *
 * Every promise `ask()` returns settles: by a decision, the time limit, `signal`, or `dispose()`.
 */
export class ConsentBroker extends EventEmitter<ConsentBrokerEvents> {
  private readonly grants: GrantLookup;
  private readonly timeoutMs: number;
  private readonly maxVisible: number;
  private readonly clock: ConsentClock;
  private readonly newId: () => string;
  private readonly logger: ConsentBrokerLogger | undefined;
  /** Pending requests in ask() order; the visible ones have `visibleAt` set. */
  private readonly queue: Pending[] = [];
  private disposed = false;
  private pumping = false;

  /** The `--consent` policy; may change at runtime (queued requests see the new one when their turn comes). */
  policy: ConsentPolicy;
  /** The "always ask" setting; may change at runtime. */
  alwaysAsk: boolean;

  constructor(options: ConsentBrokerOptions) {
    super();
    this.grants = options.grants;
    this.policy = options.policy ?? 'prompt';
    this.alwaysAsk = options.alwaysAsk ?? false;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CONSENT_TIMEOUT_MS;
    this.maxVisible = Math.max(1, Math.floor(options.maxVisible ?? 1));
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.newId = options.newId ?? (() => randomBytes(16).toString('base64url'));
    this.logger = options.logger;
    if (!(this.timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
  }

  ask(input: ConsentAskInput): Promise<ConsentOutcome> {
    if (this.disposed || input.signal?.aborted === true) return Promise.resolve({ kind: 'dismissed' });
    const expandedScopes = expandScopes(input.scopes);
    const id = this.newId();
    const createdAt = this.clock.now();
    const immediate = this.decideWithoutPrompt(input, expandedScopes);
    if (immediate !== undefined) {
      const view = this.viewOf({ id, input, expandedScopes, createdAt, visibleAt: null }, 'settled');
      if (immediate.kind === 'approved' && immediate.remembered) this.emitSafely('auto-approved', view);
      this.emitSafely('decided', view, immediate);
      this.logger?.info({ applicationId: input.applicationId, outcome: immediate.kind, policy: this.policy }, 'consent decided without a prompt');
      return Promise.resolve(immediate);
    }
    return new Promise<ConsentOutcome>((resolve) => {
      const onAbort = (): void => {
        const entry = this.queue.find((item) => item.id === id);
        if (entry !== undefined) this.settle(entry, { kind: 'dismissed' });
      };
      input.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push({
        id,
        input,
        expandedScopes,
        createdAt,
        visibleAt: null,
        timer: undefined,
        resolve,
        detach: () => input.signal?.removeEventListener('abort', onAbort),
      });
      this.pump();
    });
  }

  /**
   * Answers a pending request (visible or still queued). False when no request has that id
   * (unknown, or already settled).
   */
  decide(id: string, decision: ConsentDecision): boolean {
    const entry = this.queue.find((item) => item.id === id);
    if (entry === undefined) return false;
    const outcome: ConsentOutcome =
      decision === 'approve' ? { kind: 'approved', remembered: false } : decision === 'deny' ? { kind: 'denied' } : { kind: 'dismissed' };
    this.settle(entry, outcome);
    return true;
  }

  /** Pending requests: the visible ones first (oldest first), then the queued ones in order. */
  pending(): ConsentRequestView[] {
    const visible = this.queue.filter((item) => item.visibleAt !== null);
    const queued = this.queue.filter((item) => item.visibleAt === null);
    return [...visible.map((item) => this.viewOf(item, 'visible')), ...queued.map((item) => this.viewOf(item, 'queued'))];
  }

  /** Settles every pending request as dismissed; later asks are dismissed at once. */
  dispose(): void {
    // Set first: settling a visible request must not make a queued one visible.
    this.disposed = true;
    for (const entry of [...this.queue]) this.settle(entry, { kind: 'dismissed' });
  }

  /** The outcome when no prompt is needed, else undefined. */
  private decideWithoutPrompt(input: ConsentAskInput, expandedScopes: readonly string[]): ConsentOutcome | undefined {
    const mustAsk = this.alwaysAsk && input.prompt === 'consent';
    if (!mustAsk && this.grants.covers(input.applicationId, expandedScopes, input.integrationType)) {
      return { kind: 'approved', remembered: true };
    }
    if (this.policy === 'approve') return { kind: 'approved', remembered: false };
    if (this.policy === 'deny') return { kind: 'denied' };
    return undefined;
  }

  /** Makes queued requests visible while there is room, in FIFO order, one per application. */
  private pump(): void {
    if (this.pumping || this.disposed) return;
    this.pumping = true;
    try {
      for (;;) {
        const visible = this.queue.filter((item) => item.visibleAt !== null);
        if (visible.length >= this.maxVisible) return;
        const showing = new Set(visible.map((item) => item.input.applicationId));
        const next = this.queue.find((item) => item.visibleAt === null && !showing.has(item.input.applicationId));
        if (next === undefined) return;
        // Its turn came: a grant recorded meanwhile (e.g. for the request before it) or a new policy may answer it.
        const immediate = this.decideWithoutPrompt(next.input, next.expandedScopes);
        if (immediate !== undefined) {
          if (immediate.kind === 'approved' && immediate.remembered) this.emitSafely('auto-approved', this.viewOf(next, 'settled'));
          this.settle(next, immediate);
          continue;
        }
        const now = this.clock.now();
        next.visibleAt = now;
        next.timer = this.clock.setTimeout(() => {
          if (this.queue.includes(next)) this.settle(next, { kind: 'timed-out' });
        }, this.timeoutMs);
        this.emitSafely('request', this.viewOf(next, 'visible'));
      }
    } finally {
      this.pumping = false;
    }
  }

  private settle(entry: Pending, outcome: ConsentOutcome): void {
    const index = this.queue.indexOf(entry);
    if (index === -1) return;
    this.queue.splice(index, 1);
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.detach();
    entry.resolve(outcome);
    this.logger?.info({ applicationId: entry.input.applicationId, requestId: entry.id, outcome: outcome.kind }, 'consent request settled');
    this.emitSafely('settled', this.viewOf(entry, 'settled'), outcome);
    // A listener may have settled more or asked again; pump sees the current queue.
    this.pump();
  }

  private viewOf(
    entry: Pick<Pending, 'id' | 'input' | 'expandedScopes' | 'createdAt' | 'visibleAt'>,
    state: ConsentRequestView['state'],
  ): ConsentRequestView {
    const { input } = entry;
    return {
      id: entry.id,
      applicationId: input.applicationId,
      applicationName: input.applicationName,
      applicationIcon: input.applicationIcon,
      verified: input.verified,
      scopes: [...input.scopes],
      expandedScopes: [...entry.expandedScopes],
      descriptions: describeScopes(entry.expandedScopes),
      integrationType: input.integrationType,
      prompt: input.prompt ?? null,
      connectionId: input.connectionId,
      state,
      createdAt: entry.createdAt,
      visibleAt: entry.visibleAt,
      expiresAt: entry.visibleAt === null ? null : entry.visibleAt + this.timeoutMs,
    };
  }

  /** A throwing listener must not leave the queue half-updated. */
  private emitSafely<K extends keyof ConsentBrokerEvents>(event: K, ...args: ConsentBrokerEvents[K]): void {
    try {
      (this.emit as (event: K, ...args: ConsentBrokerEvents[K]) => boolean)(event, ...args);
    } catch (error) {
      this.logger?.warn({ event, error: error instanceof Error ? error.message : String(error) }, 'consent listener failed');
    }
  }
}
