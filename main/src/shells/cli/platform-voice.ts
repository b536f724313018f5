import type { VoiceState } from '../../../../platform/src/wire/index.js';
import { parseCommandArgs, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { call, findTarget, PlatformAdminError } from './platform.js';

export const VOICE_HELP = `Usage: companion platform voice [list] [options]

Who is connected to the emulator's server voice channels (voice states), for QA.

Options:
  --guild ID        Only that guild's voice states
  --channel ID      Only that voice channel's
  --data DIR        Where to read the running emulator's admin token (platform.json)
  --platform URL    The emulator's URL (default: the one in platform.json)
  --json            Print the emulator's JSON
  -h, --help        Show this help
`;

function stateLine(state: VoiceState & { readonly speaking?: boolean }): string {
  const flags = [state.self_mute ? 'muted' : '', state.self_deaf ? 'deafened' : '', state.speaking === true ? 'speaking' : ''].filter((flag) => flag !== '').join(', ');
  const name = state.member?.user.username ?? state.user_id;
  return `guild ${state.guild_id}  channel ${state.channel_id ?? '-'}  ${name} (${state.user_id})${flags === '' ? '' : ` ${flags}`}\n`;
}

export async function voiceCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('platform voice', argv, { data: { type: 'string' }, platform: { type: 'string' }, json: { type: 'boolean' }, guild: { type: 'string' }, channel: { type: 'string' } }, true);
  if (parsed.help) {
    io.stdout(VOICE_HELP);
    return 0;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1 || (positionals[0] ?? 'list') !== 'list') throw new UsageError('usage: companion platform voice [list] [--guild ID] [--channel ID]');
  const query = new URLSearchParams();
  if (typeof values.guild === 'string') query.set('guild_id', values.guild);
  if (typeof values.channel === 'string') query.set('channel_id', values.channel);
  return (
    (await reportExpected('platform voice', io, [PlatformAdminError], async () => {
      const target = await findTarget(values.data as string | undefined, values.platform as string | undefined, io);
      const states = await call<VoiceState[]>(target, 'GET', `/_emulator/voice-states${query.size > 0 ? `?${query.toString()}` : ''}`);
      io.stdout(values.json === true ? `${JSON.stringify(states)}\n` : states.length === 0 ? 'Nobody is in a voice channel.\n' : states.map(stateLine).join(''));
      return 0;
    })) ?? 1
  );
}
