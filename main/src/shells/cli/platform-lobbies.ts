import type { Lobby, LobbyMessage } from '../../../../platform/src/wire/index.js';
import { parseCommandArgs, reportExpected, UsageError, type CommandIo } from './cli-args.js';
import { call, findTarget, PlatformAdminError } from './platform.js';

export const LOBBIES_HELP = `Usage: companion platform lobbies [list | messages LOBBY_ID] [options]

The emulator's lobbies (the Social SDK's and the game servers'), for QA.

Actions:
  list (default)          Every lobby: its id, application, members (connected or
                          not) and metadata
  messages LOBBY_ID       Its messages, newest first (--limit 1-200, default 50)

Options:
  --limit N         How many messages (messages only)
  --data DIR        Where to read the running emulator's admin token (platform.json)
  --platform URL    The emulator's URL (default: the one in platform.json)
  --json            Print the emulator's JSON
  -h, --help        Show this help
`;

function lobbyLine(lobby: Lobby): string {
  const members = lobby.members.map((member) => `${member.id}${member.connected ? '' : ' (away)'}`).join(', ');
  const metadata = lobby.metadata === null ? '' : ` ${JSON.stringify(lobby.metadata)}`;
  return `${lobby.id}  app ${lobby.application_id}  ${lobby.members.length} member${lobby.members.length === 1 ? '' : 's'}: ${members}${metadata}\n`;
}

function messageLine(message: LobbyMessage): string {
  return `${message.timestamp}  ${message.author.username} (${message.author.id}): ${message.content}\n`;
}

function limitOf(raw: unknown): number {
  if (raw === undefined) return 50;
  const limit = Number(raw);
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw) || limit < 1 || limit > 200) throw new UsageError(`--limit must be a number from 1 to 200, got '${String(raw)}'`);
  return limit;
}

export async function lobbiesCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('platform lobbies', argv, { data: { type: 'string' }, platform: { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' } }, true);
  if (parsed.help) {
    io.stdout(LOBBIES_HELP);
    return 0;
  }
  const { values, positionals } = parsed;
  const [action = 'list', ...args] = positionals;
  const json = values.json === true;
  if (action !== 'list' && action !== 'messages') throw new UsageError(`unknown action '${action}' for 'platform lobbies' (see 'companion platform lobbies --help')`);
  if (action === 'list' && (args.length > 0 || values.limit !== undefined)) throw new UsageError('usage: companion platform lobbies list');
  if (action === 'messages' && args.length !== 1) throw new UsageError('usage: companion platform lobbies messages LOBBY_ID [--limit N]');
  const limit = action === 'messages' ? limitOf(values.limit) : 0;
  return (
    (await reportExpected('platform lobbies', io, [PlatformAdminError], async () => {
      const target = await findTarget(values.data as string | undefined, values.platform as string | undefined, io);
      if (action === 'list') {
        const lobbies = await call<Lobby[]>(target, 'GET', '/_emulator/lobbies');
        io.stdout(json ? `${JSON.stringify(lobbies)}\n` : lobbies.length === 0 ? 'No lobbies.\n' : lobbies.map(lobbyLine).join(''));
        return 0;
      }
      const messages = await call<LobbyMessage[]>(target, 'GET', `/_emulator/lobbies/${encodeURIComponent(args[0] as string)}/messages?limit=${limit}`);
      io.stdout(json ? `${JSON.stringify(messages)}\n` : messages.length === 0 ? 'No messages.\n' : messages.map(messageLine).join(''));
      return 0;
    })) ?? 1
  );
}
