import * as v from 'valibot';
import { InviteError } from '../invites/invites.js';
import { declineDmRequest, postDmMessage, toPlatformMessage } from '../invites/dm-messages.js';
import type { ChannelRecord, GuildRecord, UserRecord } from '../state/model.js';
import { toPlatformUser } from '../state/store.js';
import { GatewayEvent, RelationshipType, type RpcApplication } from '../wire/index.js';
import type { HttpDeps } from './deps.js';
import {
  type ApiError,
  invalidBody,
  invalidField,
  missingAccess,
  unknownApplication,
  unknownChannel,
  unknownGuild,
  unknownMessage,
  unknownUser,
} from './errors.js';
import type { RequestContext, Route, RouteResult } from './router.js';

const LoginBody = v.object({ login: v.pipe(v.string(), v.minLength(1)) });
const OpenDmBody = v.object({ recipient_id: v.string() });
const MessageBody = v.object({
  content: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  activity: v.optional(v.object({ type: v.pipe(v.number(), v.integer()), party_id: v.optional(v.string()) })),
  application_id: v.optional(v.string()),
  nonce: v.optional(v.union([v.string(), v.number()])),
});
/** Bearer tokens read channels with `guilds.channels.read` or `rpc`. */
const CHANNEL_SCOPES: readonly string[] = ['guilds.channels.read', 'rpc'];
const JoinBody = v.object({ message_id: v.optional(v.string()), session_id: v.optional(v.string()) });

export function parseBody<const S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw invalidBody(result.issues);
  return result.output;
}

const ok = (body: unknown, status = 200): RouteResult => ({ status, body });
const noContent: RouteResult = { status: 204 };

export { toPlatformMessage };

function me(ctx: RequestContext): UserRecord {
  return ctx.user as UserRecord;
}

/** Maps invite refusals to API errors. */
export function inviteErrorToApi(error: InviteError): ApiError {
  switch (error.reason) {
    case 'invalid_form':
      return invalidField(error.field ?? 'activity', 'INVALID_ACTIVITY', error.message);
    case 'missing_access':
      return missingAccess();
    case 'unknown_application':
      return unknownApplication();
    case 'unknown_message':
      return unknownMessage();
    case 'unknown_user':
      return unknownUser();
  }
}

/** The routes under /api, /api/v9 and /api/v10. */
export function apiRoutes(deps: HttpDeps): Route[] {
  const { store } = deps;

  const dmOf = (ctx: RequestContext, channelId: string): ChannelRecord => {
    const channel = store.channel(channelId);
    if (channel === undefined) throw unknownChannel();
    if (channel.type !== 1 || channel.recipient_ids?.includes(me(ctx).id) !== true) throw missingAccess();
    return channel;
  };

  const memberGuild = (ctx: RequestContext): GuildRecord => {
    const guild = store.guild(ctx.params.id as string);
    if (guild === undefined) throw unknownGuild();
    if (!store.isMember(guild.id, me(ctx).id)) throw missingAccess();
    return guild;
  };

  const rpcApp = (id: string): RpcApplication => {
    const app = deps.resolveApp(id);
    if (app === undefined) throw unknownApplication();
    return {
      id: app.id,
      name: app.name,
      icon: app.icon,
      description: app.description,
      cover_image: app.cover_image,
      verified: app.verified,
      rpc_origins: app.rpc_origins,
    };
  };

  return [
    { method: 'GET', pattern: '/gateway', auth: 'none', handle: () => ok({ url: deps.gatewayUrl() }) },
    {
      method: 'POST',
      pattern: '/auth/login',
      auth: 'none',
      rateLimit: { bucket: 'auth-login', limit: () => deps.limits.http.devLogin, by: 'ip' },
      handle: (ctx) => {
        const { login } = parseBody(LoginBody, ctx.body);
        const user = store.userByName(login);
        if (user === undefined) throw invalidField('login', 'INVALID_LOGIN', 'Unknown username');
        deps.logger.info({ userId: user.id }, 'dev login');
        return ok({ user_id: user.id, token: user.token });
      },
    },
    { method: 'GET', pattern: '/users/@me', auth: 'user', bearerScopes: ['identify'], handle: (ctx) => ok(toPlatformUser(me(ctx))) },
    {
      method: 'GET',
      pattern: '/users/@me/relationships',
      auth: 'user',
      handle: (ctx) =>
        ok(
          store.friendsOf(me(ctx).id).flatMap((id) => {
            const friend = store.user(id);
            return friend === undefined ? [] : [{ id, type: RelationshipType.Friend, user: toPlatformUser(friend) }];
          }),
        ),
    },
    {
      method: 'GET',
      pattern: '/users/@me/guilds',
      auth: 'user',
      bearerScopes: ['guilds'],
      handle: (ctx) =>
        ok(store.guildsOf(me(ctx).id).map((guild) => ({ id: guild.id, name: guild.name, icon: guild.icon, owner: guild.owner_id === me(ctx).id, features: [] }))),
    },
    {
      method: 'GET',
      pattern: '/users/@me/channels',
      auth: 'user',
      handle: (ctx) => ok(store.dmChannels(me(ctx).id).map((channel) => store.toPlatformChannel(channel))),
    },
    {
      method: 'POST',
      pattern: '/users/@me/channels',
      auth: 'user',
      handle: (ctx) => {
        const { recipient_id: recipientId } = parseBody(OpenDmBody, ctx.body);
        const user = me(ctx);
        if (store.user(recipientId) === undefined || recipientId === user.id) throw unknownUser();
        const { channel, created } = store.openDm(user.id, recipientId);
        const view = store.toPlatformChannel(channel);
        if (created) {
          for (const id of [user.id, recipientId]) deps.dispatcher.dispatchToUser(id, GatewayEvent.ChannelCreate, view);
        }
        return ok(view);
      },
    },
    {
      method: 'GET',
      pattern: '/users/:id',
      auth: 'user',
      handle: (ctx) => {
        const user = store.user(ctx.params.id as string);
        if (user === undefined) throw unknownUser();
        return ok(toPlatformUser(user));
      },
    },
    {
      method: 'GET',
      pattern: '/guilds/:id',
      auth: 'user',
      bearerScopes: ['guilds'],
      handle: (ctx) => ok(store.toPlatformGuild(memberGuild(ctx))),
    },
    {
      method: 'GET',
      pattern: '/guilds/:id/channels',
      auth: 'user',
      bearerScopes: CHANNEL_SCOPES,
      handle: (ctx) => ok(store.guildChannels(memberGuild(ctx).id).map((channel) => store.toPlatformChannel(channel))),
    },
    {
      method: 'GET',
      pattern: '/channels/:id',
      auth: 'user',
      bearerScopes: CHANNEL_SCOPES,
      handle: (ctx) => {
        const channel = store.channel(ctx.params.id as string);
        if (channel === undefined) throw unknownChannel();
        const userId = me(ctx).id;
        const allowed = channel.guild_id !== undefined ? store.isMember(channel.guild_id, userId) : channel.recipient_ids?.includes(userId) === true;
        if (!allowed) throw missingAccess();
        return ok(store.toPlatformChannel(channel));
      },
    },
    {
      method: 'GET',
      pattern: '/channels/:id/messages',
      auth: 'user',
      handle: (ctx) => {
        const channel = dmOf(ctx, ctx.params.id as string);
        const raw = ctx.query.get('limit');
        const limit = raw === null ? 50 : Number(raw);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidField('limit', 'NUMBER_TYPE_MAX', 'limit must be 1-100');
        return ok(store.messages(channel.id, limit).map((message) => toPlatformMessage(store, message)));
      },
    },
    {
      method: 'POST',
      pattern: '/channels/:id/messages',
      auth: 'user',
      rateLimit: { bucket: 'channel-messages-create', limit: () => deps.limits.http.messageCreate, by: 'user' },
      handle: (ctx) => {
        const channel = dmOf(ctx, ctx.params.id as string);
        const body = parseBody(MessageBody, ctx.body);
        if ((body.content ?? '').length === 0 && body.activity === undefined) throw invalidField('content', 'BASE_TYPE_REQUIRED', 'Cannot send an empty message');
        try {
          return ok(postDmMessage(deps, me(ctx), channel, body));
        } catch (error) {
          if (error instanceof InviteError) throw inviteErrorToApi(error);
          throw error;
        }
      },
    },
    {
      method: 'POST',
      pattern: '/channels/:cid/messages/:mid/decline-activity-request',
      auth: 'user',
      handle: (ctx) => {
        const channel = dmOf(ctx, ctx.params.cid as string);
        try {
          declineDmRequest(deps, me(ctx), channel, ctx.params.mid as string);
        } catch (error) {
          if (error instanceof InviteError) throw inviteErrorToApi(error);
          throw error;
        }
        return noContent;
      },
    },
    {
      method: 'POST',
      pattern: '/users/:id/activities/:app/join',
      auth: 'user',
      handle: (ctx) => {
        const body = parseBody(JoinBody, ctx.body);
        try {
          const secret = deps.invites.join(me(ctx), ctx.params.id as string, ctx.params.app as string, body.message_id, body.session_id);
          return ok({ secret });
        } catch (error) {
          if (error instanceof InviteError) throw inviteErrorToApi(error);
          throw error;
        }
      },
    },
    { method: 'GET', pattern: '/oauth2/applications/:id/rpc', auth: 'none', handle: (ctx) => ok(rpcApp(ctx.params.id as string)) },
    {
      method: 'GET',
      pattern: '/oauth2/applications/:id/assets',
      auth: 'none',
      handle: (ctx) => {
        const app = deps.resolveApp(ctx.params.id as string);
        if (app === undefined) throw unknownApplication();
        return ok(app.assets);
      },
    },
  ];
}

