import type { OAuthService } from '../oauth/service.js';
import { isChildApp } from '../oauth/service.js';
import type { AppRecord, IdentityRecord, UserRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { PlatformLimits } from '../support/limits.js';
import type { PlatformLogger } from '../support/logger.js';
import { settleMergedRelationships } from '../relationships/merged-relationships.js';
import type { RelationshipChanges } from '../relationships/relationship-changes.js';
import type { TokenResponse } from '../wire/index.js';
import type { IdentityBook } from './identity-book.js';
import type { ExternalIdentity, IdentityVerifier } from './identity-verifier.js';
import { ProvisionalCode, refuse } from './provisional-error.js';

/** A game's credentials and an external auth token: the body of `/partner-sdk/token` and of `/partner-sdk/provisional-accounts/unmerge`. */
export interface ExternalCredentials {
  readonly client_id: string;
  readonly client_secret?: string | undefined;
  readonly external_auth_type: string;
  readonly external_auth_token: string;
}

export interface ProvisionalServiceDeps {
  readonly store: Store;
  readonly oauth: OAuthService;
  readonly verifier: IdentityVerifier;
  readonly book: IdentityBook;
  readonly limits: PlatformLimits;
  readonly logger: PlatformLogger;
  /** The account's game sessions of the app end (its tokens are about to go). */
  readonly endGameSessions: (userId: string, applicationId: string) => void;
  /** Lobby memberships become another account's: all of them (a merge), or one application's (an unmerge). */
  readonly moveLobbyMemberships: (from: string, into: string, applicationId?: string) => void;
  /** Tells everyone a change of who is who touched what changed in their relationships. */
  readonly changes: RelationshipChanges;
}

/** The scopes of a provisional account's token (the public docs' response names `sdk.social_layer`; `openid` adds the ID token). */
const PROVISIONAL_SCOPES = ['sdk.social_layer', 'openid'] as const;

/**
 * Provisional accounts: the external credentials exchange and the bot token endpoint (one
 * account per external identity per app, made on first sight), merging one into a full
 * account when the player links, and unmerging (by the game's server, the public-client
 * helper, the player's Authorized Apps, or a ban) into a fresh provisional account for the
 * same identity.
 */
export class ProvisionalService {
  constructor(private readonly deps: ProvisionalServiceDeps) {}

  /** `POST /partner-sdk/token`: a provisional account's token for an external identity. */
  async exchange(body: ExternalCredentials): Promise<TokenResponse> {
    const app = this.authenticate(body);
    const identity = await this.deps.verifier.verify(app, body.external_auth_type, body.external_auth_token);
    // A refresh token only for OIDC and a confidential client, as the docs say.
    return this.tokenFor(app, identity, identity.type === 'OIDC' && !app.public_client);
  }

  /** `POST /partner-sdk/token/bot`: the same for the game's own account system (`external_user_id`). */
  botToken(app: AppRecord, externalUserId: string, preferredGlobalName: string | undefined): TokenResponse {
    refuseChildApp(app);
    const identity: ExternalIdentity = { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', externalId: externalUserId, displayName: preferredGlobalName ?? null };
    return this.tokenFor(app, identity, false);
  }

  /**
   * A code redeemed with external credentials: the identity's provisional account is merged
   * into the code's full account (friends, DMs and lobby memberships move; the provisional
   * account goes), at once **(ours: the platform does it asynchronously)**.
   */
  async merge(app: AppRecord, userId: string, type: string, token: string): Promise<void> {
    const identity = await this.deps.verifier.verify(app, type, token);
    const { store, book } = this.deps;
    if (store.user(userId)?.provisional === true) throw refuse(ProvisionalCode.InvalidMergeDestination, 'Invalid merge destination: the account is provisional');
    const record = book.find(app.id, identity);
    if (store.ban(userId) !== undefined || record?.restricted_by_ban_of !== undefined) throw refuse(ProvisionalCode.MergeSourceBanned, 'Merge source user banned');
    const existing = book.ofUser(app.id, userId);
    if (existing !== undefined && existing !== record) throw refuse(ProvisionalCode.TooManyIdentities, 'The user already has an external identity for this application');
    if (record === undefined) return book.link(app.id, identity, userId);
    if (record.linked) {
      if (record.user_id === userId) return;
      throw refuse(ProvisionalCode.InvalidMergeSource, 'Invalid merge source: the identity belongs to a full account');
    }
    this.moveInto(record, userId);
  }

  /** `POST /partner-sdk/provisional-accounts/unmerge`: the identity's full account is unlinked from the game. */
  async unmerge(body: ExternalCredentials): Promise<void> {
    const app = this.authenticate(body);
    const identity = await this.deps.verifier.verify(app, body.external_auth_type, body.external_auth_token);
    this.unmergeIdentity(this.deps.book.find(app.id, identity));
  }

  /** `POST /partner-sdk/provisional-accounts/unmerge/bot`. */
  unmergeBot(app: AppRecord, externalUserId: string): void {
    refuseChildApp(app);
    this.unmergeIdentity(this.deps.book.find(app.id, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', externalId: externalUserId }));
  }

  /** The player removed the game from Authorized Apps: a merged account is unmerged (its grant is gone already). */
  deauthorized(userId: string, applicationId: string): void {
    const record = this.deps.book.ofUser(applicationId, userId);
    if (record?.linked === true) this.detach(record, null, 'unmerged from Authorized Apps');
  }

  /**
   * Unlinks a merged identity: the full account's tokens for the app go (sessions end,
   * APPLICATION_DEAUTHORIZED), and a fresh provisional account with a new id carries the
   * identity with what an unmerge carries over (`carryOver`) and the full account's seats in
   * the app's lobbies; everyone it touches is told. `banOf` marks it restricted.
   */
  detach(record: IdentityRecord, banOf: string | null, why: string): UserRecord {
    const { book, oauth, logger } = this.deps;
    const full = record.user_id;
    // The friends and blockers it gets see it arrive (RELATIONSHIP_ADD, GAME_RELATIONSHIP_ADD).
    const fresh = this.deps.changes.around(
      [full],
      () => this.carryOver(full, record.application_id),
      (made) => [made.id],
    );
    this.deps.moveLobbyMemberships(full, fresh.id, record.application_id);
    oauth.removeGrantOf(full, record.application_id, why);
    book.update(record, { userId: fresh.id, linked: false, ...(banOf !== null ? { restrictedByBanOf: banOf } : {}) });
    logger.info({ applicationId: record.application_id, userId: full, provisionalUserId: fresh.id }, `provisional account: ${why}`);
    return fresh;
  }

  /**
   * A fresh provisional account with what an unmerge carries over, as the public docs list it:
   * the Discord friends who use the app (a provisional account may have Discord friends; it
   * cannot make new ones), every game friend in the app (copied), and the blocks of those who
   * had blocked the full account.
   */
  private carryOver(full: string, applicationId: string): UserRecord {
    const { store } = this.deps;
    const fresh = store.createProvisionalUser(null);
    const blockedEitherWay = (other: string): boolean => store.hasBlocked(other, full) || store.hasBlocked(full, other);
    for (const friend of store.friendsOf(full)) {
      if (this.usesApp(friend, applicationId) && !blockedEitherWay(friend)) store.addFriendship(fresh.id, friend);
    }
    store.gameRelationships.copyFriends(applicationId, full, fresh.id);
    for (const [by, target] of store.blocks()) if (target === full) store.setBlocked(by, fresh.id, true);
    return fresh;
  }

  private unmergeIdentity(record: IdentityRecord | undefined): void {
    if (record === undefined) throw refuse(ProvisionalCode.UnknownUser, 'Unknown User', 404);
    if (!record.linked) throw refuse(ProvisionalCode.InvalidUserType, 'Invalid user type: the account is provisional and cannot be unmerged');
    this.detach(record, null, 'unmerged');
  }

  private tokenFor(app: AppRecord, identity: ExternalIdentity, refresh: boolean): TokenResponse {
    const { store, book, oauth, limits } = this.deps;
    const record = book.find(app.id, identity);
    if (record?.linked === true) throw refuse(ProvisionalCode.NonProvisional, 'The user account is not provisional: it is linked to a full account (use OAuth2)');
    if (record !== undefined) book.noteUsername(record, identity.displayName);
    const user = record === undefined ? book.createProvisional(app.id, identity).user : store.user(record.user_id);
    if (user === undefined) throw refuse(ProvisionalCode.UnknownUser, 'Unknown User', 404);
    if (user.global_name === null && identity.displayName !== null) {
      user.global_name = identity.displayName;
      store.touched();
    }
    return oauth.issueFor(user.id, app, PROVISIONAL_SCOPES, { ttlMs: limits.provisionalTokenTtlMs, refresh }, 'provisional');
  }

  private moveInto(record: IdentityRecord, userId: string): void {
    const { store, book, logger } = this.deps;
    const provisional = record.user_id;
    // Its game sessions end: the app's, and its games' (child tokens) when the app is a publisher.
    for (const grant of store.grantsOf(provisional)) this.deps.endGameSessions(provisional, grant.application_id);
    // Everyone related to either account learns the outcome once: the provisional id goes, the full account's relationship is the one that stands.
    this.deps.changes.around([provisional, userId], () => {
      store.moveUser(provisional, userId);
      settleMergedRelationships(store, userId);
      this.deps.moveLobbyMemberships(provisional, userId);
      store.deleteUser(provisional);
    });
    book.update(record, { userId, linked: true });
    logger.info({ applicationId: record.application_id, userId, provisionalUserId: provisional }, 'provisional account merged');
  }

  /** A friend uses the app: they authorized it or have an identity in it. */
  private usesApp(userId: string, applicationId: string): boolean {
    return this.deps.store.grantFor(userId, applicationId) !== undefined || this.deps.book.ofUser(applicationId, userId) !== undefined;
  }

  /** The game's client credentials; a child application cannot make provisional accounts. */
  private authenticate(body: ExternalCredentials): AppRecord {
    const app = this.deps.oauth.clientOf(body.client_id, body.client_secret);
    if (app === undefined) {
      if (this.deps.store.app(body.client_id) === undefined) throw refuse(10002, 'Unknown Application', 404);
      throw refuse(ProvisionalCode.InvalidClientSecret, 'Invalid client secret');
    }
    refuseChildApp(app);
    return app;
  }
}

/** A game (child) application of a publisher makes no provisional accounts: its publisher does. */
function refuseChildApp(app: AppRecord): void {
  if (isChildApp(app)) throw refuse(ProvisionalCode.NotConfigured, 'A game (child) application cannot make provisional accounts: use its publisher application');
}
