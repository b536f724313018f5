import type { DetectableApplication, DetectableExecutable, DetectableOs } from '../../../../platform/src/wire/index.js';
import type { ProcessCandidate, ScannedProcess } from './process-source.js';

/**
 * The detectable-applications list compiled once for the OS Companion runs on, so that matching
 * a process costs a few Map lookups and the entries filed under its basename, never a walk over
 * the whole list (the real one is ~15 MB).
 *
 * How an executable's `name` matches a process's path (both lower-case, `/` separators):
 * - `game.exe`: the basename is `game.exe`;
 * - `steamapps/common/game/game.exe`: the path's last segments are these (`…/steamapps/common/game/game.exe`);
 * - `>name`: the path ends with `name`, as a string (`>game.exe` also matches `mygame.exe`);
 * - with `arguments`: also, the command line after argv[0] contains them (case-insensitive);
 * - `is_launcher`: matched, but never a game being played.
 * On Linux, the `.exe` of a Wine or Proton game is matched against the `win32` entries.
 */

/** The OS whose entries a host on `platform` matches (`process.platform`); null where the list has none. */
export function detectableOsOf(platform: NodeJS.Platform): DetectableOs | null {
  if (platform === 'win32' || platform === 'linux' || platform === 'darwin') return platform;
  return null;
}

/** Lower-case, `/` as the only separator. */
export function normalizeDetectablePath(path: string): string {
  return path.toLowerCase().replaceAll('\\', '/');
}

/** A process matched to an entry of the list. */
export interface DetectableMatch {
  readonly application: DetectableApplication;
  /** The entry, as the list has it. */
  readonly executable: DetectableExecutable;
  /** The process's path that matched it. */
  readonly path: string;
}

/** Why a process is, or is not, detected (`companion doctor`). */
export type DetectionExplanation =
  | { readonly kind: 'detected'; readonly match: DetectableMatch }
  /** Its path matches only launcher entries. */
  | { readonly kind: 'launcher'; readonly match: DetectableMatch }
  /** Its path matches an entry whose `arguments` are not in its command line. */
  | { readonly kind: 'argument-missing'; readonly match: DetectableMatch; readonly arguments: string }
  /** Its path matches entries for other OSes only. */
  | { readonly kind: 'other-os'; readonly match: DetectableMatch; readonly os: readonly DetectableOs[] }
  | { readonly kind: 'no-entry' };

/** One executable of the list, compiled. */
interface Entry {
  readonly application: DetectableApplication;
  readonly executable: DetectableExecutable;
  /** The name without its `>`, normalised; with a leading `/` for a folder name (a segment boundary). */
  readonly pattern: string;
  readonly shape: 'basename' | 'folders' | 'ends-with';
  /** Lower-case; null: no arguments needed. */
  readonly args: string | null;
}

function compileEntry(application: DetectableApplication, executable: DetectableExecutable): { key: string; entry: Entry; suffixKey: boolean } | null {
  const endsWith = executable.name.startsWith('>');
  const name = normalizeDetectablePath(endsWith ? executable.name.slice(1) : executable.name).replace(/^\/+/, '');
  if (name === '' || name.endsWith('/')) return null;
  const slash = name.lastIndexOf('/');
  const basename = name.slice(slash + 1);
  const args = executable.arguments === undefined || executable.arguments.trim() === '' ? null : executable.arguments.toLowerCase();
  const shape = endsWith ? 'ends-with' : slash >= 0 ? 'folders' : 'basename';
  const pattern = shape === 'folders' ? `/${name}` : name;
  // `>name` without folders: the basename ends with `name`, filed under `name` in the suffix table.
  return { key: basename, entry: { application, executable, pattern, shape, args }, suffixKey: endsWith && slash < 0 };
}

/** Entries needing arguments first, then the longer (more specific) names: the first match is the best one. */
function bySpecificity(a: Entry, b: Entry): number {
  if ((a.args === null) !== (b.args === null)) return a.args === null ? 1 : -1;
  return b.pattern.length - a.pattern.length;
}

function pathFits(entry: Entry, path: string): boolean {
  switch (entry.shape) {
    case 'basename':
      return true; // filed under the basename: equal by construction
    case 'folders':
      return path.endsWith(entry.pattern) || path === entry.pattern.slice(1);
    case 'ends-with':
      return path.endsWith(entry.pattern);
  }
}

/** The entries of one OS (or of all, for explanations), filed by the basename they can match. */
class EntryTable {
  private readonly byBasename = new Map<string, Entry[]>();
  /** `>name` entries without folders, by `name`: looked up with every suffix of a basename. */
  private readonly bySuffix = new Map<string, Entry[]>();
  private shortestSuffix = Number.POSITIVE_INFINITY;

  add(application: DetectableApplication, executable: DetectableExecutable): void {
    const compiled = compileEntry(application, executable);
    if (compiled === null) return;
    const table = compiled.suffixKey ? this.bySuffix : this.byBasename;
    if (compiled.suffixKey) this.shortestSuffix = Math.min(this.shortestSuffix, compiled.key.length);
    const list = table.get(compiled.key);
    if (list === undefined) table.set(compiled.key, [compiled.entry]);
    else list.push(compiled.entry);
  }

  seal(): void {
    for (const list of this.byBasename.values()) list.sort(bySpecificity);
    for (const list of this.bySuffix.values()) list.sort(bySpecificity);
  }

  /** Calls `visit` with each entry whose name fits `path`, best first, until it returns true. */
  visit(path: string, visit: (entry: Entry) => boolean): boolean {
    const basename = path.slice(path.lastIndexOf('/') + 1);
    const filed = this.byBasename.get(basename);
    if (filed !== undefined) {
      for (const entry of filed) if (pathFits(entry, path) && visit(entry)) return true;
    }
    if (this.bySuffix.size === 0) return false;
    for (let start = 0; basename.length - start >= this.shortestSuffix; start++) {
      const suffixed = this.bySuffix.get(start === 0 ? basename : basename.slice(start));
      if (suffixed === undefined) continue;
      for (const entry of suffixed) if (visit(entry)) return true;
    }
    return false;
  }
}

function argumentsPresent(entry: Entry, args: string): boolean {
  return entry.args === null || args.includes(entry.args);
}

function matchOf(entry: Entry, path: string): DetectableMatch {
  return { application: entry.application, executable: entry.executable, path };
}

export class DetectableIndex {
  private readonly tables = new Map<DetectableOs, EntryTable>();
  private everyOs: EntryTable | undefined;

  /**
   * @param os the OS Companion runs on; on Linux the `win32` entries are compiled too, for Wine
   *   and Proton games.
   */
  constructor(
    private readonly applications: readonly DetectableApplication[],
    readonly os: DetectableOs,
  ) {
    const oses: DetectableOs[] = os === 'linux' ? ['linux', 'win32'] : [os];
    for (const each of oses) this.tables.set(each, new EntryTable());
    for (const application of applications) {
      for (const executable of application.executables) this.tables.get(executable.os)?.add(application, executable);
    }
    for (const table of this.tables.values()) table.seal();
  }

  /** The game `process` is running, or null (launchers are never one). */
  match(process: ScannedProcess): DetectableMatch | null {
    for (const candidate of process.candidates) {
      const found = this.matchCandidate(candidate, process.args);
      if (found !== null) return found;
    }
    return null;
  }

  /** Why `process` is detected or not; builds an all-OS table at its first call (doctor only). */
  explain(process: ScannedProcess): DetectionExplanation {
    const match = this.match(process);
    if (match !== null) return { kind: 'detected', match };
    let launcher: DetectableMatch | undefined;
    let missing: { match: DetectableMatch; arguments: string } | undefined;
    for (const candidate of process.candidates) {
      const path = normalizeDetectablePath(candidate.path);
      this.tables.get(candidate.os)?.visit(path, (entry) => {
        if (!argumentsPresent(entry, process.args)) missing ??= { match: matchOf(entry, path), arguments: entry.executable.arguments ?? '' };
        else if (entry.executable.is_launcher) launcher ??= matchOf(entry, path);
        return false;
      });
    }
    if (launcher !== undefined) return { kind: 'launcher', match: launcher };
    if (missing !== undefined) return { kind: 'argument-missing', ...missing };
    return this.otherOs(process);
  }

  private matchCandidate(candidate: ProcessCandidate, args: string): DetectableMatch | null {
    const table = this.tables.get(candidate.os);
    if (table === undefined) return null;
    const path = normalizeDetectablePath(candidate.path);
    let found: Entry | undefined;
    table.visit(path, (entry) => {
      if (entry.executable.is_launcher || !argumentsPresent(entry, args)) return false;
      found = entry;
      return true;
    });
    return found === undefined ? null : matchOf(found, path);
  }

  private otherOs(process: ScannedProcess): DetectionExplanation {
    const table = this.everyOsTable();
    const oses = new Set<DetectableOs>();
    let first: DetectableMatch | undefined;
    for (const candidate of process.candidates) {
      const path = normalizeDetectablePath(candidate.path);
      table.visit(path, (entry) => {
        if (entry.executable.os === candidate.os) return false;
        oses.add(entry.executable.os);
        first ??= matchOf(entry, path);
        return false;
      });
    }
    return first === undefined ? { kind: 'no-entry' } : { kind: 'other-os', match: first, os: [...oses] };
  }

  private everyOsTable(): EntryTable {
    if (this.everyOs !== undefined) return this.everyOs;
    const table = new EntryTable();
    for (const application of this.applications) {
      for (const executable of application.executables) table.add(application, executable);
    }
    table.seal();
    this.everyOs = table;
    return table;
  }
}
