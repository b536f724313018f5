import { normalizeDetectablePath } from './detectable-index.js';
import type { ProcessCandidate, ScannedProcess } from './process-source.js';

/**
 * From what `/proc` says of a Linux process to the paths it is matched by.
 *
 * A native program: its binary (`/proc/PID/exe`), then argv[0] when it says something else (a
 * program started through a symlink, or under another name with `exec -a`).
 *
 * A Wine or Proton game: `/proc/PID/exe` is wine's loader (`wine64-preloader`, `wine`…) and the
 * game's `.exe` is in the command line: as argv[0] (`Z:\…\steamapps\common\Game\Game.exe`, what
 * Wine sets), or as an argument (`wine64 C:\…\steam.exe Z:\…\Game.exe`, Proton's wrapper), or
 * relative (`Game.exe`, with the folder in the working directory). With no `.exe` in the command
 * line at all, the `.exe` files in its working directory stand in for it. These are matched
 * against the list's `win32` entries, before the native paths.
 */

/** What was read of one process. */
export interface ProcessFacts {
  readonly pid: number;
  /** `/proc/PID/cmdline` split at NULs (empty for a kernel thread or a zombie). */
  readonly argv: readonly string[];
  /** `/proc/PID/exe`, or null when unreadable (another user's process). */
  readonly exe: string | null;
  /** Read only when needed: `/proc/PID/cwd`, null when unreadable. */
  readonly cwd: () => string | null;
  /** Read only when needed: the `.exe` files in the working directory. */
  readonly exeFilesInCwd: () => readonly string[];
}

const WINE_LOADERS = new Set(['wine', 'wine64', 'wine-preloader', 'wine64-preloader']);
/** At most this many `.exe` paths of one process are tried (a command line can be long). */
const MAX_EXE_PATHS = 8;

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function isExe(arg: string): boolean {
  return arg.length > 4 && arg.slice(-4).toLowerCase() === '.exe';
}

/** `C:\…`, `Z:/…`, `/…` or `\…`: not relative to the working directory. */
function isAbsolute(path: string): boolean {
  return /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('/') || path.startsWith('\\');
}

export function isWineLoader(path: string | null | undefined): boolean {
  return path !== null && path !== undefined && WINE_LOADERS.has(basename(path).toLowerCase());
}

function winePaths(facts: ProcessFacts): string[] {
  const paths: string[] = [];
  for (const arg of facts.argv) {
    if (!isExe(arg)) continue;
    if (isAbsolute(arg)) paths.push(arg);
    else {
      const cwd = facts.cwd();
      paths.push(cwd === null ? arg : `${cwd}/${arg}`);
    }
    if (paths.length === MAX_EXE_PATHS) return paths;
  }
  if (paths.length > 0 || !(isWineLoader(facts.exe) || isWineLoader(facts.argv[0]))) return paths;
  const cwd = facts.cwd();
  if (cwd === null) return paths;
  return facts.exeFilesInCwd().slice(0, MAX_EXE_PATHS).map((file) => `${cwd}/${file}`);
}

/** Strips what the kernel appends to the link of a binary replaced on disk. */
function liveExe(exe: string | null): string | null {
  return exe === null ? null : exe.endsWith(' (deleted)') ? exe.slice(0, -' (deleted)'.length) : exe;
}

export function scannedProcess(facts: ProcessFacts, nativeOs: ProcessCandidate['os'] = 'linux'): ScannedProcess {
  const candidates: ProcessCandidate[] = [];
  const seen = new Set<string>();
  const add = (path: string, os: ProcessCandidate['os']): void => {
    const normalized = normalizeDetectablePath(path);
    if (normalized === '' || seen.has(`${os}:${normalized}`)) return;
    seen.add(`${os}:${normalized}`);
    candidates.push({ path: normalized, os });
  };
  if (facts.argv.length === 0) return { pid: facts.pid, candidates, args: '' };
  for (const path of winePaths(facts)) add(path, 'win32');
  const exe = liveExe(facts.exe);
  if (exe !== null) add(exe, nativeOs);
  const argv0 = facts.argv[0] ?? '';
  if (!isExe(argv0)) add(argv0, nativeOs);
  return { pid: facts.pid, candidates, args: facts.argv.slice(1).join(' ').toLowerCase() };
}
