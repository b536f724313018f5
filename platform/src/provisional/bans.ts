import type { OAuthService } from '../oauth/service.js';
import type { BanRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { IdentityBook } from './identity-book.js';
import type { ProvisionalService } from './provisional-service.js';

export class BanError extends Error {
  constructor(
    readonly reason: 'unknown_user' | 'provisional',
    message: string,
  ) {
    super(message);
    this.name = 'BanError';
  }
}

/** A ban as QA sees it. */
export interface BanView extends BanRecord {
  /** The restricted provisional accounts the ban made (their identities). */
  readonly restricted: readonly { readonly application_id: string; readonly external_auth_type: string; readonly external_id: string; readonly user_id: string }[];
}

/**
 * Platform bans (an admin's act, `POST /_emulator/users/{id}/ban`) and what they do to games,
 * as the seed's table says: the user's tokens are deleted at once (every app: sessions end,
 * APPLICATION_DEAUTHORIZED); each game identity merged into the account is unlinked and a
 * new cross-platform-restricted provisional account carries it; merges answer 530017 until
 * the ban lifts (for a permanent ban, until an admin lifts it anyway **(ours)**). While banned
 * the account gets no token (authorize is refused, dev login too) and no gateway session, and is
 * in no lobby (the access policy refuses adding it back, and DMs and friend requests to it).
 */
export class Bans {
  constructor(
    private readonly store: Store,
    private readonly oauth: OAuthService,
    private readonly book: IdentityBook,
    private readonly provisional: ProvisionalService,
    private readonly now: () => number,
    /** Every gateway session of the user ends (the desktop client's too). */
    private readonly endUserSessions: (userId: string) => void,
    /** The user leaves every lobby they are still in (the others are told). */
    private readonly leaveLobbies: (userId: string) => void,
  ) {}

  ban(userId: string, permanent: boolean): BanView {
    const user = this.store.user(userId);
    if (user === undefined) throw new BanError('unknown_user', `Unknown user ${userId}`);
    if (user.provisional === true) throw new BanError('provisional', 'A provisional account cannot be banned here: ban the full account it was merged into');
    this.store.setBan(userId, { user_id: userId, permanent, created_at: new Date(this.now()).toISOString() });
    for (const record of this.book.linkedTo(userId)) this.provisional.detach(record, userId, 'linked account banned');
    for (const grant of this.store.grantsOf(userId)) this.oauth.removeGrantOf(userId, grant.application_id, 'user banned');
    // Signed out everywhere: while banned, the account gets no token and no gateway session **(ours)**.
    this.endUserSessions(userId);
    // The seats of each game merged into the account went with its identity (detach); the account leaves the rest **(ours)**.
    this.leaveLobbies(userId);
    return this.view(this.store.ban(userId) as BanRecord);
  }

  /** Lifts a ban: its restricted accounts become ordinary provisional accounts, mergeable again. False when there was none. */
  unban(userId: string): boolean {
    if (!this.store.setBan(userId, null)) return false;
    for (const record of this.book.restrictedBy(userId)) this.book.update(record, { userId: record.user_id, linked: false, restrictedByBanOf: null });
    return true;
  }

  list(): BanView[] {
    return this.store.bans().map((ban) => this.view(ban));
  }

  private view(ban: BanRecord): BanView {
    return {
      ...ban,
      restricted: this.book.restrictedBy(ban.user_id).map((record) => ({
        application_id: record.application_id,
        external_auth_type: record.type,
        external_id: record.external_id,
        user_id: record.user_id,
      })),
    };
  }
}
