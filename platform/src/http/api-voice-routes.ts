import * as v from 'valibot';
import type { ChannelRecord, GuildRecord } from '../state/model.js';
import type { Store } from '../state/store.js';
import { guildPermissions } from '../users/user-guilds.js';
import type { VoiceService } from '../voice/voice-service.js';
import { me, noContent, ok, parseBody } from './api-kit.js';
import { ApiError, missingPermissions } from './errors.js';
import type { RequestContext, Route } from './router.js';

const MANAGE_CHANNELS = 1n << 4n;
const SET_VOICE_CHANNEL_STATUS = 1n << 48n;
const MAX_STATUS_LENGTH = 500;

/** Bearer tokens read voice states with the scopes that read channels (as `GET /guilds/{id}/channels`) **(ours)**. */
const VOICE_READ_SCOPES: readonly string[] = ['guilds.channels.read', 'rpc', 'sdk.social_layer'];

const VoiceStatusBody = v.object({
  status: v.nullish(v.pipe(v.string(), v.maxLength(MAX_STATUS_LENGTH, `Must be ${MAX_STATUS_LENGTH} or fewer in length.`))),
});

const unknownVoiceState = (): ApiError => new ApiError(404, 10065, 'Unknown Voice State');
const wrongChannelType = (): ApiError => new ApiError(400, 50024, 'Cannot execute action on this channel type');

function resolvedGuild(ctx: RequestContext): GuildRecord {
  const guild = ctx.resolved.guild;
  if (guild === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no guild`);
  return guild;
}

function resolvedChannel(ctx: RequestContext): ChannelRecord {
  const channel = ctx.resolved.channel;
  if (channel === undefined) throw new Error(`${ctx.method} ${ctx.path}: the route resolves no channel`);
  return channel;
}

/** The user's voice state in the guild, or 404 10065 (also for a user who is not a member). */
function voiceStateOf(voice: VoiceService, guildId: string, userId: string): RouteResultBody {
  const state = voice.stateOf(guildId, userId);
  if (state === undefined) throw unknownVoiceState();
  return state;
}

type RouteResultBody = NonNullable<ReturnType<VoiceService['stateOf']>>;

/**
 * `PUT /channels/{id}/voice-status`: a voice channel of a server; SET_VOICE_CHANNEL_STATUS, and
 * MANAGE_CHANNELS too when the user is not connected to that channel. Empty or null clears it.
 */
function setVoiceStatus(store: Store, voice: VoiceService, ctx: RequestContext): void {
  const channel = resolvedChannel(ctx);
  const guild = channel.guild_id === undefined ? undefined : store.guild(channel.guild_id);
  if (guild === undefined || channel.type !== 2) throw wrongChannelType();
  const { status } = parseBody(VoiceStatusBody, ctx.body);
  const userId = me(ctx).id;
  const permissions = guildPermissions(guild, userId);
  const needed = voice.connectedTo(userId, channel.id) ? SET_VOICE_CHANNEL_STATUS : SET_VOICE_CHANNEL_STATUS | MANAGE_CHANNELS;
  if ((permissions & needed) !== needed) throw missingPermissions();
  voice.setStatus(channel, status === undefined || status === null || status === '' ? null : status);
}

/** Voice states of servers (Get Current User / Get User Voice State) and a voice channel's status. */
export function voiceRoutes(deps: { readonly store: Store; readonly voice: VoiceService }): Route[] {
  const { store, voice } = deps;
  return [
    {
      method: 'GET',
      pattern: '/guilds/:id/voice-states/@me',
      access: { id: 'guild' },
      auth: 'user',
      bearerScopes: VOICE_READ_SCOPES,
      handle: (ctx) => ok(voiceStateOf(voice, resolvedGuild(ctx).id, me(ctx).id)),
    },
    {
      method: 'GET',
      pattern: '/guilds/:id/voice-states/:user_id',
      access: { id: 'guild', user_id: 'user' },
      auth: 'user',
      bearerScopes: VOICE_READ_SCOPES,
      handle: (ctx) => ok(voiceStateOf(voice, resolvedGuild(ctx).id, ctx.params.user_id ?? '')),
    },
    {
      method: 'PUT',
      pattern: '/channels/:id/voice-status',
      access: { id: 'channel' },
      auth: 'user',
      handle: (ctx) => {
        setVoiceStatus(store, voice, ctx);
        return noContent;
      },
    },
  ];
}

/** `GET /_emulator/voice-states?guild_id=&channel_id=`: who is connected where, for QA. */
export function voiceAdminRoutes(voice: VoiceService): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/_emulator/voice-states',
      auth: 'admin',
      handle: (ctx) => {
        const guildId = ctx.query.get('guild_id') ?? undefined;
        const channelId = ctx.query.get('channel_id') ?? undefined;
        return ok(voice.list({ ...(guildId !== undefined ? { guildId } : {}), ...(channelId !== undefined ? { channelId } : {}) }));
      },
    },
  ];
}
