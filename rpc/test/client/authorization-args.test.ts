import { describe, expect, it } from 'vitest';
import { AuthorizationArgs, AuthorizationCodeChallenge, IntegrationType, INVALID_RECORD_MESSAGE } from '../../client/authorization-args.js';

const U64_MAX = '18446744073709551615';

function fullArgs(): AuthorizationArgs {
  const args = new AuthorizationArgs();
  args.setClientId('1234567890123456789');
  args.setScopes('openid sdk.social_layer_presence');
  args.setState('state-1');
  args.setNonce('nonce-1');
  const challenge = new AuthorizationCodeChallenge();
  challenge.setChallenge('c'.repeat(43));
  args.setCodeChallenge(challenge);
  args.setIntegrationType(IntegrationType.UserInstall);
  args.setCustomSchemeParam('mygame');
  return args;
}

describe('AuthorizationArgs', () => {
  it('starts valid with only an empty scope string, every optional field unset', () => {
    const args = new AuthorizationArgs();
    expect(args.isValid()).toBe(true);
    expect(args.scopes()).toBe('');
    expect(args.clientId()).toBeUndefined();
    expect(args.state()).toBeUndefined();
    expect(args.nonce()).toBeUndefined();
    expect(args.codeChallenge()).toBeUndefined();
    expect(args.integrationType()).toBeUndefined();
    expect(args.customSchemeParam()).toBeUndefined();
  });

  it('has a getter and setter for every field, and undefined unsets the optional ones', () => {
    const args = fullArgs();
    expect(args.clientId()).toBe('1234567890123456789');
    expect(args.scopes()).toBe('openid sdk.social_layer_presence');
    expect(args.state()).toBe('state-1');
    expect(args.nonce()).toBe('nonce-1');
    expect(args.codeChallenge()?.challenge()).toBe('c'.repeat(43));
    expect(args.codeChallenge()?.method()).toBe('S256');
    expect(args.integrationType()).toBe(1);
    expect(args.customSchemeParam()).toBe('mygame');
    args.setClientId(undefined);
    args.setState(undefined);
    args.setNonce(undefined);
    args.setCodeChallenge(undefined);
    args.setIntegrationType(undefined);
    args.setCustomSchemeParam(undefined);
    expect([args.clientId(), args.state(), args.nonce(), args.codeChallenge(), args.integrationType(), args.customSchemeParam()]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(IntegrationType).toEqual({ GuildInstall: 0, UserInstall: 1 });
  });

  it('holds the client id as a u64 decimal string, bigint accepted, bounds checked', () => {
    const args = new AuthorizationArgs();
    args.setClientId(0n);
    expect(args.clientId()).toBe('0');
    args.setClientId((1n << 64n) - 1n);
    expect(args.clientId()).toBe(U64_MAX);
    args.setClientId(U64_MAX);
    expect(args.clientId()).toBe(U64_MAX);
    args.setClientId('000123');
    expect(args.clientId()).toBe('123');
    for (const bad of [1n << 64n, -1n, '18446744073709551616', '-1', '1.5', '1e3', ' 1', '', 'abc', '0x10']) {
      expect(() => args.setClientId(bad), String(bad)).toThrow(RangeError);
    }
    expect(() => args.setClientId(12 as unknown as string)).toThrow(RangeError);
    expect(args.clientId()).toBe('123');
  });

  it('rejects an unknown integration type and a malformed custom scheme', () => {
    const args = new AuthorizationArgs();
    expect(() => args.setIntegrationType(2 as IntegrationType)).toThrow(RangeError);
    for (const bad of ['', '1game', 'my game', 'my:game', 'a/b']) expect(() => args.setCustomSchemeParam(bad), bad).toThrow(RangeError);
    args.setCustomSchemeParam('com.example.my-game+v2');
    expect(args.customSchemeParam()).toBe('com.example.my-game+v2');
  });

  it('clone() is independent, the code challenge included', () => {
    const original = fullArgs();
    const copy = original.clone();
    expect(copy.isValid()).toBe(true);
    expect(copy.scopes()).toBe(original.scopes());
    copy.setScopes('identify');
    copy.setState('other');
    copy.setClientId(5n);
    const challenge = copy.codeChallenge();
    challenge?.setChallenge('d'.repeat(43));
    expect(copy.codeChallenge()?.challenge()).toBe('c'.repeat(43)); // getters return copies
    if (challenge !== undefined) copy.setCodeChallenge(challenge);
    expect(copy.codeChallenge()?.challenge()).toBe('d'.repeat(43));
    expect(original.scopes()).toBe('openid sdk.social_layer_presence');
    expect(original.state()).toBe('state-1');
    expect(original.clientId()).toBe('1234567890123456789');
    expect(original.codeChallenge()?.challenge()).toBe('c'.repeat(43));
  });

  it('setCodeChallenge stores a copy (value semantics)', () => {
    const args = new AuthorizationArgs();
    const challenge = new AuthorizationCodeChallenge();
    challenge.setChallenge('a'.repeat(43));
    args.setCodeChallenge(challenge);
    challenge.setChallenge('b'.repeat(43));
    expect(args.codeChallenge()?.challenge()).toBe('a'.repeat(43));
    expect(() => args.setCodeChallenge(AuthorizationCodeChallenge.nullobj)).toThrow(RangeError);
  });

  it('take() moves the contents and leaves the source invalid and throwing', () => {
    const source = fullArgs();
    const moved = source.take();
    expect(moved.isValid()).toBe(true);
    expect(moved.scopes()).toBe('openid sdk.social_layer_presence');
    expect(moved.codeChallenge()?.challenge()).toBe('c'.repeat(43));
    expect(source.isValid()).toBe(false);
    const calls: (() => unknown)[] = [
      () => source.clientId(),
      () => source.scopes(),
      () => source.state(),
      () => source.nonce(),
      () => source.codeChallenge(),
      () => source.integrationType(),
      () => source.customSchemeParam(),
      () => source.setClientId('1'),
      () => source.setScopes('identify'),
      () => source.setState('s'),
      () => source.setNonce('n'),
      () => source.setCodeChallenge(undefined),
      () => source.setIntegrationType(0),
      () => source.setCustomSchemeParam('x'),
    ];
    for (const call of calls) expect(call).toThrow(INVALID_RECORD_MESSAGE);
    // Moving or copying an invalid record gives an invalid record (a C++ move is noexcept).
    expect(source.take().isValid()).toBe(false);
    expect(source.clone().isValid()).toBe(false);
    // The moved-to record is independent of the (dead) source.
    moved.setScopes('identify');
    expect(moved.scopes()).toBe('identify');
  });

  it('nullobj is an invalid, shared, frozen instance', () => {
    const nullobj = AuthorizationArgs.nullobj;
    expect(nullobj).toBeInstanceOf(AuthorizationArgs);
    expect(nullobj.isValid()).toBe(false);
    expect(() => nullobj.scopes()).toThrow(INVALID_RECORD_MESSAGE);
    expect(() => nullobj.setScopes('identify')).toThrow(INVALID_RECORD_MESSAGE);
    expect(nullobj.clone().isValid()).toBe(false);
    expect(nullobj.take().isValid()).toBe(false);
    expect(AuthorizationArgs.nullobj.isValid()).toBe(false);
    expect(Object.isFrozen(nullobj)).toBe(true);
    expect(new AuthorizationArgs().isValid()).toBe(true);
  });
});

describe('AuthorizationCodeChallenge', () => {
  it('has challenge and method S256, clone/take/nullobj like AuthorizationArgs', () => {
    const challenge = new AuthorizationCodeChallenge();
    expect(challenge.isValid()).toBe(true);
    expect(challenge.challenge()).toBe('');
    expect(challenge.method()).toBe('S256');
    challenge.setChallenge('x'.repeat(43));
    expect(() => challenge.setMethod('plain' as 'S256')).toThrow(RangeError);
    const copy = challenge.clone();
    copy.setChallenge('y'.repeat(43));
    expect(challenge.challenge()).toBe('x'.repeat(43));
    const moved = challenge.take();
    expect(moved.challenge()).toBe('x'.repeat(43));
    expect(challenge.isValid()).toBe(false);
    expect(() => challenge.challenge()).toThrow('AuthorizationCodeChallenge is not valid (moved from or nullobj)');
    expect(() => challenge.setChallenge('z')).toThrow('not valid');
    expect(AuthorizationCodeChallenge.nullobj.isValid()).toBe(false);
    expect(() => AuthorizationCodeChallenge.nullobj.method()).toThrow('not valid');
  });

  it('a challenge taken out of args leaves the args unchanged (getter returns a copy)', () => {
    const args = fullArgs();
    const challenge = args.codeChallenge();
    challenge?.take();
    expect(args.codeChallenge()?.isValid()).toBe(true);
  });
});
