import * as v from 'valibot';
import type { CallService } from '../calls/call-service.js';
import type { VoiceServer } from '../calls/voice-server.js';
import type { FriendCall } from '../simulation/friend-call.js';
import type { Store } from '../state/store.js';
import { me, noContent, ok, parseBody } from './api-kit.js';
import { lobbyAnswer, lobbyOf, SOCIAL_SCOPES } from './api-lobby-routes.js';
import { plainObject, Snowflake } from './body-schemas.js';
import { ApiError, invalidField } from './errors.js';
import type { Route } from './router.js';

const VoiceStateBody = plainObject({ self_mute: v.optional(v.boolean()), self_deaf: v.optional(v.boolean()) });
const FriendToneBody = plainObject({
  as: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  lobby_id: Snowflake,
  frequency_hz: v.optional(v.pipe(v.number(), v.minValue(20), v.maxValue(20_000))),
  duration_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(20), v.maxValue(60_000))),
});

const notInCall = (): ApiError => new ApiError(404, 10065, 'Unknown Voice State');

export interface CallRouteDeps {
  readonly calls: CallService;
  readonly voice: VoiceServer;
  /** `ws://127.0.0.1:PORT/voice`: the voice server a join answers. */
  readonly voiceEndpoint: () => string;
}

/**
 * Lobby calls for a game's Bearer token **(ours: the real platform signals calls over the
 * gateway's op 4 and its voice gateway)**: join (or start) the lobby's call, change one's voice
 * state, leave, read the call. The lobby must be one of the token's application (another's is
 * 404 Unknown Lobby) and the user a member (50001 Missing Access).
 */
export function callRoutes(deps: CallRouteDeps): Route[] {
  const { calls, voice } = deps;
  const bearer = { auth: 'bearer' as const, bearerScopes: SOCIAL_SCOPES, access: { id: 'lobby' } as const };
  return [
    {
      method: 'POST',
      pattern: '/lobbies/:id/call',
      ...bearer,
      handle: (ctx) =>
        lobbyAnswer(() => {
          const lobbyId = lobbyOf(ctx);
          const { call, token } = calls.join(lobbyId, me(ctx).id, parseBody(VoiceStateBody, ctx.body));
          voice.expect(lobbyId, me(ctx).id);
          return ok({ call, voice: { endpoint: deps.voiceEndpoint(), token } });
        }),
    },
    {
      method: 'GET',
      pattern: '/lobbies/:id/call',
      ...bearer,
      handle: (ctx) =>
        lobbyAnswer(() => {
          const call = calls.call(lobbyOf(ctx));
          if (call === undefined) throw notInCall();
          return ok(call);
        }),
    },
    {
      method: 'PATCH',
      pattern: '/lobbies/:id/call/voice-states/@me',
      ...bearer,
      handle: (ctx) => lobbyAnswer(() => ok(calls.update(lobbyOf(ctx), me(ctx).id, parseBody(VoiceStateBody, ctx.body)))),
    },
    { method: 'DELETE', pattern: '/lobbies/:id/call/voice-states/@me', ...bearer, handle: (ctx) => lobbyAnswer(() => (calls.leave(lobbyOf(ctx), me(ctx).id), noContent)) },
  ];
}

/**
 * `GET /_emulator/calls` (every lobby call, its participants' voice states and whether each has
 * a voice connection), `POST /_emulator/calls/{lobby}/participants/{user}/drop` (the voice
 * connection ends as on a network loss: the SDK reconnects) and `POST /_emulator/simulate/friend/call/tone`.
 */
export function callAdminRoutes(deps: { readonly calls: CallService; readonly voice: VoiceServer; readonly friend: FriendCall; readonly store: Store }): Route[] {
  const { calls, voice, friend, store } = deps;
  return [
    {
      method: 'GET',
      pattern: '/_emulator/calls',
      auth: 'admin',
      handle: (ctx) =>
        ok(
          calls.list(ctx.query.get('application_id') ?? undefined).map((call) => ({
            ...call,
            participants: call.participants.map((participant) => ({ ...participant, connected: voice.connected(call.lobby_id, participant.user_id) })),
          })),
        ),
    },
    {
      method: 'POST',
      pattern: '/_emulator/calls/:lobby/participants/:user/drop',
      auth: 'admin',
      handle: (ctx) => {
        if (!voice.dropConnection(ctx.params.lobby ?? '', ctx.params.user ?? '')) throw notInCall();
        return noContent;
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/simulate/friend/call/tone',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(FriendToneBody, ctx.body);
        const user = store.userByName(body.as) ?? store.user(body.as);
        if (user === undefined) throw invalidField('as', 'UNKNOWN_USER', `no user '${body.as}'`);
        lobbyAnswer(() => friend.join(user.id, body.lobby_id));
        void friend.playTone(user.id, body.lobby_id, { ...(body.frequency_hz === undefined ? {} : { frequencyHz: body.frequency_hz }), ...(body.duration_ms === undefined ? {} : { durationMs: body.duration_ms }) });
        return ok({ lobby_id: body.lobby_id, user_id: user.id, playing: true }, 202);
      },
    },
  ];
}
