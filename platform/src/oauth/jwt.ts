import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Store } from '../state/store.js';

/** One key of the JWKS (`GET /api/oauth2/keys`). */
export interface PublicJwk {
  readonly kty: 'RSA';
  readonly use: 'sig';
  readonly alg: 'RS256';
  readonly kid: string;
  readonly n: string;
  readonly e: string;
}

/**
 * The id_token signing key: RS256, generated on first use and persisted in the state, so
 * tokens issued before a restart still verify.
 */
export class OidcKeys {
  private cached: { kid: string; privateKey: KeyObject; jwk: PublicJwk } | undefined;

  constructor(private readonly store: Store) {}

  jwks(): { keys: PublicJwk[] } {
    return { keys: [this.key().jwk] };
  }

  /** A compact JWS (RS256) over the claims. */
  sign(claims: Readonly<Record<string, unknown>>): string {
    const { kid, privateKey } = this.key();
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
    const payload = base64url(JSON.stringify(claims));
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
    return `${header}.${payload}.${signature}`;
  }

  private key(): { kid: string; privateKey: KeyObject; jwk: PublicJwk } {
    if (this.cached !== undefined) return this.cached;
    let record = this.store.oidcKey();
    if (record === null) {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      record = { kid: thumbprint(createPublicKey(privateKey)), private_key: pem };
      this.store.setOidcKey(record);
    }
    const privateKey = createPrivateKey(record.private_key);
    const exported = createPublicKey(privateKey).export({ format: 'jwk' });
    const jwk: PublicJwk = { kty: 'RSA', use: 'sig', alg: 'RS256', kid: record.kid, n: String(exported.n), e: String(exported.e) };
    this.cached = { kid: record.kid, privateKey, jwk };
    return this.cached;
  }
}

/** RFC 7638 thumbprint of the public key, base64url: the key id. */
function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
