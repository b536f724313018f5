import { describe, expect, it } from 'vitest';
import { RpcError, RpcErrorCode } from '../../../../rpc/src/index.js';
import { fromPlatformFailure, SocialError } from '../../../src/host/social/social-error.js';

const TOKEN = 'mfa.VkO_2G4Qv3T5WmVxrAzx6IO3e9hk2TS7cZ2xYH7jBPe3o1eR8JmH9nPzXc';

/** A failure as the platform client throws it: an Error with the HTTP status attached. */
function httpError(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status }, extra);
}

describe('fromPlatformFailure', () => {
  it.each([
    ['no status', new Error('connect ECONNREFUSED 127.0.0.1:443')],
    ['status 0', httpError(0, 'fetch failed')],
    ['a non-numeric status', Object.assign(new Error('Unknown User'), { status: '404' })],
    ['a plain object without status', { message: 'nope' }],
  ])('maps %s to ServiceUnavailable (1001) and HTTP 503, without the error message', (_label, error) => {
    const mapped = fromPlatformFailure(error, 'join');
    expect(mapped.code).toBe(1001);
    expect(mapped.code).toBe(RpcErrorCode.ServiceUnavailable);
    expect(mapped.status).toBe(503);
    expect(mapped.message).toBe('Companion cannot reach the platform right now; try again');
  });

  it.each(['invite', 'request', 'join', 'user'] as const)('maps 404 to InvalidUser (4010) whatever the flow (%s)', (what) => {
    const mapped = fromPlatformFailure(httpError(404, 'Unknown User'), what);
    expect(mapped.code).toBe(4010);
    expect(mapped.status).toBe(404);
    expect(mapped.message).toBe('Invalid user: Unknown User');
  });

  it.each(['invite', 'request', 'join', 'user'] as const)('maps 429 to 5011 whatever the flow (%s)', (what) => {
    const mapped = fromPlatformFailure(httpError(429, 'You are being rate limited.'), what);
    expect(mapped.code).toBe(5011);
    expect(mapped.status).toBe(429);
    expect(mapped.message).toBe('Rate limited by the platform: You are being rate limited.');
  });

  it.each([
    ['join', 4011, 403, 'Invalid invite: Unknown Invite'],
    ['invite', 5006, 409, 'No eligible activity: Unknown Invite'],
    ['request', 4012, 409, 'Invalid join request: Unknown Invite'],
    ['user', 1000, 502, 'Unknown Invite'],
  ] as const)('maps another status in the %s flow to %i / HTTP %i', (what, code, status, message) => {
    const mapped = fromPlatformFailure(httpError(400, 'Unknown Invite'), what);
    expect(mapped.code).toBe(code);
    expect(mapped.status).toBe(status);
    expect(mapped.message).toBe(message);
  });

  it("uses the platform's own words when the error carries them, never the method and path", () => {
    const error = httpError(400, 'POST /channels/1/messages failed (400): Invalid Form Body', { reason: "Invalid Form Body: The user's activity for this application is not joinable" });
    const mapped = fromPlatformFailure(error, 'request');
    expect(mapped.message).toBe("Invalid join request: Invalid Form Body: The user's activity for this application is not joinable");
    expect(mapped.message).not.toContain('/channels/');
  });

  it('treats a rejection without a value (undefined or null) as an unreachable platform', () => {
    for (const nothing of [undefined, null]) {
      const error = fromPlatformFailure(nothing, 'join');
      expect([error.code, error.status]).toEqual([1001, 503]);
    }
  });

  it('names the codes as the RPC protocol does', () => {
    expect(fromPlatformFailure(httpError(404, 'x'), 'join').code).toBe(RpcErrorCode.InvalidUser);
    expect(fromPlatformFailure(httpError(400, 'x'), 'join').code).toBe(RpcErrorCode.InvalidInvite);
    expect(fromPlatformFailure(httpError(400, 'x'), 'invite').code).toBe(RpcErrorCode.NoEligibleActivity);
    expect(fromPlatformFailure(httpError(400, 'x'), 'request').code).toBe(RpcErrorCode.InvalidActivityJoinRequest);
    expect(fromPlatformFailure(httpError(400, 'x'), 'user').code).toBe(RpcErrorCode.UnknownError);
  });

  it('says "platform error" for a failure with a status that is not an Error', () => {
    const mapped = fromPlatformFailure({ status: 400, message: 'not used' }, 'join');
    expect(mapped.message).toBe('Invalid invite: platform error');
  });

  it('returns a SocialError, which is an RpcError', () => {
    const mapped = fromPlatformFailure(httpError(400, 'x'), 'invite');
    expect(mapped).toBeInstanceOf(SocialError);
    expect(mapped).toBeInstanceOf(RpcError);
    expect(mapped.name).toBe('SocialError');
  });

  it.each([404, 429, 400, 500])('uses only the error message, never its other fields (status %i)', (status) => {
    const error = httpError(status, 'Missing Access', {
      token: TOKEN,
      headers: { authorization: `Bot ${TOKEN}` },
      url: `https://platform.example/api?token=${TOKEN}`,
      body: { message: 'Missing Access', token: TOKEN },
      cause: new Error(`request with ${TOKEN} failed`),
    });
    for (const what of ['invite', 'request', 'join', 'user'] as const) {
      const mapped = fromPlatformFailure(error, what);
      expect(mapped.message).not.toContain(TOKEN);
      expect(mapped.message).toMatch(/(^|: )Missing Access$/);
    }
  });
});

describe('SocialError', () => {
  it('carries the RPC code, the message and the HTTP status', () => {
    const error = new SocialError(4011, 'Invalid invite', 403);
    expect(error).toBeInstanceOf(Error);
    expect([error.code, error.message, error.status]).toEqual([4011, 'Invalid invite', 403]);
  });
});
