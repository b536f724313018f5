import * as v from 'valibot';
import { LobbyError } from '../lobbies/lobby-error.js';
import { InviteCodeError, type LobbyInvites } from '../lobbies/lobby-invites.js';
import type { LobbyService } from '../lobbies/lobby-service.js';
import type { AppRecord, ChannelRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { PlatformLimits } from '../support/limits.js';
import { MEMBER_PERMISSIONS, OWNER_PERMISSIONS } from '../users/user-guilds.js';
import type { LinkedChannel } from '../wire/lobbies.js';
import { me, ok, parseBody, refusalsAs } from './api-kit.js';
import { plainObject, Snowflake } from './body-schemas.js';
import { lobbyAnswer, lobbyOf, SOCIAL_SCOPES } from './api-lobby-routes.js';
import { invalidField, missingAccess, missingPermissions, unknownChannel, unknownInvite } from './errors.js';
import type { RequestContext, Route } from './router.js';
import { callerApplication } from '../access/caller.js';

const LinkBody = plainObject({ channel_id: v.optional(v.nullable(Snowflake)) });
const MANAGE_CHANNELS = 1n << 4n;
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const LINK_RIGHTS = MANAGE_CHANNELS | VIEW_CHANNEL | SEND_MESSAGES;

export interface LobbyLinkDeps {
  readonly limits: PlatformLimits;
  readonly store: Store;
  readonly lobbies: LobbyService;
  readonly invites: LobbyInvites;
  readonly now: () => number;
}

const inviteAnswer = refusalsAs(InviteCodeError, (error) => (error.reason === 'unknown' ? unknownInvite() : missingAccess()));

/**
 * A guild text channel the user may link, as the lobby shows it: the public docs' rules (a
 * text channel of a server, the user holding Manage Channels, View Channel and Send
 * Messages there). Emulator permissions: the owner holds all, members not Manage Channels.
 */
function linkableChannel(store: Store, userId: string, channelId: string): LinkedChannel {
  const channel: ChannelRecord | undefined = store.channel(channelId);
  if (channel === undefined) throw unknownChannel();
  if (channel.type !== 0 || channel.guild_id === undefined) throw invalidField('channel_id', 'CHANNEL_TYPE_INVALID', 'Only a text channel of a server can be linked');
  const guild = store.guild(channel.guild_id);
  if (guild === undefined || !store.isMember(guild.id, userId)) throw missingAccess();
  const permissions = guild.owner_id === userId ? OWNER_PERMISSIONS : MEMBER_PERMISSIONS;
  if ((permissions & LINK_RIGHTS) !== LINK_RIGHTS) throw missingPermissions();
  return { id: channel.id, type: 0, guild_id: guild.id, name: channel.name ?? '', position: channel.position ?? 0, parent_id: channel.parent_id ?? null };
}

/** The public invite object of a lobby channel invite. */
function inviteView(store: Store, code: string, channel: LinkedChannel, expiresAt: number): unknown {
  const guild = store.guild(channel.guild_id);
  return {
    type: 0,
    code,
    guild: { id: channel.guild_id, name: guild?.name ?? '', icon: guild?.icon ?? null },
    channel: { id: channel.id, name: channel.name, type: 0 },
    max_uses: 1,
    max_age: 3600,
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/**
 * Linked channels and lobby channel invites: `PATCH /lobbies/{id}/channel-linking` (a member
 * with CanLinkLobby, the game's Bearer token), the invites for self (Bearer) and for a member
 * (Bot), and the invite itself (`GET` and `POST /invites/{code}`, which joins its server).
 */
export function lobbyLinkRoutes(deps: LobbyLinkDeps): Route[] {
  const { store, lobbies, invites } = deps;
  // Linking and invites count in the player's lobby-join bucket; looking an invite up, per address **(ours)**.
  const joins = { bucket: 'lobby-join', limit: () => deps.limits.http.lobbyJoin, by: 'application-user' as const };
  const bearer = { auth: 'bearer' as const, bearerScopes: SOCIAL_SCOPES, rateLimit: joins };
  // For self (a member's token) or, by the game's server, for a member of its lobby.
  const mint = (ctx: RequestContext, userId: string | null, forUser: string): ReturnType<typeof ok> =>
    lobbyAnswer(() => {
      const lobbyId = lobbyOf(ctx);
      const channel = lobbies.linkedChannelFor(lobbyId, userId, (ctx.bot as AppRecord | undefined)?.id ?? '');
      if (userId === null && !lobbies.isMember(lobbyId, forUser)) throw new LobbyError('missing_access', 'The user is not a member of this lobby');
      return ok({ code: invites.create(channel, forUser, callerApplication(ctx.caller) ?? undefined).code });
    });
  return [
    {
      method: 'PATCH',
      pattern: '/lobbies/:id/channel-linking',
      access: { id: 'lobby' },
      ...bearer,
      handle: (ctx) => {
        const { channel_id: channelId } = parseBody(LinkBody, ctx.body ?? {});
        const channel = channelId === undefined || channelId === null ? null : linkableChannel(store, me(ctx).id, channelId);
        return lobbyAnswer(() => ok(lobbies.linkChannel(lobbyOf(ctx), me(ctx).id, channel)));
      },
    },
    { method: 'POST', pattern: '/lobbies/:id/members/@me/invites', access: { id: 'lobby' }, ...bearer, handle: (ctx) => mint(ctx, me(ctx).id, me(ctx).id) },
    {
      method: 'POST',
      pattern: '/lobbies/:id/members/:user/invites',
      access: { id: 'lobby', user: 'user' },
      auth: 'bot',
      handle: (ctx) => mint(ctx, null, ctx.params.user as string),
    },
    {
      method: 'GET',
      pattern: '/invites/:code',
      access: { code: 'invite' },
      auth: 'none',
      rateLimit: { bucket: 'invite-lookup', limit: () => deps.limits.http.partnerSdk, by: 'ip' },
      handle: (ctx) => {
        const invite = invites.peek(ctx.params.code as string);
        if (invite === undefined) throw unknownInvite();
        return ok(inviteView(store, ctx.params.code as string, invite.channel, invite.expiresAt));
      },
    },
    {
      method: 'POST',
      pattern: '/invites/:code',
      access: { code: 'invite' },
      auth: 'user',
      rateLimit: joins,
      bearerScopes: [...SOCIAL_SCOPES, 'guilds.join'],
      handle: (ctx) => {
        const code = ctx.params.code as string;
        const peeked = invites.peek(code);
        return inviteAnswer(() => {
          const channel = invites.redeem(code, me(ctx).id);
          store.addGuildMember(channel.guild_id, me(ctx).id);
          return ok(inviteView(store, code, channel, peeked?.expiresAt ?? deps.now()));
        });
      },
    },
  ];
}
