/** `data.code` values of ERROR replies (official codes plus the ones clients know). */
export const RpcErrorCode = {
  UnknownError: 1000,
  ServiceUnavailable: 1001,
  InvalidPayload: 4000,
  InvalidCommand: 4002,
  InvalidGuild: 4003,
  InvalidEvent: 4004,
  InvalidChannel: 4005,
  InvalidPermissions: 4006,
  InvalidClientId: 4007,
  InvalidOrigin: 4008,
  InvalidToken: 4009,
  InvalidUser: 4010,
  InvalidInvite: 4011,
  InvalidActivityJoinRequest: 4012,
  OAuth2Error: 5000,
  SelectChannelTimedOut: 5001,
  GetGuildTimedOut: 5002,
  SelectVoiceForceRequired: 5003,
  InvalidActivitySecret: 5005,
  NoEligibleActivity: 5006,
} as const;

export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

/** `code` values of CLOSE frames (and WebSocket close codes). */
export const CloseCode = {
  Normal: 1000,
  Unsupported: 1003,
  InvalidClientId: 4000,
  InvalidOrigin: 4001,
  RateLimited: 4002,
  TokenRevoked: 4003,
  InvalidVersion: 4004,
  InvalidEncoding: 4005,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** An error that becomes an ERROR reply `{code, message}` on the wire. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * An error text that names what the client sent (`Invalid command: X`, as the real client
 * words it) when that is a primitive, and only the prefix when it is an object or array: the
 * real client's string conversion would throw on `{"toString":1}`, and an object's text says
 * nothing useful anyway.
 */
export function namingMessage(prefix: string, value: unknown): string {
  return value !== null && (typeof value === 'object' || typeof value === 'function') ? prefix : `${prefix}: ${String(value)}`;
}
