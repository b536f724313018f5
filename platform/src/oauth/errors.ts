import type { OAuthErrorBody } from '../wire/index.js';

/** An OAuth2 route error: the status and the RFC 6749 `{error, error_description}` body. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorBody['error'],
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }

  get body(): OAuthErrorBody {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string): OAuthError => new OAuthError(400, 'invalid_request', description);
export const invalidScope = (description: string): OAuthError => new OAuthError(400, 'invalid_scope', description);
export const invalidGrant = (description: string): OAuthError => new OAuthError(400, 'invalid_grant', description);
export const invalidClient = (status = 401): OAuthError => new OAuthError(status, 'invalid_client', status === 401 ? 'Client authentication failed' : 'Unknown application');
export const missingParam = (name: string): OAuthError => invalidRequest(`Missing "${name}" in request.`);
export const invalidParam = (name: string): OAuthError => invalidRequest(`Invalid "${name}" in request.`);
export const ACCESS_DENIED_DESCRIPTION = 'The resource owner or authorization server denied the request';
