import { UsageError, stringOption, type OptionValues } from './cli-args.js';
import { wavDurationMs } from './wav-duration.js';

export const FRIEND_VOICE_HELP = `Usage: companion platform friend voice <action> --as NAME [options]

The simulated friend in a voice channel of a server (the emulator's seeded
'Voice' and 'Party', or any voice channel of their servers):

  join CHANNEL          Join the voice channel (its id or name)
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
`;

export const FRIEND_VOICE_ACTIONS = ['join', 'speak', 'quiet', 'mute', 'unmute', 'deaf', 'undeaf', 'leave'] as const;
export type FriendVoiceAction = (typeof FRIEND_VOICE_ACTIONS)[number];

/** The options `friend voice` takes besides the common ones. */
export const FRIEND_VOICE_OPTIONS: readonly string[] = ['tone', 'seconds', 'wav'];

const MAX_SECONDS = 600;

function number(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) throw new UsageError(`--${name} must be a number from ${min} to ${max}, got '${text}'`);
  return value;
}

/** The admin body of `friend voice ACTION [ARG]` (a WAV file is read for its length here, on the caller's machine). */
export async function friendVoiceBody(as: string, args: readonly string[], values: OptionValues): Promise<Record<string, unknown>> {
  const [action, ...rest] = args;
  if (action === undefined || !(FRIEND_VOICE_ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`platform friend voice needs an action: ${FRIEND_VOICE_ACTIONS.join(', ')} (see 'companion platform friend voice --help')`);
  }
  const takesChannel = action === 'join';
  if (takesChannel && rest.length !== 1) throw new UsageError('platform friend voice join needs the voice channel (its id or name)');
  if (!takesChannel && rest.length > 0) throw new UsageError(`platform friend voice ${action} takes no further arguments, got '${rest.join(' ')}'`);
  const speakOptions = FRIEND_VOICE_OPTIONS.filter((name) => values[name] !== undefined);
  if (action !== 'speak' && speakOptions.length > 0) throw new UsageError(`--${speakOptions[0]} is for 'platform friend voice speak'`);
  if (action === 'join') return { as, action, channel: rest[0] };
  if (action !== 'speak') return { as, action };
  const wav = stringOption(values, 'wav');
  if (wav !== undefined && (values['tone'] !== undefined || values['seconds'] !== undefined)) throw new UsageError('--wav plays the file: give it alone, or --tone/--seconds');
  number(values, 'tone', 20, 20_000);
  const seconds = number(values, 'seconds', 0.001, MAX_SECONDS) ?? 1;
  const durationMs = wav === undefined ? Math.round(seconds * 1000) : await wavDurationMs(wav);
  if (durationMs > MAX_SECONDS * 1000) throw new UsageError(`--wav: ${wav ?? ''} plays longer than ${MAX_SECONDS} s`);
  return { as, action, duration_ms: durationMs };
}

/** One line for a person: what the friend's voice is now. */
export function describeFriendVoice(as: string, result: unknown): string {
  const outcome = result as { voice_state: { channel_id: string | null; self_mute: boolean; self_deaf: boolean } | null; speaking: boolean; speaking_until?: number };
  const state = outcome.voice_state;
  if (state === null || state.channel_id === null) return `${as} is not in a voice channel`;
  const flags = [state.self_mute ? 'muted' : '', state.self_deaf ? 'deafened' : ''].filter((flag) => flag !== '');
  const speaking = outcome.speaking ? `speaking${outcome.speaking_until === undefined ? '' : ` for ${Math.max(0, Math.round((outcome.speaking_until - Date.now()) / 100) / 10)} s`}` : 'not speaking';
  return `${as} is in voice channel ${state.channel_id}${flags.length === 0 ? '' : ` (${flags.join(', ')})`}, ${speaking}`;
}
