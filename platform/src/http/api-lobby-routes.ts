import * as v from 'valibot';
import { LobbyError } from '../lobbies/lobby-error.js';
import type { LobbyService, MemberInput } from '../lobbies/lobby-service.js';
import type { AppRecord } from '../state/model.js';
import { me, noContent, ok, parseBody, refusalsAs } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import { type ApiError, cannotEditOthersMessage, invalidField, missingAccess, missingPermissions, unknownLobby, unknownMessage, unknownUser } from './errors.js';
import type { RequestContext, Route } from './router.js';

/** A game's own Bearer token may use lobbies with `lobbies.write` (which `sdk.social_layer` stands for, among others). */
export const SOCIAL_SCOPES = ['lobbies.write', 'sdk.social_layer'] as const;

const Metadata = v.nullable(v.record(v.string(), v.string()));
/** The server's display name for a member, sent with their messages (MessageHandle::AdditionalName): 1-32 characters **(ours)**, null clears. */
const AdditionalName = v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(32))));
const Member = v.object({ id: v.pipe(v.string(), v.regex(/^\d{1,20}$/)), metadata: v.optional(Metadata), flags: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))), additional_name: AdditionalName });
const BulkMember = v.object({ ...Member.entries, remove_member: v.optional(v.boolean()) });
const CreateOrJoinBody = v.object({
  secret: v.string(),
  lobby_metadata: v.optional(Metadata),
  member_metadata: v.optional(Metadata),
  idle_timeout_seconds: v.optional(v.number()),
});
const ServerLobbyBody = v.object({ metadata: v.optional(Metadata), members: v.optional(v.array(Member)), idle_timeout_seconds: v.optional(v.number()) });
const MemberBody = v.object({ metadata: v.optional(Metadata), flags: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))), additional_name: AdditionalName });
const MessageBody = v.object({ content: v.string(), metadata: v.optional(v.record(v.string(), v.string())) });
const EditBody = v.object({ content: v.string() });

function lobbyErrorToApi(error: LobbyError): ApiError {
  switch (error.reason) {
    case 'unknown_lobby':
      return unknownLobby();
    case 'unknown_user':
      return unknownUser();
    case 'unknown_message':
      return unknownMessage();
    case 'missing_access':
      return missingAccess();
    case 'invalid_form':
      return invalidField(error.field ?? 'body', 'BASE_TYPE_BAD', error.message);
    case 'too_many_lobbies':
      return invalidField('secret', 'MAX_LOBBIES', error.message);
    case 'too_many_server_lobbies':
      return invalidField('application_id', 'MAX_LOBBIES', error.message);
    case 'lobby_full':
      return invalidField('secret', 'LOBBY_FULL', error.message);
    case 'not_author':
      return cannotEditOthersMessage();
    case 'missing_permissions':
      return missingPermissions();
  }
}

/** `work()`, with a lobby refusal thrown as its API error. */
export const lobbyAnswer = refusalsAs(LobbyError, lobbyErrorToApi);

/** The caller as the lobby service sees it: a member (Bearer) or the app's server (bot token). */
function caller(ctx: RequestContext): { readonly userId: string | null; readonly applicationId: string } {
  if (ctx.bot !== undefined) return { userId: null, applicationId: ctx.bot.id };
  return { userId: me(ctx).id, applicationId: ctx.oauth?.applicationId ?? '' };
}

function param(ctx: RequestContext, name: string): string {
  return ctx.params[name] as string;
}

function app(ctx: RequestContext): AppRecord {
  return ctx.bot as AppRecord;
}

/** The Social SDK's side: a game's Bearer token with `sdk.social_layer`, rate limited per user. */
function memberRoutes(lobbies: LobbyService, limits: HttpDeps['limits']): Route[] {
  const bearer = { auth: 'bearer' as const, bearerScopes: SOCIAL_SCOPES };
  const joins = { bucket: 'lobby-join', limit: () => limits.http.lobbyJoin, by: 'user' as const };
  return [
    { method: 'PUT', pattern: '/lobbies', ...bearer, rateLimit: joins, handle: (ctx) => lobbyAnswer(() => ok(lobbies.createOrJoin(me(ctx).id, caller(ctx).applicationId, parseBody(CreateOrJoinBody, ctx.body)))) },
    { method: 'DELETE', pattern: '/lobbies/:id/members/@me', ...bearer, rateLimit: joins, handle: (ctx) => lobbyAnswer(() => (lobbies.leave(param(ctx, 'id'), me(ctx).id), noContent)) },
    {
      method: 'POST',
      pattern: '/lobbies/:id/messages',
      ...bearer,
      rateLimit: { bucket: 'lobby-message', limit: () => limits.http.lobbyMessage, by: 'user' },
      handle: (ctx) =>
        lobbyAnswer(() => {
          const body = parseBody(MessageBody, ctx.body);
          return ok(lobbies.sendMessage(param(ctx, 'id'), me(ctx).id, body.content, body.metadata));
        }),
    },
  ];
}

/**
 * Routes either side may call: a member with its Bearer token, or the app's server with its bot
 * token. Editing a message is its author's (the server is answered 50005); an edit counts in the
 * member's lobby-message bucket **(ours)**. A delete is not limited: each needs a message, and
 * sending them is.
 */
function sharedRoutes(lobbies: LobbyService, limits: HttpDeps['limits']): Route[] {
  const either = { auth: 'bearer-or-bot' as const, bearerScopes: SOCIAL_SCOPES };
  const limit = (ctx: RequestContext): number => {
    const raw = ctx.query.get('limit');
    return raw === null ? 50 : Number(raw);
  };
  return [
    { method: 'GET', pattern: '/lobbies/:id', ...either, handle: (ctx) => lobbyAnswer(() => ok(lobbies.get(param(ctx, 'id'), caller(ctx).userId))) },
    { method: 'GET', pattern: '/lobbies/:id/messages', ...either, handle: (ctx) => lobbyAnswer(() => ok(lobbies.messages(param(ctx, 'id'), caller(ctx).userId, limit(ctx)))) },
    {
      method: 'PATCH',
      pattern: '/lobbies/:id/messages/:message',
      ...either,
      rateLimit: { bucket: 'lobby-message', limit: () => limits.http.lobbyMessage, by: 'user' },
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.editMessage(param(ctx, 'id'), caller(ctx).userId, param(ctx, 'message'), parseBody(EditBody, ctx.body).content))),
    },
    { method: 'DELETE', pattern: '/lobbies/:id/messages/:message', ...either, handle: (ctx) => lobbyAnswer(() => (lobbies.deleteMessage(param(ctx, 'id'), caller(ctx), param(ctx, 'message')), noContent)) },
  ];
}

/** The server API: the application's bot token. */
function serverRoutes(lobbies: LobbyService): Route[] {
  const bot = { auth: 'bot' as const };
  return [
    { method: 'POST', pattern: '/lobbies', ...bot, handle: (ctx) => lobbyAnswer(() => ok(lobbies.create(app(ctx).id, parseBody(ServerLobbyBody, ctx.body)))) },
    { method: 'PATCH', pattern: '/lobbies/:id', ...bot, handle: (ctx) => lobbyAnswer(() => ok(lobbies.modify(param(ctx, 'id'), app(ctx).id, parseBody(ServerLobbyBody, ctx.body)))) },
    { method: 'DELETE', pattern: '/lobbies/:id', ...bot, handle: (ctx) => lobbyAnswer(() => (lobbies.delete(param(ctx, 'id'), app(ctx).id), noContent)) },
    {
      method: 'PUT',
      pattern: '/lobbies/:id/members/:user',
      ...bot,
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.putMember(param(ctx, 'id'), app(ctx).id, { id: param(ctx, 'user'), ...parseBody(MemberBody, ctx.body) }))),
    },
    { method: 'DELETE', pattern: '/lobbies/:id/members/:user', ...bot, handle: (ctx) => lobbyAnswer(() => (lobbies.deleteMember(param(ctx, 'id'), app(ctx).id, param(ctx, 'user')), noContent)) },
    {
      method: 'PUT',
      pattern: '/lobbies/:id/messages/:message/moderation-metadata',
      ...bot,
      handle: (ctx) =>
        lobbyAnswer(() => {
          lobbies.setModerationMetadata(param(ctx, 'id'), app(ctx).id, param(ctx, 'message'), parseBody(v.record(v.string(), v.string()), ctx.body));
          return noContent;
        }),
    },
    {
      method: 'POST',
      pattern: '/lobbies/:id/members/bulk',
      ...bot,
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.bulk(param(ctx, 'id'), app(ctx).id, parseBody(v.array(BulkMember), ctx.body) as MemberInput[]))),
    },
  ];
}

/** Lobbies (see platform/README.md "Lobbies"). `@me` comes before `:user` so that it is not read as an id. */
export function lobbyRoutes(deps: Pick<HttpDeps, 'lobbies' | 'limits'>): Route[] {
  return [...memberRoutes(deps.lobbies, deps.limits), ...sharedRoutes(deps.lobbies, deps.limits), ...serverRoutes(deps.lobbies)];
}

/** `GET /_emulator/lobbies` and `GET /_emulator/lobbies/{id}/messages` (admin): what QA lists with `companion platform lobbies`. */
export function lobbyAdminRoutes(lobbies: LobbyService): Route[] {
  return [
    { method: 'GET', pattern: '/_emulator/lobbies', auth: 'admin', handle: () => ok(lobbies.list()) },
    {
      method: 'GET',
      pattern: '/_emulator/lobbies/:id/messages',
      auth: 'admin',
      handle: (ctx) => {
        const raw = ctx.query.get('limit');
        return lobbyAnswer(() => ok(lobbies.messages(param(ctx, 'id'), null, raw === null ? 200 : Number(raw))));
      },
    },
  ];
}
