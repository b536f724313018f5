import type { IdentityRecord, UserRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { ExternalIdentity } from './identity-verifier.js';

/** A user's profile with an external provider in one app **(ours: the wire shape of the SDK's UserApplicationProfileHandle)**. */
export interface ApplicationProfile {
  readonly provider_type: string;
  readonly provider_issued_user_id: string;
  /** The OIDC issuer; null for the other types. */
  readonly provider_id: string | null;
  readonly username: string;
  readonly avatar_hash: string;
  readonly metadata: string;
}

/** What QA sees of one identity (`GET /_emulator/provisional-accounts`). */
export interface IdentityView {
  readonly application_id: string;
  readonly external_auth_type: string;
  readonly external_id: string;
  /** provisional: its own account; linked: merged into a full account; restricted: made by a ban, not mergeable until it lifts. */
  readonly state: 'provisional' | 'linked' | 'restricted';
  readonly user: { readonly id: string; readonly username: string; readonly global_name: string | null } | null;
  readonly created_at: string;
}

/**
 * The external identities of every app and the accounts they stand for, over the store: look
 * ups by identity and by account, and the making of provisional accounts.
 */
export class IdentityBook {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  find(applicationId: string, identity: Pick<ExternalIdentity, 'type' | 'externalId'>): IdentityRecord | undefined {
    return this.store.identities().find((record) => record.application_id === applicationId && record.type === identity.type && record.external_id === identity.externalId);
  }

  /** The identity whose account `userId` is in the app (provisional or merged). */
  ofUser(applicationId: string, userId: string): IdentityRecord | undefined {
    return this.store.identities().find((record) => record.application_id === applicationId && record.user_id === userId);
  }

  /** Every identity merged into `userId`, in any app. */
  linkedTo(userId: string): IdentityRecord[] {
    return this.store.identities().filter((record) => record.linked && record.user_id === userId);
  }

  restrictedBy(userId: string): IdentityRecord[] {
    return this.store.identities().filter((record) => record.restricted_by_ban_of === userId);
  }

  /** A new provisional account for an identity seen for the first time, and its record. */
  createProvisional(applicationId: string, identity: ExternalIdentity): { record: IdentityRecord; user: UserRecord } {
    const user = this.store.createProvisionalUser(identity.displayName);
    return { record: this.add(applicationId, identity, user.id, false), user };
  }

  /** An identity with no provisional account behind it, linked straight to a full account (a merge with nothing to move). */
  link(applicationId: string, identity: ExternalIdentity, userId: string): void {
    this.add(applicationId, identity, userId, true);
  }

  private add(applicationId: string, identity: ExternalIdentity, userId: string, linked: boolean): IdentityRecord {
    const record: IdentityRecord = {
      application_id: applicationId,
      type: identity.type,
      external_id: identity.externalId,
      user_id: userId,
      linked,
      username: identity.displayName,
      created_at: new Date(this.now()).toISOString(),
    };
    this.store.addIdentity(record);
    return record;
  }

  /** The provider's latest name for the player (kept for the application profile). */
  noteUsername(record: IdentityRecord, username: string | null): void {
    if (username === null || record.username === username) return;
    record.username = username;
    this.store.touched();
  }

  /**
   * The user's application profile in an app (the Social SDK's UserApplicationProfileHandle: at
   * most one per app): the external identity behind the account.
   */
  profileOf(applicationId: string, userId: string, issuerOf: (type: string) => string | null): ApplicationProfile[] {
    const record = this.ofUser(applicationId, userId);
    if (record === undefined) return [];
    return [{ provider_type: record.type, provider_issued_user_id: record.external_id, provider_id: issuerOf(record.type), username: record.username ?? '', avatar_hash: '', metadata: '' }];
  }

  /** Points a record at another account (change in place, saved). */
  update(record: IdentityRecord, patch: { userId: string; linked: boolean; restrictedByBanOf?: string | null }): void {
    record.user_id = patch.userId;
    record.linked = patch.linked;
    if (patch.restrictedByBanOf === null) delete record.restricted_by_ban_of;
    else if (patch.restrictedByBanOf !== undefined) record.restricted_by_ban_of = patch.restrictedByBanOf;
    this.store.touched();
  }

  views(applicationId?: string): IdentityView[] {
    return this.store
      .identities()
      .filter((record) => applicationId === undefined || record.application_id === applicationId)
      .map((record) => {
        const user = this.store.user(record.user_id);
        return {
          application_id: record.application_id,
          external_auth_type: record.type,
          external_id: record.external_id,
          state: record.linked ? 'linked' : record.restricted_by_ban_of !== undefined ? 'restricted' : 'provisional',
          user: user === undefined ? null : { id: user.id, username: user.username, global_name: user.global_name },
          created_at: record.created_at,
        };
      });
  }
}
