import type { OAuthService } from '../oauth/service.js';
import type { Store } from '../state/store.js';
import type { TokenResponse } from '../wire/index.js';
import { ProvisionalCode, refuse } from './provisional-error.js';

export interface ChildTokenRequest {
  readonly parent_access_token: string;
  readonly child_application_id: string;
  /** Required when the publisher is a confidential client. */
  readonly parent_client_secret?: string | undefined;
}

/**
 * Publisher-level account linking: `POST /partner-sdk/child-token` trades a publisher
 * (parent) application's access token for a token of one of its games (children). The child
 * token has the parent's scopes, ends when the parent token does, has no refresh token, and
 * dies with the parent's grant (a revoke ends the game's sessions too).
 */
export class ChildTokens {
  constructor(
    private readonly store: Store,
    private readonly oauth: OAuthService,
    private readonly now: () => number,
  ) {}

  exchange(request: ChildTokenRequest): TokenResponse {
    const parent = this.oauth.bearer(request.parent_access_token);
    if (parent === undefined) throw refuse(50025, 'Invalid OAuth2 access token', 401);
    const publisher = this.store.app(parent.applicationId);
    if (publisher === undefined) throw refuse(50025, 'Invalid OAuth2 access token', 401);
    if (this.oauth.clientOf(publisher.id, request.parent_client_secret) === undefined) throw refuse(ProvisionalCode.InvalidClientSecret, 'Invalid client secret');
    const child = this.store.app(request.child_application_id);
    if (child === undefined) throw refuse(10002, 'Unknown Application', 404);
    if (child.parent_application_id !== publisher.id) throw refuse(ProvisionalCode.InvalidFormBody, 'child_application_id is not a game (child) application of the token\'s publisher application');
    const parentGrant = this.store.grantFor(parent.user.id, publisher.id);
    if (parentGrant === undefined) throw refuse(50025, 'Invalid OAuth2 access token', 401);
    const ttlMs = Math.max(1000, parent.expiresAt - this.now());
    return this.oauth.issueFor(parent.user.id, child, parent.scopes, { ttlMs, refresh: false, parentGrantId: parentGrant.id }, 'child_token');
  }

  /** The games of a publisher (whose sessions end with the publisher's grant). */
  childrenOf(applicationId: string): string[] {
    return this.store.apps().filter((app) => app.parent_application_id === applicationId).map((app) => app.id);
  }
}
