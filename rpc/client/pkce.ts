import { createHash, randomBytes } from 'node:crypto';
import { AuthorizationCodeChallenge } from './authorization-args.js';

/** RFC 7636: 43-128 characters of A-Z a-z 0-9 - . _ ~ */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** True when `verifier` is a valid PKCE code verifier (RFC 7636 section 4.1). */
export function isValidCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** The S256 challenge of a verifier: base64url (no padding) of its SHA-256. */
export function codeChallengeS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * The Social SDK's `AuthorizationCodeVerifier`: a fresh PKCE verifier and its S256
 * challenge. Pass `challenge()` to `AuthorizationArgs.setCodeChallenge` and `verifier()` to
 * `getToken`. The verifier is a secret until it is redeemed: do not log it.
 */
export class AuthorizationCodeVerifier {
  readonly #verifier: string;
  readonly #challenge: AuthorizationCodeChallenge;

  /** Wraps a verifier (RangeError unless it is 43-128 unreserved characters). */
  constructor(verifier: string) {
    if (typeof verifier !== 'string' || !isValidCodeVerifier(verifier)) {
      throw new RangeError('a code verifier is 43-128 characters of A-Z a-z 0-9 - . _ ~');
    }
    this.#verifier = verifier;
    const challenge = new AuthorizationCodeChallenge();
    challenge.setChallenge(codeChallengeS256(verifier));
    challenge.setMethod('S256');
    this.#challenge = challenge;
  }

  /** A copy of the challenge record (method S256). */
  challenge(): AuthorizationCodeChallenge {
    return this.#challenge.clone();
  }

  verifier(): string {
    return this.#verifier;
  }
}

/** Client::CreateAuthorizationCodeVerifier: 32 random bytes as base64url (43 characters), S256. */
export function createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
  return new AuthorizationCodeVerifier(randomBytes(32).toString('base64url'));
}
