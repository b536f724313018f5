import type { GuildRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { me, ok } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import { missingAccess, unknownChannel, unknownGuild } from './errors.js';
import type { RequestContext, Route } from './router.js';

/** Bearer tokens read channels with `guilds.channels.read`, `rpc`, or the Social SDK's umbrella (a game's `getGuildChannels`). */
const CHANNEL_SCOPES: readonly string[] = ['guilds.channels.read', 'rpc', 'sdk.social_layer'];

/** The guild of `:id`, when the user is a member. */
function memberGuild(store: Store, ctx: RequestContext): GuildRecord {
  const guild = store.guild(ctx.params.id as string);
  if (guild === undefined) throw unknownGuild();
  if (!store.isMember(guild.id, me(ctx).id)) throw missingAccess();
  return guild;
}

/** Guilds the user is in, their channels, and any channel the user may see. */
export function guildRoutes(deps: HttpDeps): Route[] {
  const { store } = deps;
  return [
    {
      method: 'GET',
      pattern: '/guilds/:id',
      auth: 'user',
      bearerScopes: ['guilds'],
      handle: (ctx) => ok(store.toPlatformGuild(memberGuild(store, ctx))),
    },
    {
      method: 'GET',
      pattern: '/guilds/:id/channels',
      auth: 'user',
      bearerScopes: CHANNEL_SCOPES,
      // A channel linked to a lobby names it (`linked_lobby`, the SDK's GuildChannel::LinkedLobby) **(ours: the field)**.
      handle: (ctx) =>
        ok(
          store.guildChannels(memberGuild(store, ctx).id).map((channel) => {
            const link = deps.lobbies.linkOf(channel.id);
            return { ...store.toPlatformChannel(channel), ...(link !== undefined ? { linked_lobby: { application_id: link.applicationId, lobby_id: link.lobbyId } } : {}) };
          }),
        ),
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
  ];
}
