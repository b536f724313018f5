import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterEach } from 'vitest';

/** An OIDC identity provider on loopback: a discovery document, a JWKS, and ID tokens signed with its key. */
export interface TestIssuer {
  /** `http://127.0.0.1:PORT` (the emulator takes a loopback issuer). */
  readonly issuer: string;
  /** An ID token for `sub` with the given audience; `claims` and `options` change it for the refusal cases. */
  idToken(sub: string, options?: IdTokenOptions): Promise<string>;
}

export interface IdTokenOptions {
  readonly audience?: string;
  readonly issuer?: string;
  readonly preferredUsername?: string;
  /** Seconds relative to now. */
  readonly issuedAt?: number;
  readonly expiresIn?: number;
  /** Sign with a key the JWKS does not hold. */
  readonly foreignKey?: boolean;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** Starts an issuer signing with RS256 (kid `test-key`) for audience `aud` by default. */
export async function startTestIssuer(audience: string): Promise<TestIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  let issuer = '';
  const server = createServer((request, response) => {
    const send = (body: unknown): void => void response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/.well-known/openid-configuration') return send({ issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] });
    if (request.url === '/keys') return send({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }] });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    idToken: (sub, options = {}) => sign(options.foreignKey === true ? foreign : privateKey, { sub, issuer: options.issuer ?? issuer, audience: options.audience ?? audience, ...options }),
  };
}

async function sign(key: KeyObject, claims: IdTokenOptions & { sub: string; issuer: string; audience: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims.preferredUsername !== undefined ? { preferred_username: claims.preferredUsername } : {})
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setSubject(claims.sub)
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt(now + (claims.issuedAt ?? 0))
    .setExpirationTime(now + (claims.expiresIn ?? 600));
  return jwt.sign(key);
}
