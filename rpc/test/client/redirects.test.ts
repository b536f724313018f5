import { describe, expect, it } from 'vitest';
import { AuthorizationArgs, IntegrationType } from '../../client/authorization-args.js';
import { createAuthorizationCodeVerifier } from '../../client/pkce.js';
import { authorizeUrl, desktopRedirectUri, mobileRedirectUri } from '../../client/redirects.js';

describe('redirect URIs', () => {
  it('builds the mobile redirect from CustomSchemeParam, else discord-<application id>', () => {
    expect(mobileRedirectUri('1234567890123456789', 'mygame')).toBe('mygame:/authorize/callback');
    expect(mobileRedirectUri('1234567890123456789')).toBe('discord-1234567890123456789:/authorize/callback');
    expect(mobileRedirectUri(1234567890123456789n)).toBe('discord-1234567890123456789:/authorize/callback');
    expect(mobileRedirectUri('1', 'com.example.game')).toBe('com.example.game:/authorize/callback');
    expect(() => mobileRedirectUri('1', 'bad scheme')).toThrow(RangeError);
    expect(() => mobileRedirectUri('not-an-id')).toThrow(RangeError);
  });

  it('builds the desktop loopback redirect', () => {
    expect(desktopRedirectUri(53682)).toBe('http://127.0.0.1:53682/callback');
    expect(() => desktopRedirectUri(0)).toThrow(RangeError);
    expect(() => desktopRedirectUri(65536)).toThrow(RangeError);
    expect(() => desktopRedirectUri(1.5)).toThrow(RangeError);
  });
});

describe('authorizeUrl', () => {
  it('has the required parameters in order, percent-encoded', () => {
    const args = new AuthorizationArgs();
    args.setScopes('openid sdk.social_layer_presence');
    const url = authorizeUrl('http://127.0.0.1:4000/', args, '42', 'http://127.0.0.1:5000/callback', 's t&a=te');
    expect(url).toBe(
      'http://127.0.0.1:4000/oauth2/authorize?client_id=42&response_type=code&scope=openid%20sdk.social_layer_presence&state=s%20t%26a%3Dte&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback',
    );
  });

  it('adds nonce, PKCE and integration type when set, and prefers args.clientId()', () => {
    const args = new AuthorizationArgs();
    args.setClientId(99n);
    args.setScopes('identify');
    args.setNonce('n-1');
    const pair = createAuthorizationCodeVerifier();
    args.setCodeChallenge(pair.challenge());
    args.setIntegrationType(IntegrationType.GuildInstall);
    args.setCustomSchemeParam('mygame');
    const redirect = mobileRedirectUri('42', args.customSchemeParam());
    const url = new URL(authorizeUrl('http://platform.test', args, '42', redirect, 'st'));
    expect(url.origin + url.pathname).toBe('http://platform.test/oauth2/authorize');
    expect([...url.searchParams.keys()]).toEqual([
      'client_id',
      'response_type',
      'scope',
      'state',
      'redirect_uri',
      'nonce',
      'code_challenge',
      'code_challenge_method',
      'integration_type',
    ]);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '99',
      response_type: 'code',
      scope: 'identify',
      state: 'st',
      redirect_uri: 'mygame:/authorize/callback',
      nonce: 'n-1',
      code_challenge: pair.challenge().challenge(),
      code_challenge_method: 'S256',
      integration_type: '0',
    });
    expect(url.search).not.toContain(pair.verifier());
  });

  it('refuses an invalid record', () => {
    expect(() => authorizeUrl('http://x', AuthorizationArgs.nullobj, '1', 'http://127.0.0.1:1/callback', 's')).toThrow('AuthorizationArgs is not valid');
  });
});
