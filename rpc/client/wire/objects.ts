import * as v from 'valibot';

/**
 * The platform's objects as the SDK reads them, from the gateway and from HTTP answers alike
 * (the SDK cannot import the emulator's platform/src/wire, so these are its own view of the
 * same JSON). Each names what the SDK needs (ids above all) and the types of the fields it
 * reads; fields it does not read may be anything, and unknown fields are allowed.
 */

const str = v.string();
/** A field the platform may leave out or send as null. */
const maybe = <S extends v.GenericSchema>(schema: S) => v.nullable(schema);

/** String key/value pairs (a lobby's, a member's, a message's). */
export const MetadataSchema = v.record(v.string(), v.string());

/** A user object (looseObject: a handle keeps every field the platform sent). */
export const WireUserSchema = v.looseObject({
  id: str,
  username: str,
  global_name: v.exactOptional(maybe(str)),
  avatar: v.exactOptional(maybe(str)),
  provisional: v.exactOptional(v.boolean()),
});

export const LobbyMemberSchema = v.object({
  id: str,
  metadata: v.exactOptional(maybe(MetadataSchema)),
  flags: v.exactOptional(v.number()),
  connected: v.exactOptional(v.boolean()),
  /** The member's user (the emulator sends it: LobbyMemberHandle::User). */
  user: v.exactOptional(WireUserSchema),
});

export const LinkedChannelSchema = v.object({ id: str, name: v.exactOptional(str), guild_id: v.exactOptional(str) });

export const LobbySchema = v.object({
  id: str,
  application_id: v.exactOptional(str),
  metadata: v.exactOptional(maybe(MetadataSchema)),
  members: v.exactOptional(v.array(LobbyMemberSchema)),
  linked_channel: v.exactOptional(maybe(LinkedChannelSchema)),
});

/** A message's author: its id at least; a full user object when the platform sends one. */
const AuthorSchema = v.looseObject({
  id: str,
  username: v.exactOptional(str),
  global_name: v.exactOptional(maybe(str)),
  avatar: v.exactOptional(maybe(str)),
  provisional: v.exactOptional(v.boolean()),
});

/** A message's `activity` (an invite: type 1 JOIN; a join request: type 5 JOIN_REQUEST). */
export const MessageActivitySchema = v.object({
  type: v.number(),
  party_id: v.exactOptional(str),
  /** The emulator's mark on a join request its recipient declined. */
  declined: v.exactOptional(v.boolean()),
});

/** A channel or lobby message. */
export const MessageSchema = v.object({
  id: str,
  /** The platform's message type (0 DEFAULT: invites and join requests too). */
  type: v.exactOptional(v.number()),
  flags: v.exactOptional(v.number()),
  content: v.exactOptional(str),
  author: v.exactOptional(AuthorSchema),
  activity: v.exactOptional(maybe(MessageActivitySchema)),
  /** The emulator's invites: epoch ms after which the invite can no longer be accepted. */
  invite_expires_at: v.exactOptional(v.number()),
  attachments: v.exactOptional(maybe(v.array(v.unknown()))),
  embeds: v.exactOptional(maybe(v.array(v.unknown()))),
  sticker_items: v.exactOptional(maybe(v.array(v.unknown()))),
  poll: v.exactOptional(maybe(v.looseObject({ question: v.exactOptional(v.looseObject({ text: v.exactOptional(maybe(str)) })) }))),
  thread: v.exactOptional(maybe(v.looseObject({ name: v.exactOptional(maybe(str)) }))),
  lobby_id: v.exactOptional(maybe(str)),
  channel_id: v.exactOptional(str),
  application_id: v.exactOptional(maybe(str)),
  timestamp: v.exactOptional(str),
  edited_timestamp: v.exactOptional(maybe(str)),
  metadata: v.exactOptional(maybe(MetadataSchema)),
  moderation_metadata: v.exactOptional(maybe(MetadataSchema)),
  additional_name: v.exactOptional(maybe(str)),
});

/** An activity of a presence (looseObject: the handle shows it as sent). */
export const ActivitySchema = v.looseObject({
  name: v.exactOptional(str),
  type: v.exactOptional(v.number()),
  application_id: v.exactOptional(str),
  state: v.exactOptional(str),
  details: v.exactOptional(str),
});

export const PresenceSchema = v.object({
  user: v.object({ id: str }),
  guild_id: v.exactOptional(str),
  status: v.exactOptional(str),
  activities: v.exactOptional(v.array(ActivitySchema)),
});

/** A relationship as READY and RELATIONSHIP_ADD carry it (GAME_RELATIONSHIP_ADD too). */
export const RelationshipSchema = v.object({
  id: str,
  type: v.number(),
  user: v.exactOptional(WireUserSchema),
});

export type WireUser = v.InferOutput<typeof WireUserSchema>;
export type WireLobby = v.InferOutput<typeof LobbySchema>;
export type WireLobbyMember = v.InferOutput<typeof LobbyMemberSchema>;
export type WireMessage = v.InferOutput<typeof MessageSchema>;
export type WireMessageActivity = v.InferOutput<typeof MessageActivitySchema>;
export type WireActivity = v.InferOutput<typeof ActivitySchema>;
export type WirePresence = v.InferOutput<typeof PresenceSchema>;
export type WireRelationshipEvent = v.InferOutput<typeof RelationshipSchema>;
