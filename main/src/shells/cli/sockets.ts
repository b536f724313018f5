import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IPC_INDEX_COUNT } from '../../../../rpc/src/index.js';
import { parseCommandArgs, UsageError, type CommandIo } from './cli-args.js';
import { findSystemctl, installSockets, UnitConflictError, uninstallSockets } from '../../diagnostics/systemd/install-sockets.js';

export const INSTALL_SOCKETS_HELP = `Usage: companion install-sockets [options]

Installs systemd user units that hold Companion's sockets before it runs
(socket activation): a game that starts first still finds discord-ipc-N, and
its first connection starts 'companion serve'. Writes to
$XDG_CONFIG_HOME/systemd/user (else ~/.config/systemd/user):
  companion-ipc.socket           $XDG_RUNTIME_DIR/discord-ipc-N
  companion-ipc-flatpak.socket   $XDG_RUNTIME_DIR/app/com.discordapp.Discord/discord-ipc-N
  companion-ipc-snap.socket      $XDG_RUNTIME_DIR/snap.discord/discord-ipc-N (--snap)
  companion.service              runs 'companion serve'
then runs 'systemctl --user daemon-reload' and 'systemctl --user enable' for
the sockets (skipped, with a note, when there is no systemctl). The sockets
start with your next login, or now with
'systemctl --user start companion-ipc.socket companion-ipc-flatpak.socket'
(stop a Companion you started by hand first). Undo with
'companion uninstall-sockets'.

Options:
  --index N      The discord-ipc-N to hold (default 0). systemd takes the
                 path even from another running server: with the desktop
                 client installed, choose a free index ('companion doctor'
                 shows which are taken)
  --snap         Also hold the socket in snap.discord/ (off by default: the
                 directory belongs to the Snap)
  --no-flatpak   Do not hold the socket in app/com.discordapp.Discord/
  -h, --help     Show this help
`;

export const UNINSTALL_SOCKETS_HELP = `Usage: companion uninstall-sockets

Removes exactly what 'companion install-sockets' installed: stops and disables
its units ('systemctl --user disable --now', skipped with a note when there is
no systemctl), deletes the unit files it wrote (a file changed since is left in
place, and named), and reloads systemd.

Options:
  -h, --help     Show this help
`;

/** The command the service runs: this Node and this checkout's bin/companion.js. */
function serveCommandLine(snap: boolean): string[] {
  // out/main/src/shells/cli/ when built, main/src/shells/cli/ when run from source.
  const candidates = ['../../../../../bin/companion.js', '../../../../bin/companion.js'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
  const bin = candidates.find((candidate) => existsSync(candidate)) ?? (candidates[0] as string);
  return [process.execPath, bin, 'serve', ...(snap ? ['--snap-socket'] : [])];
}

export async function installSocketsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('install-sockets', argv, {
    index: { type: 'string' },
    snap: { type: 'boolean' },
    'no-flatpak': { type: 'boolean' },
  });
  if (parsed.help) {
    io.stdout(INSTALL_SOCKETS_HELP);
    return 0;
  }
  const indexText = (parsed.values.index as string | undefined) ?? '0';
  const index = Number(indexText);
  if (!/^\d+$/.test(indexText) || index >= IPC_INDEX_COUNT) throw new UsageError(`--index must be a number from 0 to ${IPC_INDEX_COUNT - 1}, got '${indexText}'`);
  const snap = parsed.values.snap === true;
  try {
    const lines = await installSockets(
      io.env,
      { execStart: serveCommandLine(snap), index, flatpak: parsed.values['no-flatpak'] !== true, snap },
      await findSystemctl(io.env),
    );
    for (const line of lines) io.stdout(`${line}\n`);
  } catch (error) {
    if (error instanceof UnitConflictError) {
      io.stderr(`companion install-sockets: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  return 0;
}

export async function uninstallSocketsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('uninstall-sockets', argv, {});
  if (parsed.help) {
    io.stdout(UNINSTALL_SOCKETS_HELP);
    return 0;
  }
  for (const line of await uninstallSockets(io.env, await findSystemctl(io.env))) io.stdout(`${line}\n`);
  return 0;
}
