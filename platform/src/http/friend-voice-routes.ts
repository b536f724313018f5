import * as v from 'valibot';
import type { FriendCallVoice } from '../simulation/friend-call-voice.js';
import { FRIEND_SPEAK_MAX_MS, type FriendVoice } from '../simulation/friend-voice.js';
import { parseBody } from './api-kit.js';
import { lobbyAnswer } from './api-lobby-routes.js';
import { plainObject, Snowflake } from './body-schemas.js';
import { LobbyError } from '../lobbies/lobby-error.js';
import { ApiError, ErrorCode, invalidField } from './errors.js';
import type { Route } from './router.js';

/** The most PCM one request carries: 36,000 bytes (0.375 s at 48 kHz), 48,000 characters of base64, under the 64 kB body limit **(ours)**. */
export const FRIEND_PCM_CHUNK_BYTES = 36_000;

const FriendVoiceBody = plainObject({
  as: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  action: v.picklist(['join', 'speak', 'quiet', 'mute', 'unmute', 'deaf', 'undeaf', 'leave']),
  channel: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  lobby_id: v.optional(Snowflake),
  frequency_hz: v.optional(v.pipe(v.number(), v.minValue(20), v.maxValue(20_000))),
  duration_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(FRIEND_SPEAK_MAX_MS))),
  pcm: v.optional(v.pipe(v.string(), v.maxLength((FRIEND_PCM_CHUNK_BYTES / 3) * 4), v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'))),
});
type FriendVoiceInput = v.InferOutput<typeof FriendVoiceBody>;

/** 16-bit samples of the base64 `pcm` (little-endian, 48 kHz mono). */
function samplesOf(pcm: string): Int16Array {
  const bytes = Buffer.from(pcm, 'base64');
  if (bytes.length === 0 || bytes.length % 2 !== 0) throw invalidField('pcm', 'BASE_TYPE_BAD_LENGTH', 'pcm must hold 16-bit samples (an even, non-zero number of bytes)');
  const samples = new Int16Array(bytes.length / 2);
  for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

function callAct(friendCall: FriendCallVoice, body: FriendVoiceInput & { readonly lobby_id: string }): unknown {
  if (body.channel !== undefined) throw invalidField('channel', 'BASE_TYPE_CONFLICT', 'give channel (a server voice channel) or lobby_id (a lobby call), not both');
  if (body.pcm !== undefined && body.action !== 'speak') throw invalidField('pcm', 'BASE_TYPE_CONFLICT', "pcm is for action 'speak'");
  const request = {
    as: body.as,
    action: body.action,
    lobbyId: body.lobby_id,
    ...(body.frequency_hz === undefined ? {} : { frequencyHz: body.frequency_hz }),
    ...(body.duration_ms === undefined ? {} : { durationMs: body.duration_ms }),
    ...(body.pcm === undefined ? {} : { pcm: samplesOf(body.pcm) }),
  };
  const act = (): unknown => {
    try {
      return friendCall.act(request);
    } catch (error) {
      // 403 50001 with the message naming the friend and the lobby (the game's route says only "Missing Access").
      if (error instanceof LobbyError && error.reason === 'missing_access') throw new ApiError(403, ErrorCode.MissingAccess, error.message);
      throw error;
    }
  };
  return lobbyAnswer(act);
}

/**
 * `POST /_emulator/simulated-friend/voice` `{as, action, channel? | lobby_id?, frequency_hz?,
 * duration_ms?, pcm?}` **(ours)**: the simulated friend joins a server voice channel or a lobby's
 * call, speaks (a tone, or in a call base64 PCM queued after what plays), goes quiet, mutes,
 * unmutes, deafens, undeafens or leaves; answers their voice state and whether they speak.
 */
export function friendVoiceRoutes(friendVoice: FriendVoice, friendCall: FriendCallVoice): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/_emulator/simulated-friend/voice',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(FriendVoiceBody, ctx.body);
        if (body.lobby_id !== undefined) return { status: 200, body: callAct(friendCall, { ...body, lobby_id: body.lobby_id }) };
        if (body.pcm !== undefined) throw invalidField('pcm', 'BASE_TYPE_CONFLICT', 'pcm plays into a lobby call (lobby_id): a server voice channel carries no audio');
        const outcome = friendVoice.act({
          as: body.as,
          action: body.action,
          ...(body.channel === undefined ? {} : { channel: body.channel }),
          ...(body.duration_ms === undefined ? {} : { durationMs: body.duration_ms }),
        });
        return { status: 200, body: outcome };
      },
    },
  ];
}
