import * as v from 'valibot';
import { DmEditError, deleteDmMessage, editDmMessage, setDmModerationMetadata } from '../invites/dm-edits.js';
import { moderationMetadataProblem } from '../lobbies/lobby-rules.js';
import type { AppRecord } from '../state/model.js';
import { me, noContent, ok, parseBody, refusalsAs } from './api-kit.js';
import { plainObject, StringMap } from './body-schemas.js';
import { dmOf, otherRecipient } from './api-message-routes.js';
import type { HttpDeps } from './deps.js';
import { type ApiError, cannotActOnDmChannel, cannotEditOthersMessage, invalidField, unknownChannel, unknownMessage, unknownUser } from './errors.js';
import { GAME_SCOPES } from './game-scopes.js';
import type { RequestContext, Route, RouteResult } from './router.js';

const EditBody = plainObject({ content: v.pipe(v.string(), v.maxLength(2000)) });
/** `PUT .../moderation-metadata`: the dictionary itself is the body. */
const ModerationMetadataBody = StringMap;
const Snowflake = /^\d{1,20}$/;
/** A message of a DM channel the caller is a recipient of (access/route-access.ts). */
const DM_MESSAGE = { id: 'dm-channel', message: 'message' } as const;

function dmEditErrorToApi(error: DmEditError): ApiError {
  switch (error.reason) {
    case 'unknown_message':
      return unknownMessage();
    case 'unknown_channel':
      return unknownChannel();
    case 'not_author_edit':
      return cannotEditOthersMessage();
    case 'not_author_delete':
      return cannotActOnDmChannel();
    case 'empty':
      return invalidField('content', 'BASE_TYPE_REQUIRED', error.message);
  }
}

/** `work()`, with a refusal thrown as its API error. */
const dmAnswer = refusalsAs(DmEditError, dmEditErrorToApi);

const param = (ctx: RequestContext, name: string): string => ctx.params[name] as string;

/** The game's server sets its moderation metadata on a DM message between two users. */
function putModerationMetadata(deps: HttpDeps, ctx: RequestContext): RouteResult {
  const users = [param(ctx, 'user1'), param(ctx, 'user2')] as const;
  if (users.some((id) => !Snowflake.test(id) || deps.store.user(id) === undefined)) throw unknownUser();
  const metadata = parseBody(ModerationMetadataBody, ctx.body);
  const problem = moderationMetadataProblem(metadata);
  if (problem !== undefined) throw invalidField('metadata', 'BASE_TYPE_BAD', problem);
  // A DM its game wrote nothing in is, to the server, no DM at all.
  deps.policy.serverDm(ctx.caller, ...users);
  return dmAnswer(() => (setDmModerationMetadata(deps, ctx.bot as AppRecord, users, param(ctx, 'message'), metadata), noContent));
}

/**
 * Editing and deleting a DM message by its author (the real API's routes; the user token, or a
 * game's Bearer token with the scopes of posting), and the game server's moderation metadata on
 * a DM message (`PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{id}/moderation-metadata`,
 * the real route, with the app's bot token). An edit counts in the bucket of sending
 * **(ours)**; a delete is not limited (each needs a message, and sending them is).
 */
export function dmEditRoutes(deps: HttpDeps): Route[] {
  return [
    {
      method: 'PATCH',
      pattern: '/channels/:id/messages/:message',
      access: DM_MESSAGE,
      auth: 'user',
      bearerScopes: GAME_SCOPES.dmWrite,
      rateLimit: { bucket: 'channel-messages-create', limit: () => deps.limits.http.messageCreate, by: 'user' },
      handle: (ctx) => {
        const channel = dmOf(ctx);
        const { content } = parseBody(EditBody, ctx.body);
        // An edit is sending again: a block stops it too.
        deps.policy.mayMessage(me(ctx).id, otherRecipient(channel, me(ctx).id));
        return dmAnswer(() => ok(editDmMessage(deps, me(ctx), channel, param(ctx, 'message'), content, ctx.oauth?.applicationId ?? null)));
      },
    },
    {
      method: 'DELETE',
      pattern: '/channels/:id/messages/:message',
      access: DM_MESSAGE,
      auth: 'user',
      bearerScopes: GAME_SCOPES.dmWrite,
      handle: (ctx) => {
        const channel = dmOf(ctx);
        return dmAnswer(() => (deleteDmMessage(deps, me(ctx), channel, param(ctx, 'message')), noContent));
      },
    },
    {
      method: 'PUT',
      pattern: '/partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata',
      access: { user1: 'user', user2: 'user', message: 'message' },
      auth: 'bot', handle: (ctx) => putModerationMetadata(deps, ctx),
    },
  ];
}
