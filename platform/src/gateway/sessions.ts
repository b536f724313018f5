import { PLATFORM_AUDIENCE, sessionInAudience, type Audience } from '../access/audience.js';
import { randomSessionId } from '../state/ids.js';
import type { PlatformLimits } from '../support/limits.js';
import { Session } from './session.js';

/** Sends dispatches to users' gateway sessions; what the HTTP side uses to reach clients. */
export interface Dispatcher {
  /**
   * Every session of the user, except `exceptSessionId` (which may be null): the platform-wide
   * audience (access/audience.ts), for the user's own data (DMs, relationships, guilds). An
   * application's data (a lobby's) goes through `dispatchTo` with its audience instead.
   */
  dispatchToUser(userId: string, t: string, d: unknown, options?: { readonly exceptSessionId?: string | null }): void;
  /**
   * Every session of the user, each with the data as its application sees it: `view(null)` for
   * a session of the user's own token, `view(appId)` for a game's (app-scoped fields such as a
   * DM's moderation metadata). One view is made per application.
   */
  dispatchToUserAs(userId: string, t: string, view: (applicationId: string | null) => unknown): void;
  /** The user's sessions in the audience (access/audience.ts: the one rule of which sessions see what), except `exceptSessionId`. */
  dispatchTo(userId: string, audience: Audience, t: string, d: unknown, options?: { readonly exceptSessionId?: string | null }): void;
  /** The user's sessions in the audience, each with the data as its application sees it (as `dispatchToUserAs`). */
  dispatchToAs(userId: string, audience: Audience, t: string, view: (applicationId: string | null) => unknown): void;
}

/** Every live or resumable session, by id and by user (in creation order). */
export class SessionRegistry implements Dispatcher {
  private readonly byId = new Map<string, Session>();
  private readonly byUser = new Map<string, Set<Session>>();
  private counter = 0;

  constructor(
    private readonly limits: PlatformLimits,
    private readonly now: () => number,
  ) {}

  create(userId: string): Session {
    this.counter += 1;
    const session = new Session(randomSessionId(), userId, this.counter, this.limits, this.now);
    this.byId.set(session.id, session);
    let set = this.byUser.get(userId);
    if (set === undefined) this.byUser.set(userId, (set = new Set()));
    set.add(session);
    return session;
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  ofUser(userId: string): Session[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  all(): Session[] {
    return [...this.byId.values()];
  }

  /** Forgets the session; the caller republishes the user's presence. */
  remove(session: Session): void {
    session.ended = true;
    session.transport = undefined;
    if (session.expiryTimer !== undefined) clearTimeout(session.expiryTimer);
    session.expiryTimer = undefined;
    this.byId.delete(session.id);
    const set = this.byUser.get(session.userId);
    set?.delete(session);
    if (set?.size === 0) this.byUser.delete(session.userId);
  }

  dispatchToUser(userId: string, t: string, d: unknown, options?: { readonly exceptSessionId?: string | null }): void {
    for (const session of this.ofUser(userId)) {
      if (session.id !== options?.exceptSessionId) session.dispatch(t, d);
    }
  }

  /** Only the user's sessions of that application's game tokens (what a game-scoped event reaches). */
  dispatchToApp(userId: string, applicationId: string, t: string, d: unknown): void {
    this.dispatchTo(userId, { kind: 'application-only', applicationId }, t, d);
  }

  dispatchTo(userId: string, audience: Audience, t: string, d: unknown, options?: { readonly exceptSessionId?: string | null }): void {
    for (const session of this.ofUser(userId)) {
      if (session.id !== options?.exceptSessionId && sessionInAudience(session.oauth?.applicationId ?? null, audience)) session.dispatch(t, d);
    }
  }

  dispatchToUserAs(userId: string, t: string, view: (applicationId: string | null) => unknown): void {
    this.dispatchToAs(userId, PLATFORM_AUDIENCE, t, view);
  }

  dispatchToAs(userId: string, audience: Audience, t: string, view: (applicationId: string | null) => unknown): void {
    const views = new Map<string | null, unknown>();
    for (const session of this.ofUser(userId)) {
      const app = session.oauth?.applicationId ?? null;
      if (!sessionInAudience(app, audience)) continue;
      if (!views.has(app)) views.set(app, view(app));
      session.dispatch(t, views.get(app));
    }
  }
}
