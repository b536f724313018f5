import { UsageError, stringOption, type OptionValues } from './cli-args.js';
import { wavDurationMs } from './wav-duration.js';
import { wavCallSamples } from './wav-pcm.js';
import { pcmChunks } from '../../tools/audio/call-wav.js';

export const FRIEND_VOICE_HELP = `Usage: companion platform friend voice <action> --as NAME [--lobby ID] [options]

The simulated friend in a voice channel of a server (the emulator's seeded
'Voice' and 'Party', or any voice channel of their servers), or with
--lobby ID in that lobby's call (every action then names the lobby):

  join CHANNEL          Join the voice channel (its id or name)
  join --lobby ID       Join (or start) the lobby's call: the friend must be
                        a member of the lobby
  speak [--tone HZ] [--seconds N] | [--wav FILE]
                        Speak: a tone (440 Hz by default) for N seconds
                        (default 1), or as long as the WAV file plays
  quiet                 Stop speaking now
  mute | unmute         Self mute (a muted friend does not speak)
  deaf | undeaf         Self deafen
  leave                 Leave the voice channel

A server voice channel carries no audio in the emulator (the real platform's
audio goes through its voice servers): speaking there is the speaking state
your games see as SPEAKING_START and SPEAKING_STOP, for the tone's or the
file's length. The host's own voice connection is audio-less too.

A lobby call carries audio: the tone, or the WAV file's samples (16-bit PCM,
any rate and channels, mixed to mono and resampled to 48 kHz here; at most
60 s), play into the call as the friend's voice, and the other participants'
received-audio callbacks get it. Speaking again queues after what plays.
`;

export const FRIEND_VOICE_ACTIONS = ['join', 'speak', 'quiet', 'mute', 'unmute', 'deaf', 'undeaf', 'leave'] as const;
export type FriendVoiceAction = (typeof FRIEND_VOICE_ACTIONS)[number];

/** The options `friend voice` takes besides the common ones. */
export const FRIEND_VOICE_OPTIONS: readonly string[] = ['tone', 'seconds', 'wav', 'lobby'];
const SPEAK_OPTIONS: readonly string[] = ['tone', 'seconds', 'wav'];

const MAX_SECONDS = 600;

function number(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) throw new UsageError(`--${name} must be a number from ${min} to ${max}, got '${text}'`);
  return value;
}

function lobbyOption(values: OptionValues): string | undefined {
  const lobby = stringOption(values, 'lobby');
  if (lobby !== undefined && !/^[0-9]{1,20}$/.test(lobby)) throw new UsageError(`--lobby must be a lobby id (digits), got '${lobby}'`);
  return lobby;
}

/**
 * The admin bodies of `friend voice ACTION [ARG]`, sent in order: one, or for a WAV file in a
 * lobby call its samples in chunks (read, mixed and resampled here, on the caller's machine).
 * A WAV file in a server channel is read for its length only.
 */
export async function friendVoiceRequests(as: string, args: readonly string[], values: OptionValues): Promise<Record<string, unknown>[]> {
  const [action, ...rest] = args;
  if (action === undefined || !(FRIEND_VOICE_ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`platform friend voice needs an action: ${FRIEND_VOICE_ACTIONS.join(', ')} (see 'companion platform friend voice --help')`);
  }
  const lobby = lobbyOption(values);
  const takesChannel = action === 'join' && lobby === undefined;
  if (takesChannel && rest.length !== 1) throw new UsageError('platform friend voice join needs the voice channel (its id or name), or --lobby ID for a lobby call');
  if (!takesChannel && rest.length > 0) throw new UsageError(`platform friend voice ${action}${lobby === undefined ? '' : ' --lobby'} takes no further arguments, got '${rest.join(' ')}'`);
  const speakOptions = SPEAK_OPTIONS.filter((name) => values[name] !== undefined);
  if (action !== 'speak' && speakOptions.length > 0) throw new UsageError(`--${speakOptions[0]} is for 'platform friend voice speak'`);
  const where = lobby === undefined ? {} : { lobby_id: lobby };
  if (action === 'join') return [lobby === undefined ? { as, action, channel: rest[0] } : { as, action, ...where }];
  if (action !== 'speak') return [{ as, action, ...where }];
  const wav = stringOption(values, 'wav');
  if (wav !== undefined && (values['tone'] !== undefined || values['seconds'] !== undefined)) throw new UsageError('--wav plays the file: give it alone, or --tone/--seconds');
  const tone = number(values, 'tone', 20, 20_000);
  const seconds = number(values, 'seconds', 0.001, MAX_SECONDS) ?? 1;
  if (wav !== undefined && lobby !== undefined) return pcmRequests(as, lobby, await wavCallSamples(wav));
  const durationMs = wav === undefined ? Math.round(seconds * 1000) : await wavDurationMs(wav);
  if (durationMs > MAX_SECONDS * 1000) throw new UsageError(`--wav: ${wav ?? ''} plays longer than ${MAX_SECONDS} s`);
  return [{ as, action, ...where, duration_ms: durationMs, ...(tone === undefined || lobby === undefined ? {} : { frequency_hz: tone }) }];
}

/** `speak` bodies carrying the samples in chunks, base64 of 16-bit little-endian PCM. */
function pcmRequests(as: string, lobby: string, samples: Int16Array): Record<string, unknown>[] {
  return pcmChunks(samples).map((pcm) => ({ as, action: 'speak', lobby_id: lobby, pcm }));
}

/** One line for a person: what the friend's voice is now (in a server channel, or in a lobby call). */
export function describeFriendVoice(as: string, result: unknown): string {
  if (typeof result === 'object' && result !== null && 'lobby_id' in result) return describeFriendCall(as, result);
  const outcome = result as { voice_state: { channel_id: string | null; self_mute: boolean; self_deaf: boolean } | null; speaking: boolean; speaking_until?: number };
  const state = outcome.voice_state;
  if (state === null || state.channel_id === null) return `${as} is not in a voice channel`;
  const flags = [state.self_mute ? 'muted' : '', state.self_deaf ? 'deafened' : ''].filter((flag) => flag !== '');
  const speaking = outcome.speaking ? `speaking${outcome.speaking_until === undefined ? '' : ` for ${Math.max(0, Math.round((outcome.speaking_until - Date.now()) / 100) / 10)} s`}` : 'not speaking';
  return `${as} is in voice channel ${state.channel_id}${flags.length === 0 ? '' : ` (${flags.join(', ')})`}, ${speaking}`;
}

function speakingText(outcome: { speaking: boolean; speaking_until?: number }): string {
  if (!outcome.speaking) return 'not speaking';
  return `speaking${outcome.speaking_until === undefined ? '' : ` for ${Math.max(0, Math.round((outcome.speaking_until - Date.now()) / 100) / 10)} s`}`;
}

function describeFriendCall(as: string, result: object): string {
  const outcome = result as { lobby_id: string; voice_state: { self_mute: boolean; self_deaf: boolean } | null; speaking: boolean; speaking_until?: number };
  const state = outcome.voice_state;
  if (state === null) return `${as} is not in lobby ${outcome.lobby_id}'s call`;
  const flags = [state.self_mute ? 'muted' : '', state.self_deaf ? 'deafened' : ''].filter((flag) => flag !== '');
  return `${as} is in lobby ${outcome.lobby_id}'s call${flags.length === 0 ? '' : ` (${flags.join(', ')})`}, ${speakingText(outcome)}`;
}
