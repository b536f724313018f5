import type { Env } from '../../../../rpc/src/transport/ipc-paths.js';
import { readVersion } from '../../base/version.js';
import { activationFromEnv } from '../../diagnostics/systemd/activation.js';
import { bindAtStart, releaseBoundAtStart, type BoundAtStart } from '../../host/compose/bound-at-start.js';
import type { CommandIo } from './cli-args.js';
import { parseServeArgs, serveListenOptions, type ServeSettings } from './serve-options.js';
import { ShutdownOnSignal } from './serve-shutdown.js';

/** What `companion serve` did before its command was loaded, for serveCommand to carry on with. */
export interface ServeBoundEarly {
  readonly argv: readonly string[];
  readonly settings: ServeSettings;
  /** Catching the stop signals since before the sockets were bound. */
  readonly shutdown: ShutdownOnSignal;
  readonly bound: BoundAtStart;
}

let boundEarly: ServeBoundEarly | undefined;

/**
 * bin/companion.js calls this for `serve` before it loads the CLI: a game started with
 * Companion finds its socket within a few dozen milliseconds instead of after the host's
 * 160-odd modules, the embedded emulator and the sign-in, and gets READY once the host is up
 * (its handshake waits on the socket meanwhile). Uses only the argument check and the
 * transport's files; serveCommand takes the result over (takeServeBoundEarly).
 *
 * Binds only when the command would: not for --help, --version or arguments the command
 * refuses (it reports those as always), not when systemd handed sockets over (they are bound
 * already). When the claim or the bind fails (another host serves the directory, no free
 * index, an unsafe directory), what was done is undone and the command fails later as it
 * always did, with the same message.
 */
export async function bindBeforeServe(argv: readonly string[], env: Env): Promise<void> {
  const version = readVersion();
  const settings = await checkedSettings(argv, { stdout: ignore, stderr: ignore, env, version });
  if (settings === undefined || activationFromEnv(env, process.pid).adopted.length > 0) return;
  // As serveCommand does: a signal from here on shuts the host down once it is up.
  const shutdown = new ShutdownOnSignal();
  try {
    const bound = await bindAtStart({ env, version, dataDir: settings.dataDir, listen: serveListenOptions(settings) });
    // If the process ends before the host has taken over: no socket left in a game's way.
    process.on('exit', () => bound.ipc.removeFilesSync());
    boundEarly = { argv: [...argv], settings, shutdown, bound };
  } catch {
    shutdown.dispose();
  }
}

/**
 * What bindBeforeServe bound for exactly these arguments, once; undefined when it did not
 * bind. Bound for other arguments (never from bin/companion.js): released.
 */
export function takeServeBoundEarly(argv: readonly string[]): ServeBoundEarly | undefined {
  const taken = boundEarly;
  boundEarly = undefined;
  if (taken === undefined) return undefined;
  if (taken.argv.length === argv.length && taken.argv.every((arg, i) => arg === argv[i])) return taken;
  taken.shutdown.dispose();
  void releaseBoundAtStart(taken.bound);
  return undefined;
}

/** The settings when the command would start a host with them; undefined for help, --version and refused arguments. */
async function checkedSettings(argv: readonly string[], io: CommandIo): Promise<ServeSettings | undefined> {
  if (argv.includes('--version')) return undefined;
  try {
    const settings = await parseServeArgs(argv, io);
    return settings.help ? undefined : settings;
  } catch {
    return undefined;
  }
}

function ignore(): void {
  // the command itself prints
}
