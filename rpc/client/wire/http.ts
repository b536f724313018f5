import * as v from 'valibot';
import { LobbySchema, MessageSchema, WireUserSchema } from './objects.js';

/**
 * The platform's HTTP answers as the SDK reads them: each call's answer is checked against
 * its schema here before it is turned into the SDK's shapes (an answer that does not match is
 * a `ServerError` naming what was wrong; see answerOf in platform-request.ts).
 */

const str = v.string();

/** `GET /api/v10/gateway` (the address itself is checked by the gateway client). */
export const GatewayAnswerSchema = v.object({ url: str });

export const LobbyAnswerSchema = LobbySchema;
export const MessageAnswerSchema = MessageSchema;
export const MessageListSchema = v.array(MessageSchema);

/** `POST /users/@me/channels`: the DM channel. */
export const ChannelAnswerSchema = v.object({ id: str });

/** An entry of `GET /users/@me/relationships` as a game's token gets it. */
export const RelationshipEntrySchema = v.object({
  id: str,
  type: v.number(),
  game_relationship_type: v.exactOptional(v.number()),
  user: v.exactOptional(WireUserSchema),
});
export const RelationshipListSchema = v.array(RelationshipEntrySchema);

/** `GET /users/@me/guilds`: each guild with the player's permissions (a decimal bit set). */
export const GuildListSchema = v.array(v.object({ id: str, name: v.exactOptional(str), permissions: v.exactOptional(str) }));

export const GuildChannelSchema = v.object({
  id: str,
  type: v.number(),
  name: v.exactOptional(v.nullable(str)),
  position: v.exactOptional(v.number()),
  parent_id: v.exactOptional(v.nullable(str)),
  nsfw: v.exactOptional(v.boolean()),
  permission_overwrites: v.exactOptional(v.array(v.object({ id: str, deny: v.exactOptional(str) }))),
  linked_lobby: v.exactOptional(v.nullable(v.object({ application_id: str, lobby_id: str }))),
});
export const GuildChannelListSchema = v.array(GuildChannelSchema);
export type WireGuildChannel = v.InferOutput<typeof GuildChannelSchema>;

/** `GET /users/@me/application-profiles` **(ours: the route)**. */
export const ApplicationProfileListSchema = v.array(
  v.object({
    provider_type: v.exactOptional(str),
    provider_issued_user_id: v.exactOptional(str),
    provider_id: v.exactOptional(v.nullable(str)),
    username: v.exactOptional(v.nullable(str)),
    avatar_hash: v.exactOptional(v.nullable(str)),
    metadata: v.exactOptional(v.nullable(str)),
  }),
);

const nonEmpty = v.pipe(str, v.minLength(1));

/** The token endpoints' answer (`POST /oauth2/token`, the partner SDK's token and child-token). */
export const TokenAnswerSchema = v.object({
  access_token: nonEmpty,
  token_type: nonEmpty,
  expires_in: v.pipe(v.number(), v.finite()),
  /** Provisional accounts and child tokens have none. */
  refresh_token: v.exactOptional(str),
  scope: v.exactOptional(str),
  id_token: v.exactOptional(str),
});

/** An OAuth2 error body: `{error, error_description?}`. */
export const OAuthErrorBodySchema = v.object({ error: str, error_description: v.exactOptional(str) });
/** An API error body: `{code, message}` (a 429's has `retry_after` too; a 50035's `errors`, read by api-error-detail.ts). */
export const ApiErrorBodySchema = v.object({ code: v.exactOptional(v.number()), message: v.exactOptional(str), errors: v.exactOptional(v.unknown()) });
export const RetryAfterBodySchema = v.object({ retry_after: v.pipe(v.number(), v.finite(), v.minValue(0)) });
