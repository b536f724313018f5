import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Windows games running under Wine (or Proton) on this machine, by Wine session, and whether
 * Companion's bridge runs in each: a Windows game looks for \\.\pipe\discord-ipc-N, which only
 * exists inside its own Wine session, so without the bridge (docs/proton-bridge.md) it cannot
 * reach a Linux Companion.
 */
export interface WineSession {
  /** WINEPREFIX of the session's programs (Proton: .../compatdata/<app id>/pfx). */
  readonly prefix: string;
  /** The games: Windows programs of the session that are not Wine's own. */
  readonly games: readonly string[];
  /** The bridge runs in the session, or a Companion for Windows does (it serves the pipe itself). */
  readonly bridge: boolean;
}

/** What doctor needs of a process: its executable, its command line and its WINEPREFIX. */
export interface ProcessInfo {
  readonly exe: string | null;
  readonly argv0: string;
  /** The arguments after argv[0] (default none). */
  readonly args?: readonly string[];
  readonly winePrefix: string | null;
}

export interface WineReport {
  readonly sessions: readonly WineSession[];
  /** The bridge this Companion carries (the desktop package's resources/bridge/, else out/bridge/ of a source build). */
  readonly bridgeExe: string;
}

export const BRIDGE_EXE_NAME = 'companion-bridge.exe';

/** Where this Companion's bridge is: beside the desktop app's asar, else in the build output (npm run build:bridge). */
export function installedBridgeExe(): string {
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const packaged = resources === undefined ? undefined : path.join(resources, 'bridge', BRIDGE_EXE_NAME);
  if (packaged !== undefined && existsSync(packaged)) return packaged;
  return fileURLToPath(new URL(`../../../../bridge/${BRIDGE_EXE_NAME}`, import.meta.url));
}

/** Wine's own programs and Proton's launcher: they are no game. */
const WINE_OWN = new Set([
  'services.exe', 'winedevice.exe', 'plugplay.exe', 'svchost.exe', 'rpcss.exe', 'explorer.exe', 'conhost.exe', 'start.exe', 'cmd.exe',
  'winedbg.exe', 'wineboot.exe', 'tabtip.exe', 'rundll32.exe', 'steam.exe', 'winemenubuilder.exe', 'wineconsole.exe', 'iexplore.exe',
]);

/** The Linux loader of a Windows program: wine, wine64, or their -preloader. */
const WINE_LOADER = /^wine(64)?(-preloader)?$/;

/** Companion itself running in the session: the desktop app, or `node.exe .../companion.js serve`. */
function isWindowsCompanion(name: string, args: readonly string[]): boolean {
  if (name === 'companion.exe') return true;
  return name === 'node.exe' && args.some((arg) => /companion(\.js)?$/i.test(arg)) && args.includes('serve');
}

/** The exe's file name of a Windows argv[0] (`C:\windows\system32\services.exe`, `Z:\games\x.exe`, `game.exe`). */
function windowsName(argv0: string): string {
  return (argv0.split(/[\\/]/).pop() ?? argv0).toLowerCase();
}

export function wineSessions(processes: readonly ProcessInfo[], home: string): WineSession[] {
  const sessions = new Map<string, { games: Set<string>; bridge: boolean }>();
  for (const proc of processes) {
    if (proc.exe === null || !WINE_LOADER.test(path.basename(proc.exe))) continue;
    const name = windowsName(proc.argv0);
    if (!name.endsWith('.exe')) continue;
    const prefix = proc.winePrefix ?? path.join(home, '.wine');
    const session = sessions.get(prefix) ?? { games: new Set<string>(), bridge: false };
    sessions.set(prefix, session);
    if (name === BRIDGE_EXE_NAME || isWindowsCompanion(name, proc.args ?? [])) session.bridge = true;
    else if (!WINE_OWN.has(name)) session.games.add(name);
  }
  return [...sessions].filter(([, s]) => s.games.size > 0).map(([prefix, s]) => ({ prefix, games: [...s.games].sort(), bridge: s.bridge }));
}

/** This user's processes from /proc (others' are unreadable and skipped). */
export async function readProcesses(procRoot = '/proc'): Promise<ProcessInfo[]> {
  const pids = (await readdir(procRoot).catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry));
  const found = await Promise.all(pids.map((pid) => readProcess(path.join(procRoot, pid))));
  return found.filter((proc): proc is ProcessInfo => proc !== null);
}

async function readProcess(dir: string): Promise<ProcessInfo | null> {
  try {
    const exe = await readlink(path.join(dir, 'exe')).catch(() => null);
    if (exe === null || !WINE_LOADER.test(path.basename(exe))) return null;
    const [argv0 = '', ...args] = (await readFile(path.join(dir, 'cmdline'), 'latin1')).split('\0').filter((arg) => arg !== '');
    const environ = await readFile(path.join(dir, 'environ'), 'utf8').catch(() => '');
    const prefixEntry = environ.split('\0').find((entry) => entry.startsWith('WINEPREFIX='));
    return { exe, argv0, args, winePrefix: prefixEntry === undefined ? null : prefixEntry.slice('WINEPREFIX='.length) };
  } catch {
    return null;
  }
}

/**
 * The one line that starts the bridge with a Steam game (its launch options): Proton starts
 * PROTON_REMOTE_DEBUG_CMD in the game's prefix beside the game, and pressure-vessel (Steam's
 * container) is told to show the bridge's folder and the socket directory inside.
 */
export function steamLaunchOptions(bridgeExe: string, socketDir: string): string {
  return `PROTON_REMOTE_DEBUG_CMD="${bridgeExe}" PRESSURE_VESSEL_FILESYSTEMS_RW="${socketDir}:${path.dirname(bridgeExe)}" %command%`;
}

/** A finding for each Wine session with a game and no bridge. */
export function wineFindings(sessions: readonly WineSession[], bridgeExe: string, socketDir: string): string[] {
  return sessions
    .filter((session) => !session.bridge)
    .map(
      (session) =>
        `a Windows game under Wine cannot reach Companion: ${session.games.join(', ')} (WINEPREFIX ${session.prefix}) has no ${BRIDGE_EXE_NAME} in its Wine session; ` +
        `add to the game's Steam launch options: ${steamLaunchOptions(bridgeExe, socketDir)} (other launchers: wine ${bridgeExe} -- game.exe; docs/proton-bridge.md)`,
    );
}
