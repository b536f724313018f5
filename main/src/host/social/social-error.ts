import { RpcError, RpcErrorCode } from '../../../../rpc/src/index.js';

/**
 * A refusal from the invite flows: an RPC ERROR for games (code, message) and an HTTP status
 * for the control API, with the same message for both.
 */
export class SocialError extends RpcError {
  constructor(
    code: number,
    message: string,
    readonly status: number,
  ) {
    super(code, message);
    this.name = 'SocialError';
  }
}

/** What a failed platform call means to a game; never carries a token (messages come from the API body). */
export function fromPlatformFailure(error: unknown, what: 'invite' | 'request' | 'join' | 'user'): SocialError {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status !== 'number' || status === 0) {
    return new SocialError(RpcErrorCode.ServiceUnavailable, 'Companion cannot reach the platform right now; try again', 503);
  }
  // The platform's own words when it gave some (never the method and path: players read these).
  const reason = typeof error === 'object' && error !== null ? (error as { reason?: unknown }).reason : undefined;
  const detail = typeof reason === 'string' ? reason : error instanceof Error ? error.message : 'platform error';
  if (status === 404) return new SocialError(RpcErrorCode.InvalidUser, `Invalid user: ${detail}`, 404);
  if (status === 429) return new SocialError(5011, `Rate limited by the platform: ${detail}`, 429);
  if (what === 'join') return new SocialError(RpcErrorCode.InvalidInvite, `Invalid invite: ${detail}`, 403);
  if (what === 'invite') return new SocialError(RpcErrorCode.NoEligibleActivity, `No eligible activity: ${detail}`, 409);
  if (what === 'request') return new SocialError(RpcErrorCode.InvalidActivityJoinRequest, `Invalid join request: ${detail}`, 409);
  return new SocialError(RpcErrorCode.UnknownError, detail, 502);
}
