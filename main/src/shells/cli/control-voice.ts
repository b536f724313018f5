import { UsageError } from './cli-args.js';
import type { VoiceSettings } from '../../../../rpc/src/index.js';
import type { VoiceView } from '../../../../preload/src/contract.js';

/** The action's lines in `companion control --help`. */
export const VOICE_HELP = `  voice                       Your voice settings (what GET_VOICE_SETTINGS answers)
  voice set [--mute on|off] [--deaf on|off]
                              Change them; games subscribed to
                              VOICE_SETTINGS_UPDATE are told
  voice channel               The voice channel a game joined you to, who is
                              in it and who speaks (no sound: state only)
`;

/** The options `companion control` must accept for this action (util.parseArgs form). */
export const VOICE_OPTIONS = {
  mute: { type: 'string' },
  deaf: { type: 'string' },
} as const;

type Call = (method: string, route: string, body?: unknown) => Promise<unknown>;
type Values = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

function onOff(values: Values, name: 'mute' | 'deaf'): boolean | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError(`--${name}: on or off`);
  return value === 'on';
}

/** The PATCH body for `voice set`'s options. */
export function voicePatchFromOptions(values: Values): { mute?: boolean; deaf?: boolean } {
  const mute = onOff(values, 'mute');
  const deaf = onOff(values, 'deaf');
  if (mute === undefined && deaf === undefined) throw new UsageError("voice set needs --mute or --deaf (see 'companion control --help')");
  return { ...(mute === undefined ? {} : { mute }), ...(deaf === undefined ? {} : { deaf }) };
}

function describe(settings: VoiceSettings): string {
  const mode = settings.mode.type === 'PUSH_TO_TALK' ? 'push to talk' : `voice activity (${settings.mode.auto_threshold ? 'automatic' : `${settings.mode.threshold} dB`})`;
  return [
    `mute:   ${settings.mute ? 'on' : 'off'}`,
    `deaf:   ${settings.deaf ? 'on' : 'off'}`,
    `mode:   ${mode}`,
    `input:  ${settings.input.device_id}, volume ${settings.input.volume}`,
    `output: ${settings.output.device_id}, volume ${settings.output.volume}`,
    '',
  ].join('\n');
}

function describeChannel(view: VoiceView): string {
  if (view.channel === null) return "Not in a voice channel (a game joins one for you with SELECT_VOICE_CHANNEL).\n";
  const members = view.members.map((member) => {
    const flags = [member.me ? 'you' : '', member.speaking ? 'speaking' : '', member.self_deaf ? 'deafened' : member.self_mute ? 'muted' : ''].filter((flag) => flag !== '');
    return `  ${member.user.global_name ?? member.user.username}${flags.length === 0 ? '' : ` (${flags.join(', ')})`}`;
  });
  return [`${view.channel.name ?? view.channel.id} (channel ${view.channel.id}): ${view.connection}, state only, no sound`, ...members, ''].join('\n');
}

/** `companion control voice [set --mute on|off --deaf on|off | channel]`. */
export async function voiceAction(call: Call, args: readonly string[], values: Values, print: (value: unknown, text: () => string) => void): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) {
    const settings = (await call('GET', '/v1/voice/settings')) as VoiceSettings;
    print(settings, () => describe(settings));
    return 0;
  }
  if (sub === 'channel' && rest.length === 0) {
    const view = (await call('GET', '/v1/voice')) as VoiceView;
    print(view, () => describeChannel(view));
    return 0;
  }
  if (sub !== 'set' || rest.length > 0) throw new UsageError("control voice takes nothing, 'set' with --mute/--deaf, or 'channel' (see 'companion control --help')");
  const settings = (await call('PATCH', '/v1/voice/settings', voicePatchFromOptions(values))) as VoiceSettings;
  print(settings, () => describe(settings));
  return 0;
}
