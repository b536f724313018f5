import * as v from 'valibot';
import { LobbyError } from '../lobbies/lobby-error.js';
import type { LobbyService, MemberInput } from '../lobbies/lobby-service.js';
import type { AccessPolicy } from '../access/policy.js';
import type { AppRecord } from '../state/model.js';
import { me, noContent, ok, parseBody, refusalsAs } from './api-kit.js';
import { LobbyMemberFlags, NullableStringMap, plainObject, Snowflake, StringMap } from './body-schemas.js';
import type { HttpDeps } from './deps.js';
import { type ApiError, cannotEditOthersMessage, invalidField, missingAccess, missingPermissions, unknownLobby, unknownMessage, unknownUser } from './errors.js';
import type { RequestContext, Route } from './router.js';

/** A game's own Bearer token may use lobbies with `lobbies.write` (which `sdk.social_layer` stands for, among others). */
export const SOCIAL_SCOPES = ['lobbies.write', 'sdk.social_layer'] as const;

const Metadata = NullableStringMap;
/** The server's display name for a member, sent with their messages (MessageHandle::AdditionalName): 1-32 characters **(ours)**, null clears. */
const AdditionalName = v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(32))));
const MemberEntries = { id: Snowflake, metadata: v.optional(Metadata), flags: v.optional(LobbyMemberFlags), additional_name: AdditionalName };
const Member = plainObject(MemberEntries);
const BulkMember = plainObject({ ...MemberEntries, remove_member: v.optional(v.boolean()) });
const CreateOrJoinBody = plainObject({
  secret: v.string(),
  lobby_metadata: v.optional(Metadata),
  member_metadata: v.optional(Metadata),
  idle_timeout_seconds: v.optional(v.number()),
});
const ServerLobbyBody = plainObject({ metadata: v.optional(Metadata), members: v.optional(v.array(Member)), idle_timeout_seconds: v.optional(v.number()) });
const MemberBody = plainObject({ metadata: v.optional(Metadata), flags: v.optional(LobbyMemberFlags), additional_name: AdditionalName });
const MessageBody = plainObject({ content: v.string(), metadata: v.optional(StringMap) });
const EditBody = plainObject({ content: v.string() });
/** `PUT .../moderation-metadata`: the dictionary itself is the body. */
const ModerationMetadataBody = StringMap;

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

/** The route's lobby, as the access policy resolved it (one of the caller's application). */
export function lobbyOf(ctx: RequestContext): string {
  const id = ctx.resolved.lobbyId;
  if (id === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no lobby`);
  return id;
}

/** The access rules of the lobby routes (access/route-access.ts). */
const LOBBY = { id: 'lobby' } as const;
const LOBBY_MESSAGE = { id: 'lobby', message: 'message' } as const;
const LOBBY_MEMBER = { id: 'lobby', user: 'user' } as const;

function app(ctx: RequestContext): AppRecord {
  return ctx.bot as AppRecord;
}

/** The Social SDK's side: a game's Bearer token with `sdk.social_layer`, rate limited per user. */
function memberRoutes(lobbies: LobbyService, limits: HttpDeps['limits']): Route[] {
  const bearer = { auth: 'bearer' as const, bearerScopes: SOCIAL_SCOPES };
  const joins = { bucket: 'lobby-join', limit: () => limits.http.lobbyJoin, by: 'application-user' as const };
  return [
    { method: 'PUT', pattern: '/lobbies', access: {}, ...bearer, rateLimit: joins, handle: (ctx) => lobbyAnswer(() => ok(lobbies.createOrJoin(me(ctx).id, caller(ctx).applicationId, parseBody(CreateOrJoinBody, ctx.body)))) },
    { method: 'DELETE', pattern: '/lobbies/:id/members/@me', access: LOBBY, ...bearer, rateLimit: joins, handle: (ctx) => lobbyAnswer(() => (lobbies.leave(lobbyOf(ctx), me(ctx).id), noContent)) },
    {
      method: 'POST',
      pattern: '/lobbies/:id/messages',
      access: LOBBY,
      ...bearer,
      rateLimit: { bucket: 'lobby-message', limit: () => limits.http.lobbyMessage, by: 'application-user' },
      handle: (ctx) =>
        lobbyAnswer(() => {
          const body = parseBody(MessageBody, ctx.body);
          return ok(lobbies.sendMessage(lobbyOf(ctx), me(ctx).id, body.content, body.metadata));
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
    { method: 'GET', pattern: '/lobbies/:id', access: LOBBY, ...either, handle: (ctx) => lobbyAnswer(() => ok(lobbies.get(lobbyOf(ctx), caller(ctx).userId))) },
    { method: 'GET', pattern: '/lobbies/:id/messages', access: LOBBY, ...either, handle: (ctx) => lobbyAnswer(() => ok(lobbies.messages(lobbyOf(ctx), caller(ctx).userId, limit(ctx)))) },
    {
      method: 'PATCH',
      pattern: '/lobbies/:id/messages/:message',
      access: LOBBY_MESSAGE,
      ...either,
      rateLimit: { bucket: 'lobby-message', limit: () => limits.http.lobbyMessage, by: 'application-user' },
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.editMessage(lobbyOf(ctx), caller(ctx).userId, param(ctx, 'message'), parseBody(EditBody, ctx.body).content))),
    },
    { method: 'DELETE', pattern: '/lobbies/:id/messages/:message', access: LOBBY_MESSAGE, ...either, handle: (ctx) => lobbyAnswer(() => (lobbies.deleteMessage(lobbyOf(ctx), caller(ctx), param(ctx, 'message')), noContent)) },
  ];
}

/** The server API: the application's bot token. */
function serverRoutes(lobbies: LobbyService, policy: AccessPolicy): Route[] {
  const bot = { auth: 'bot' as const };
  // The members a body names are users the policy lets the server know (another game's provisional accounts are not),
  // and those it adds are users it may reach (a banned account is not).
  const known = <B extends { readonly members?: readonly { readonly id: string; readonly remove_member?: boolean | undefined }[] | undefined }>(ctx: RequestContext, body: B): B => {
    for (const member of body.members ?? []) policy.user(ctx.caller, member.id, member.remove_member === true ? 'name' : 'reach');
    return body;
  };
  return [
    { method: 'POST', pattern: '/lobbies', access: {}, ...bot, handle: (ctx) => lobbyAnswer(() => ok(lobbies.create(app(ctx).id, known(ctx, parseBody(ServerLobbyBody, ctx.body))))) },
    { method: 'PATCH', pattern: '/lobbies/:id', access: LOBBY, ...bot, handle: (ctx) => lobbyAnswer(() => ok(lobbies.modify(lobbyOf(ctx), app(ctx).id, known(ctx, parseBody(ServerLobbyBody, ctx.body))))) },
    // Safe to repeat: another application's lobby is as gone as a deleted one (204, nothing done).
    {
      method: 'DELETE',
      pattern: '/lobbies/:id',
      access: { id: 'lobby-or-gone' },
      ...bot,
      handle: (ctx) => {
        const id = ctx.resolved.lobbyId;
        return lobbyAnswer(() => (id !== undefined && lobbies.delete(id, app(ctx).id), noContent));
      },
    },
    {
      method: 'PUT',
      pattern: '/lobbies/:id/members/:user',
      access: { id: 'lobby', user: 'reachable-user' },
      ...bot,
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.putMember(lobbyOf(ctx), app(ctx).id, { id: param(ctx, 'user'), ...parseBody(MemberBody, ctx.body) }))),
    },
    { method: 'DELETE', pattern: '/lobbies/:id/members/:user', access: LOBBY_MEMBER, ...bot, handle: (ctx) => lobbyAnswer(() => (lobbies.deleteMember(lobbyOf(ctx), app(ctx).id, param(ctx, 'user')), noContent)) },
    {
      method: 'PUT',
      pattern: '/lobbies/:id/messages/:message/moderation-metadata',
      access: LOBBY_MESSAGE,
      ...bot,
      handle: (ctx) =>
        lobbyAnswer(() => {
          lobbies.setModerationMetadata(lobbyOf(ctx), app(ctx).id, param(ctx, 'message'), parseBody(ModerationMetadataBody, ctx.body));
          return noContent;
        }),
    },
    {
      method: 'POST',
      pattern: '/lobbies/:id/members/bulk',
      access: LOBBY,
      ...bot,
      handle: (ctx) => lobbyAnswer(() => ok(lobbies.bulk(lobbyOf(ctx), app(ctx).id, known(ctx, { members: parseBody(v.array(BulkMember), ctx.body) as MemberInput[] }).members))),
    },
  ];
}

/** Lobbies (see platform/README.md "Lobbies"). `@me` comes before `:user` so that it is not read as an id. */
export function lobbyRoutes(deps: Pick<HttpDeps, 'lobbies' | 'limits' | 'policy'>): Route[] {
  return [...memberRoutes(deps.lobbies, deps.limits), ...sharedRoutes(deps.lobbies, deps.limits), ...serverRoutes(deps.lobbies, deps.policy)];
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
