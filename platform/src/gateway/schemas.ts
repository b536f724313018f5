import * as v from 'valibot';
import { dictionaryOf, plainLooseObject, plainObject } from '../support/plain-object.js';

/**
 * Shapes of client payloads. Activities are loose objects (unknown keys are kept, like the
 * real gateway passes fields it does not validate), but the keys we read are type-checked.
 * Every nested object is a JSON object, never an array (support/plain-object.ts): valibot's
 * `looseObject` and `record` alone would take `[]` for `{}`.
 */
const snowflake = v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/));
const status = v.picklist(['online', 'dnd', 'idle', 'invisible', 'offline']);
const shortText = v.pipe(v.string(), v.maxLength(512));

export const ActivitySchema = plainLooseObject({
  name: v.pipe(v.string(), v.maxLength(128)),
  type: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6)),
  application_id: v.optional(snowflake),
  created_at: v.optional(v.number()),
  url: v.optional(v.nullable(shortText)),
  details: v.optional(shortText),
  state: v.optional(shortText),
  timestamps: v.optional(plainLooseObject({ start: v.optional(v.number()), end: v.optional(v.number()) })),
  assets: v.optional(dictionaryOf(v.string())),
  party: v.optional(
    plainLooseObject({
      id: v.optional(v.string()),
      size: v.optional(v.tuple([v.pipe(v.number(), v.integer()), v.pipe(v.number(), v.integer())])),
      privacy: v.optional(v.pipe(v.number(), v.integer())),
    }),
  ),
  secrets: v.optional(plainLooseObject({ join: v.optional(v.string()), spectate: v.optional(v.string()), match: v.optional(v.string()) })),
  instance: v.optional(v.boolean()),
  flags: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  buttons: v.optional(v.array(v.union([v.string(), plainObject({ label: v.string(), url: v.string() })]))),
  metadata: v.optional(dictionaryOf(v.unknown())),
});

export const PresenceSchema = v.object({
  since: v.nullable(v.number()),
  activities: v.pipe(v.array(ActivitySchema), v.maxLength(16)),
  status,
  afk: v.boolean(),
});

export const IdentifySchema = v.looseObject({
  token: v.string(),
  properties: v.looseObject({ os: v.string(), browser: v.string(), device: v.string() }),
  presence: v.optional(PresenceSchema),
  intents: v.optional(v.unknown()),
  capabilities: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  compress: v.optional(v.boolean()),
  large_threshold: v.optional(v.number()),
});

export const ResumeSchema = v.object({
  token: v.string(),
  session_id: v.string(),
  seq: v.nullable(v.pipe(v.number(), v.integer())),
});

export const RequestGuildMembersSchema = v.object({
  guild_id: snowflake,
  query: v.optional(v.string()),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  user_ids: v.optional(v.union([snowflake, v.array(snowflake)])),
  presences: v.optional(v.boolean()),
  nonce: v.optional(v.string()),
});

export const RequestChannelInfoSchema = v.object({
  guild_id: snowflake,
  fields: v.array(v.string()),
});

export const VoiceStateSchema = v.object({
  guild_id: v.nullable(snowflake),
  channel_id: v.nullable(snowflake),
  self_mute: v.boolean(),
  self_deaf: v.boolean(),
});

export const RequestSoundboardSchema = v.object({ guild_ids: v.array(snowflake) });

/** Identify `intents`: a non-negative integer below 2^26. */
export function validIntents(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 2 ** 26;
}
