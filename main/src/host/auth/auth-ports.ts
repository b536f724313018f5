import type { RpcLogger, RpcServer } from '../../../../rpc/src/index.js';
import type { AuthorizePreview, PlatformUser, TokenIntrospection } from '../../../../platform/src/wire/index.js';
import type { AuthorizeQuery } from '../gateway/platform-api.js';
import type { ConsentAskInput, ConsentOutcome } from './consent-broker.js';

/** Who answers the consent question (the consent broker). */
export interface ConsentPort {
  ask(input: ConsentAskInput): Promise<ConsentOutcome>;
}

/** The platform calls AUTHORIZE and AUTHENTICATE make, with the signed-in user's token. */
export interface AuthPlatform {
  authorizePreview(query: AuthorizeQuery): Promise<AuthorizePreview>;
  authorize(query: AuthorizeQuery): Promise<{ code: string; state?: string }>;
  introspect(accessToken: string): Promise<TokenIntrospection>;
}

/** What was granted, once a code was issued. */
export interface AuthGrant {
  readonly applicationId: string;
  readonly scopes: readonly string[];
  readonly integrationType: number | null;
}

export interface AuthCommandsOptions {
  readonly server: RpcServer;
  /** null while signed out. */
  readonly platform: () => AuthPlatform | null;
  readonly me: () => PlatformUser | null;
  readonly consent: ConsentPort;
  readonly logger: RpcLogger;
  /** After a code was issued, with what was granted (the host remembers it at once). */
  readonly onGranted?: (grant: AuthGrant) => void;
  /** Bumped whenever a grant is revoked: an AUTHENTICATE that overlapped one checks its token again. */
  readonly revocations: () => number;
}
