import { EXTERNAL_AUTH_TYPES, type AppRecord, type ExternalAuthType, type IdentityRecord } from '../state/model.js';
import type { OidcVerifier } from './oidc-verifier.js';
import { ProvisionalCode, refuse } from './provisional-error.js';
import type { TestProvider } from './test-provider.js';

/** Who an external auth token says the player is, for one app. */
export interface ExternalIdentity {
  readonly type: ExternalAuthType;
  readonly externalId: string;
  /** The provider's name for the player, which a new provisional account takes; null when it has none. */
  readonly displayName: string | null;
}

export interface IdentityVerifierDeps {
  readonly oidc: OidcVerifier;
  readonly testProvider: TestProvider;
  /** The user and app a Bearer token stands for (DISCORD_BOT_ISSUED_ACCESS_TOKEN). */
  readonly bearer: (token: string) => { readonly userId: string; readonly applicationId: string } | undefined;
  /** The identity whose account a user is, in an app. */
  readonly identityOf: (applicationId: string, userId: string) => IdentityRecord | undefined;
}

/**
 * Turns `external_auth_type` + `external_auth_token` into an identity: OIDC against the app's
 * issuer, the other named types against the emulator's test provider, and
 * DISCORD_BOT_ISSUED_ACCESS_TOKEN (an access token of a bot-endpoint account) back to its
 * `external_user_id`. A type the app has not configured is 530000.
 */
export class IdentityVerifier {
  constructor(private readonly deps: IdentityVerifierDeps) {}

  async verify(app: AppRecord, type: string, token: string): Promise<ExternalIdentity> {
    if (!isExternalAuthType(type)) throw refuse(ProvisionalCode.InvalidFormBody, `Unknown external_auth_type "${type}"`);
    if (token.length === 0) throw refuse(ProvisionalCode.InvalidFormBody, 'external_auth_token is empty');
    if (type === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') return this.botIssued(app, token);
    const provider = app.external_auth?.find((candidate) => candidate.type === type);
    if (provider === undefined) throw refuse(ProvisionalCode.NotConfigured, `The application is not configured for ${type} provisional accounts`);
    if (provider.type === 'OIDC') {
      const subject = await this.deps.oidc.verify(provider, token);
      return { type, externalId: subject.subject, displayName: subject.preferredUsername };
    }
    const subject = this.deps.testProvider.verify(provider.type, token);
    return { type, externalId: subject.externalUserId, displayName: subject.displayName };
  }

  private botIssued(app: AppRecord, token: string): ExternalIdentity {
    const auth = this.deps.bearer(token);
    const identity = auth === undefined || auth.applicationId !== app.id ? undefined : this.deps.identityOf(app.id, auth.userId);
    if (identity?.type !== 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') throw refuse(ProvisionalCode.InvalidJwt, 'The token is not a valid access token of a bot-endpoint account of this application');
    return { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', externalId: identity.external_id, displayName: null };
  }
}

export function isExternalAuthType(type: string): type is ExternalAuthType {
  return (EXTERNAL_AUTH_TYPES as readonly string[]).includes(type);
}
