import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import { issuerProblem } from './provider-config.js';
import { ProvisionalCode, refuse, type ProvisionalError } from './provisional-error.js';

/** An OIDC provider of one app: its issuer and the audience (client id) its ID tokens carry. */
export interface OidcProvider {
  readonly issuer: string;
  readonly audience: string;
}

/** Who an ID token says the player is. */
export interface OidcSubject {
  readonly subject: string;
  /** `preferred_username` when it is 1-32 characters, else null. */
  readonly preferredUsername: string | null;
}

/** The signing algorithms the public docs allow (RS, ES and PS at 256-512). */
export const OIDC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;

/** ID tokens older than this (by `iat`) are refused (530004). */
const MAX_TOKEN_AGE_SECONDS = 7 * 24 * 60 * 60;

export interface OidcVerifierOptions {
  readonly now: () => number;
  /** Each fetch of the discovery document and the JWKS, whole. */
  readonly fetchTimeoutMs: number;
}

/**
 * Verifies an ID token against an app's OIDC provider as the public docs require: the
 * issuer's discovery document at `{issuer}/.well-known/openid-configuration` (no redirects)
 * names the issuer, the JWKS and the algorithms; the token has `kid`, is signed with an
 * allowed algorithm by a key of the JWKS, and carries `iss`, `sub`, `aud`, `exp` and an
 * `iat` at most 7 days old. Each refusal is the docs' 530xxx code. The discovery document
 * and keys are fetched for every token (no cache) **(ours)**.
 */
export class OidcVerifier {
  constructor(private readonly options: OidcVerifierOptions) {}

  async verify(provider: OidcProvider, idToken: string): Promise<OidcSubject> {
    const algorithm = headerAlgorithm(idToken);
    const claimedIssuer = claims(idToken).iss;
    if (claimedIssuer !== provider.issuer) throw refuse(ProvisionalCode.InvalidIssuer, 'The ID token was not issued by the configured issuer');
    const discovery = await this.discovery(provider.issuer);
    if (!discovery.algorithms.includes(algorithm)) throw refuse(ProvisionalCode.InvalidJwt, `The issuer does not sign ID tokens with ${algorithm}`);
    if (issuerProblem(discovery.jwksUri) !== null) throw refuse(ProvisionalCode.OidcJwksNotFound, 'The discovery document\'s jwks_uri must be https (or loopback, like the issuer)');
    const keys = await this.jwks(discovery.jwksUri);
    try {
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(keys), {
        issuer: provider.issuer,
        audience: provider.audience,
        algorithms: [...OIDC_ALGORITHMS],
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        currentDate: new Date(this.options.now()),
      });
      const name = payload.preferred_username;
      return {
        subject: String(payload.sub),
        preferredUsername: typeof name === 'string' && name.length >= 1 && name.length <= 32 ? name : null,
      };
    } catch (error) {
      throw verificationRefusal(error);
    }
  }

  private async discovery(issuer: string): Promise<{ jwksUri: string; algorithms: readonly string[] }> {
    const document = await this.fetchJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    if (document === undefined) throw refuse(ProvisionalCode.OidcConfigNotFound, 'The issuer\'s discovery document could not be read (it must answer 200 without redirects)');
    const { issuer: named, jwks_uri: jwksUri, id_token_signing_alg_values_supported: algorithms } = document;
    if (named !== issuer || typeof jwksUri !== 'string' || !Array.isArray(algorithms)) {
      throw refuse(ProvisionalCode.OidcConfigNotFound, 'The discovery document must name this issuer, jwks_uri and id_token_signing_alg_values_supported');
    }
    return { jwksUri, algorithms: algorithms.filter((value): value is string => typeof value === 'string') };
  }

  private async jwks(uri: string): Promise<JSONWebKeySet> {
    const document = await this.fetchJson(uri);
    if (document === undefined || !Array.isArray(document.keys)) throw refuse(ProvisionalCode.OidcJwksNotFound, 'The issuer\'s JWKS could not be read');
    return document as unknown as JSONWebKeySet;
  }

  /** A JSON object from a 200 answer (redirects are not followed), else undefined. */
  private async fetchJson(url: string): Promise<Record<string, unknown> | undefined> {
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(this.options.fetchTimeoutMs) });
      if (response.status !== 200) {
        await response.body?.cancel();
        return undefined;
      }
      const text = await readCapped(response, MAX_DOCUMENT_BYTES);
      const body: unknown = text === undefined ? undefined : JSON.parse(text);
      return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A discovery document or key set larger than this is refused **(ours)**. */
const MAX_DOCUMENT_BYTES = 256 * 1024;

/** The body as text, or undefined (and the rest dropped) once it passes `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function headerAlgorithm(idToken: string): string {
  try {
    const header = decodeProtectedHeader(idToken);
    if (typeof header.kid !== 'string' || header.kid.length === 0) throw refuse(ProvisionalCode.InvalidJwt, 'The ID token header has no "kid"');
    if (typeof header.alg !== 'string' || !(OIDC_ALGORITHMS as readonly string[]).includes(header.alg)) {
      throw refuse(ProvisionalCode.InvalidJwt, `The ID token's algorithm must be one of ${OIDC_ALGORITHMS.join(', ')}`);
    }
    return header.alg;
  } catch (error) {
    if (error instanceof Error && error.name === 'ProvisionalError') throw error;
    throw refuse(ProvisionalCode.InvalidJwt, 'The external auth token is not a JWT');
  }
}

function claims(idToken: string): { iss?: unknown } {
  try {
    return decodeJwt(idToken);
  } catch {
    throw refuse(ProvisionalCode.InvalidJwt, 'The external auth token is not a JWT');
  }
}

/** jose's verdict as the docs' code. */
function verificationRefusal(error: unknown): ProvisionalError {
  if (error instanceof errors.JWTExpired) {
    return error.claim === 'iat'
      ? refuse(ProvisionalCode.TokenTooOld, 'The ID token was issued more than 7 days ago')
      : refuse(ProvisionalCode.ExpiredToken, 'The ID token has expired');
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return refuse(ProvisionalCode.InvalidAudience, 'The ID token\'s audience is not the configured one');
    if (error.claim === 'iss') return refuse(ProvisionalCode.InvalidIssuer, 'The ID token was not issued by the configured issuer');
    return refuse(ProvisionalCode.InvalidJwt, `The ID token's "${error.claim}" claim is missing or invalid`);
  }
  return refuse(ProvisionalCode.InvalidJwt, 'The ID token\'s signature does not verify with the issuer\'s keys');
}
