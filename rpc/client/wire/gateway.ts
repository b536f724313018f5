import * as v from 'valibot';
import { check, type Checked } from './check.js';
import { LobbyMemberSchema, LobbySchema, MessageSchema, PresenceSchema, RelationshipSchema, WireUserSchema } from './objects.js';

/**
 * The platform's gateway as the SDK reads it: the frame, Hello, READY, and each dispatch the
 * SDK handles, as schemas; the TypeScript types come from them. platform-gateway.ts checks
 * every frame here before it acts on it.
 */

const str = v.string();

/** A sequence number: a non-negative integer. */
const Seq = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** Every gateway message: `op`, and for a dispatch `t` and `s`. */
export const FrameSchema = v.object({
  op: v.pipe(v.number(), v.integer()),
  d: v.exactOptional(v.unknown()),
  s: v.exactOptional(v.nullable(Seq)),
  t: v.exactOptional(v.nullable(str)),
});
export type GatewayFrame = v.InferOutput<typeof FrameSchema>;

/** Hello's `d`: the interval is a finite number of milliseconds (clamped by the gateway client). */
export const HelloSchema = v.object({ heartbeat_interval: v.pipe(v.number(), v.finite()) });

/** A gateway address: an absolute ws: or wss: URL. */
export const GatewayUrlSchema = v.pipe(
  str,
  v.check((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'ws:' || url.protocol === 'wss:';
    } catch {
      return false;
    }
  }, 'not a ws: or wss: URL'),
);

/** READY's `d`: the session and where to resume it are required, and the player. */
export const ReadySchema = v.object({
  session_id: v.pipe(str, v.minLength(1)),
  resume_gateway_url: GatewayUrlSchema,
  user: WireUserSchema,
  relationships: v.exactOptional(v.array(RelationshipSchema)),
  presences: v.exactOptional(v.array(PresenceSchema)),
  /** The lobbies of the game the player is in (a game's session; ours). */
  lobbies: v.exactOptional(v.array(LobbySchema)),
});
export type WireReady = v.InferOutput<typeof ReadySchema>;

const IdOnly = v.object({ id: str });
const MemberEvent = v.object({ lobby_id: str, member: LobbyMemberSchema });
const MessageDelete = v.object({ id: str, channel_id: v.exactOptional(str), lobby_id: v.exactOptional(str) });
const RelationshipRemove = v.object({ id: str, type: v.exactOptional(v.number()), user: v.exactOptional(WireUserSchema) });

/** Each dispatch the SDK handles, by name. */
const DISPATCHES = {
  READY: ReadySchema,
  RESUMED: v.unknown(),
  USER_UPDATE: WireUserSchema,
  PRESENCE_UPDATE: PresenceSchema,
  RELATIONSHIP_ADD: RelationshipSchema,
  RELATIONSHIP_REMOVE: RelationshipRemove,
  GAME_RELATIONSHIP_ADD: RelationshipSchema,
  GAME_RELATIONSHIP_REMOVE: RelationshipRemove,
  LOBBY_CREATE: LobbySchema,
  LOBBY_UPDATE: LobbySchema,
  LOBBY_DELETE: IdOnly,
  LOBBY_MEMBER_ADD: MemberEvent,
  LOBBY_MEMBER_UPDATE: MemberEvent,
  LOBBY_MEMBER_REMOVE: MemberEvent,
  LOBBY_MESSAGE_CREATE: MessageSchema,
  LOBBY_MESSAGE_UPDATE: MessageSchema,
  LOBBY_MESSAGE_DELETE: MessageDelete,
  MESSAGE_CREATE: MessageSchema,
  MESSAGE_UPDATE: MessageSchema,
  MESSAGE_DELETE: MessageDelete,
} as const;

type Dispatches = typeof DISPATCHES;
export type DispatchName = keyof Dispatches;

/** A dispatch the SDK handles, its data checked: a union on `t`. */
export type PlatformDispatch = { [T in DispatchName]: { readonly t: T; readonly d: v.InferOutput<Dispatches[T]> } }[DispatchName];

export function isHandledDispatch(t: string): t is DispatchName {
  return Object.hasOwn(DISPATCHES, t);
}

/** The dispatch with its data checked against its event's schema, or what was wrong. */
export function checkDispatch(t: DispatchName, d: unknown): Checked<PlatformDispatch> {
  const checked = check(DISPATCHES[t] as v.GenericSchema, d);
  return checked.ok ? { ok: true, value: { t, d: checked.value } as PlatformDispatch } : checked;
}
