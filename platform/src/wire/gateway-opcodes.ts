/** Gateway opcodes (the platform's gateway protocol, v9/v10). */
export const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
  RequestSoundboardSounds: 31,
  RequestChannelInfo: 43,
} as const;
export type GatewayOpcode = (typeof GatewayOp)[keyof typeof GatewayOp];

/** Gateway close codes and whether a client may reconnect after them. */
export const GatewayClose = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  ShardingRequired: 4011,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/** The messages the emulator sends with each close code (the close frame's reason). */
export const GATEWAY_CLOSE_MESSAGES: Readonly<Record<number, string>> = {
  4000: 'Unknown error.',
  4001: 'Unknown opcode.',
  4002: 'Decode error.',
  4003: 'Not authenticated.',
  4004: 'Authentication failed.',
  4005: 'Already authenticated.',
  4007: 'Invalid seq.',
  4008: 'Rate limited.',
  4009: 'Session timed out.',
  4010: 'Invalid shard.',
  4011: 'Sharding required.',
  4012: 'Invalid API version.',
  4013: 'Invalid intent(s).',
  4014: 'Disallowed intent(s).',
};

/** Close codes after which a client must not reconnect (it would fail the same way). */
export const FATAL_GATEWAY_CLOSE_CODES: ReadonlySet<number> = new Set([4004, 4010, 4011, 4012, 4013, 4014]);

/** Close codes after which the session is gone: reconnect with a new Identify, not Resume. */
export const REIDENTIFY_GATEWAY_CLOSE_CODES: ReadonlySet<number> = new Set([4003, 4005, 4007, 4008, 4009]);

/** Message activity types: what an invite message asks for. */
export const MessageActivityType = { Join: 1, Spectate: 2, Listen: 3, JoinRequest: 5 } as const;

/** Relationship types. */
export const RelationshipType = { Friend: 1, Blocked: 2, IncomingRequest: 3, OutgoingRequest: 4 } as const;
