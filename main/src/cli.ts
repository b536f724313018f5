import { UsageError, type CommandIo } from './shells/cli/cli-args.js';
import { readVersion } from './base/version.js';

export const MAIN_HELP = `Usage: companion <command> [options]

Companion is a desktop companion app that games talk to over local RPC
(the discord-ipc protocol that rich presence libraries speak).

Commands:
  serve        Start the host: the RPC server games connect to
  control      Talk to a running host: friends, joins, invites, account
  ui           Print a link that opens the running host's UI (once); --open opens it
  platform     Run the platform emulator standalone, or administer one
  doctor       Explain why a game does not reach Companion, or check an activity
  install-sockets, uninstall-sockets
               Add or remove systemd user units that hold the sockets
               before Companion runs (Linux)
  inject       Inject events and faults into a running host (QA)
  game         A fake game that prints every event it receives (QA)
  record       Show a recording made with 'serve --record FILE' as a timeline
  replay       Play a recording's game side against a running host and diff the replies
  scenario     Run scripted QA flows (YAML or JSON scenarios) and report per step
  help [CMD]   Show help for a command

Options:
  -h, --help   Show help
  --version    Show the version

Run 'companion <command> --help' for a command's options.
`;

interface Command {
  run(argv: readonly string[], io: CommandIo): Promise<number>;
  help(): Promise<string>;
}

/**
 * Each command's module is loaded only when that command runs: `serve` must not pay for the
 * platform emulator's code unless it embeds it, nor `control` for the host's.
 */
const COMMANDS: Record<string, Command> = {
  serve: {
    run: async (argv, io) => (await import('./shells/cli/serve.js')).serveCommand(argv, io),
    help: async () => (await import('./shells/cli/serve.js')).SERVE_HELP,
  },
  control: {
    run: async (argv, io) => (await import('./shells/cli/control.js')).controlCommand(argv, io),
    help: async () => (await import('./shells/cli/control.js')).CONTROL_HELP,
  },
  ui: {
    run: async (argv, io) => (await import('./shells/cli/ui.js')).uiCommand(argv, io),
    help: async () => (await import('./shells/cli/ui.js')).UI_HELP,
  },
  platform: {
    run: async (argv, io) => (await import('./shells/cli/platform.js')).platformCommand(argv, io),
    help: async () => (await import('./shells/cli/platform.js')).PLATFORM_HELP,
  },
  doctor: {
    run: async (argv, io) => (await import('./shells/cli/doctor.js')).doctorCommand(argv, io),
    help: async () => (await import('./shells/cli/doctor.js')).DOCTOR_HELP,
  },
  'install-sockets': {
    run: async (argv, io) => (await import('./shells/cli/sockets.js')).installSocketsCommand(argv, io),
    help: async () => (await import('./shells/cli/sockets.js')).INSTALL_SOCKETS_HELP,
  },
  'uninstall-sockets': {
    run: async (argv, io) => (await import('./shells/cli/sockets.js')).uninstallSocketsCommand(argv, io),
    help: async () => (await import('./shells/cli/sockets.js')).UNINSTALL_SOCKETS_HELP,
  },
  inject: {
    run: async (argv, io) => (await import('./shells/cli/inject.js')).injectCommand(argv, io),
    help: async () => (await import('./shells/cli/inject.js')).INJECT_HELP,
  },
  game: {
    run: async (argv, io) => (await import('./shells/cli/game.js')).gameCommand(argv, io),
    help: async () => (await import('./shells/cli/game.js')).GAME_HELP,
  },
  record: {
    run: async (argv, io) => (await import('./shells/cli/record.js')).recordCommand(argv, io),
    help: async () => (await import('./shells/cli/record.js')).RECORD_HELP,
  },
  replay: {
    run: async (argv, io) => (await import('./shells/cli/replay.js')).replayCommand(argv, io),
    help: async () => (await import('./shells/cli/replay.js')).REPLAY_HELP,
  },
  scenario: {
    run: async (argv, io) => (await import('./shells/cli/scenario.js')).scenarioCommand(argv, io),
    help: async () => (await import('./shells/cli/scenario.js')).SCENARIO_HELP,
  },
};

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) {
      io.stderr(MAIN_HELP);
      return 2;
    }
    if (first === '-h' || first === '--help') {
      io.stdout(MAIN_HELP);
      return 0;
    }
    if (first === '--version' || (rest.includes('--version') && (first in COMMANDS || first === 'help'))) {
      io.stdout(`companion ${io.version}\n`);
      return 0;
    }
    if (first === 'help') {
      const topic = rest[0] === '--help' || rest[0] === '-h' ? undefined : rest[0];
      if (topic === undefined) io.stdout(MAIN_HELP);
      else if (topic in COMMANDS) io.stdout(await (COMMANDS[topic] as Command).help());
      else throw new UsageError(`unknown command '${topic}'`);
      return 0;
    }
    const command = COMMANDS[first];
    if (command === undefined) throw new UsageError(`unknown command '${first}' (see 'companion --help')`);
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`companion: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** Process entry: `node out/main/src/cli.js ...` (bin/companion.js). */
export async function main(): Promise<void> {
  const io: CommandIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    version: readVersion(),
  };
  const code = await runCli(process.argv.slice(2), io);
  process.exitCode = code;
}
