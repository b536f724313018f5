import { callerApplication } from '../access/caller.js';
import type { ChannelRecord, GuildRecord } from '../state/model.js';
import { ok } from './api-kit.js';
import type { HttpDeps } from './deps.js';
import type { RequestContext, Route } from './router.js';

/** Bearer tokens read channels with `guilds.channels.read`, `rpc`, or the Social SDK's umbrella (a game's `getGuildChannels`). */
const CHANNEL_SCOPES: readonly string[] = ['guilds.channels.read', 'rpc', 'sdk.social_layer'];

/** The route's guild, as the access policy resolved it (one the user is a member of). */
function guildOf(ctx: RequestContext): GuildRecord {
  const guild = ctx.resolved.guild;
  if (guild === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no guild`);
  return guild;
}

/** The route's channel, as the access policy resolved it (a guild channel of the user's, or their DM). */
function channelOf(ctx: RequestContext): ChannelRecord {
  const channel = ctx.resolved.channel;
  if (channel === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no channel`);
  return channel;
}

/** Guilds the user is in, their channels, and any channel the user may see. */
export function guildRoutes(deps: HttpDeps): Route[] {
  const { store } = deps;
  return [
    {
      method: 'GET',
      pattern: '/guilds/:id',
      access: { id: 'guild' },
      auth: 'user',
      bearerScopes: ['guilds'],
      handle: (ctx) => ok(store.toPlatformGuild(guildOf(ctx))),
    },
    {
      method: 'GET',
      pattern: '/guilds/:id/channels',
      access: { id: 'guild' },
      auth: 'user',
      bearerScopes: CHANNEL_SCOPES,
      // A channel linked to a lobby names it (`linked_lobby`, the SDK's GuildChannel::LinkedLobby) **(ours: the field)**;
      // a game's token sees only its own application's links, the player's own client every one.
      handle: (ctx) =>
        ok(
          store.guildChannels(guildOf(ctx).id).map((channel) => {
            const link = deps.lobbies.linkOf(channel.id, callerApplication(ctx.caller) ?? undefined);
            const shown = link !== undefined && deps.policy.seesLobbyOf(ctx.caller, link.applicationId);
            return { ...store.toPlatformChannel(channel), ...(shown ? { linked_lobby: { application_id: link.applicationId, lobby_id: link.lobbyId } } : {}) };
          }),
        ),
    },
    {
      method: 'GET',
      pattern: '/channels/:id',
      access: { id: 'channel' },
      auth: 'user',
      bearerScopes: CHANNEL_SCOPES,
      handle: (ctx) => ok(store.toPlatformChannel(channelOf(ctx))),
    },
  ];
}
