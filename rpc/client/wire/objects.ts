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
});

export const LinkedChannelSchema = v.object({ id: str, name: v.exactOptional(str), guild_id: v.exactOptional(str) });

export const LobbySchema = v.object({
  id: str,
  application_id: v.exactOptional(str),
  metadata: v.exactOptional(maybe(MetadataSchema)),
  members: v.exactOptional(v.array(LobbyMemberSchema)),
  linked_channel: v.exactOptional(maybe(LinkedChannelSchema)),
});

/** A channel or lobby message. */
export const MessageSchema = v.object({
  id: str,
  content: v.exactOptional(str),
  author: v.exactOptional(v.object({ id: str })),
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
export type WireActivity = v.InferOutput<typeof ActivitySchema>;
export type WirePresence = v.InferOutput<typeof PresenceSchema>;
export type WireRelationshipEvent = v.InferOutput<typeof RelationshipSchema>;
