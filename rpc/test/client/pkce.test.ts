import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthorizationCodeVerifier, codeChallengeS256, createAuthorizationCodeVerifier, isValidCodeVerifier } from '../../client/pkce.js';

describe('createAuthorizationCodeVerifier', () => {
  it('makes a 43-character unreserved verifier whose S256 challenge is base64url(SHA-256) without padding', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const pair = createAuthorizationCodeVerifier();
      const verifier = pair.verifier();
      expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
      const expected = createHash('sha256').update(verifier).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const challenge = pair.challenge();
      expect(challenge.isValid()).toBe(true);
      expect(challenge.challenge()).toBe(expected);
      expect(challenge.challenge()).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(challenge.method()).toBe('S256');
      seen.add(verifier);
    }
    expect(seen.size).toBe(50);
  });

  it('matches the RFC 7636 appendix B example', () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('checks verifier lengths and charset', () => {
    expect(isValidCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isValidCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isValidCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isValidCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(isValidCodeVerifier(`${'a'.repeat(40)}-._~`)).toBe(true);
    expect(() => new AuthorizationCodeVerifier('short')).toThrow(RangeError);
  });

  it('hands out copies of the challenge', () => {
    const pair = createAuthorizationCodeVerifier();
    pair.challenge().setChallenge('changed');
    expect(pair.challenge().challenge()).toBe(codeChallengeS256(pair.verifier()));
  });
});
