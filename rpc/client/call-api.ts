import * as v from 'valibot';
import { answerOf, bearerCall, type BearerCallOptions } from './platform-request.js';

const JoinAnswer = v.object({
  call: v.object({ lobby_id: v.string() }),
  voice: v.object({ endpoint: v.pipe(v.string(), v.regex(/^wss?:\/\//)), token: v.pipe(v.string(), v.minLength(1)) }),
});

const seg = encodeURIComponent;

/**
 * The lobby-call routes of the emulator **(ours: platform/README.md, "Calls in lobbies")** with
 * the game's Bearer token: join (or start) a lobby's call, change the player's voice state, leave.
 */
export async function joinCall(options: BearerCallOptions, lobbyId: string, selfMute: boolean, selfDeaf: boolean): Promise<{ endpoint: string; token: string }> {
  const answer = answerOf(JoinAnswer, await bearerCall(options, 'POST', `/lobbies/${seg(lobbyId)}/call`, { self_mute: selfMute, self_deaf: selfDeaf }), 'call join');
  return answer.voice;
}

export async function updateCallVoiceState(options: BearerCallOptions, lobbyId: string, selfMute: boolean, selfDeaf: boolean): Promise<void> {
  await bearerCall(options, 'PATCH', `/lobbies/${seg(lobbyId)}/call/voice-states/@me`, { self_mute: selfMute, self_deaf: selfDeaf });
}

export async function leaveCall(options: BearerCallOptions, lobbyId: string): Promise<void> {
  await bearerCall(options, 'DELETE', `/lobbies/${seg(lobbyId)}/call/voice-states/@me`);
}
