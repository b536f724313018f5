import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TestProviderType } from '../state/model.js';
import { ProvisionalCode, refuse } from './provisional-error.js';

export type { TestProviderType };

export interface MintRequest {
  readonly type: TestProviderType;
  /** The provider's user id (a Steam id, an Epic account id, ...). */
  readonly externalUserId: string;
  /** The provider's display name, which a new provisional account takes. */
  readonly displayName?: string;
  /** Seconds from now; zero or less mints an expired token. Default one hour. */
  readonly expiresIn?: number;
}

export interface MintedToken {
  readonly token: string;
  readonly type: TestProviderType;
  /** ISO 8601. */
  readonly expires_at: string;
}

/** Who a verified test token names. */
export interface TestSubject {
  readonly externalUserId: string;
  readonly displayName: string | null;
}

const PREFIX = 'companion-test';

/**
 * The emulator's stand-in for Steam, Epic, Unity, Apple and PlayStation: it mints signed
 * tokens for QA (`POST /_emulator/external-tokens`, `companion platform mint-token`) and
 * verifies them when a game exchanges one. A token is `companion-test.<claims>.<HMAC>`; the
 * key is made when the emulator starts, so tokens minted before a restart no longer verify
 * **(ours)**. A token of another type, a changed one or a foreign one is refused with 530020,
 * an expired one with 530001 **(ours)**.
 */
export class TestProvider {
  private readonly key = randomBytes(32);

  constructor(private readonly now: () => number) {}

  mint(request: MintRequest): MintedToken {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + Math.trunc(request.expiresIn ?? 3600);
    const claims = { typ: request.type, sub: request.externalUserId, ...(request.displayName !== undefined ? { name: request.displayName } : {}), iat, exp };
    const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
    return { token: `${PREFIX}.${body}.${this.mac(body)}`, type: request.type, expires_at: new Date(exp * 1000).toISOString() };
  }

  verify(type: TestProviderType, token: string): TestSubject {
    const [prefix, body, mac, ...rest] = token.split('.');
    if (prefix !== PREFIX || body === undefined || mac === undefined || rest.length > 0 || !this.macMatches(body, mac)) {
      throw refuse(ProvisionalCode.InvalidJwt, `The external auth token is not a valid ${type} token`);
    }
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { typ: string; sub: string; name?: string; exp: number };
    if (claims.typ !== type) throw refuse(ProvisionalCode.InvalidJwt, `The external auth token is a ${claims.typ} token, not ${type}`);
    if (claims.exp * 1000 <= this.now()) throw refuse(ProvisionalCode.ExpiredToken, 'The external auth token has expired');
    return { externalUserId: claims.sub, displayName: claims.name ?? null };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private macMatches(body: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
