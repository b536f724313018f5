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
  const lower = path.toLowerCase();
  return lower.includes('\\') ? lower.replaceAll('\\', '/') : lower;
}

/** The application an entry belongs to: what the index keeps of it (the list itself can be let go). */
export interface DetectableApplicationRef {
  readonly id: string;
  readonly name: string;
}

/** A process matched to an entry of the list. */
export interface DetectableMatch {
  readonly application: DetectableApplicationRef;
  /** The entry (its name lower-case with `/`, as the list gives names). */
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

type Shape = 'basename' | 'folders' | 'ends-with';
const SHAPES: readonly Shape[] = ['basename', 'folders', 'ends-with'];
const LAUNCHER = 4;

/**
 * One executable of the list, compiled: five fields, with the list's own strings where they can
 * be (a ~15 MB list compiles to ~50,000 of these), and nothing of the list's objects kept. Its
 * OS is its table's.
 */
class Entry {
  private readonly flags: number;

  constructor(
    readonly application: DetectableApplicationRef,
    /** The name without its `>`, normalised (the list's own string when it already is). */
    readonly pattern: string,
    shape: Shape,
    launcher: boolean,
    /** Lower-case; null: no arguments needed. */
    readonly args: string | null,
    /** `arguments` as the list has them, when there are some. */
    private readonly rawArguments: string | null,
  ) {
    this.flags = SHAPES.indexOf(shape) | (launcher ? LAUNCHER : 0);
  }

  get shape(): Shape {
    return SHAPES[this.flags & 3] ?? 'basename';
  }

  get launcher(): boolean {
    return (this.flags & LAUNCHER) !== 0;
  }

  /** The entry as the list has it (its name normalised). */
  executable(os: DetectableOs): DetectableExecutable {
    const executable = { os, name: this.shape === 'ends-with' ? `>${this.pattern}` : this.pattern, is_launcher: this.launcher };
    return this.rawArguments === null ? executable : { ...executable, arguments: this.rawArguments };
  }
}

/** The entry, and the key it is filed under: its basename, or for `>name` without folders `name` in the suffix table. */
function compileEntry(application: DetectableApplicationRef, executable: DetectableExecutable): { key: string; entry: Entry; suffixKey: boolean } | null {
  const endsWith = executable.name.startsWith('>');
  const pattern = normalizeDetectablePath(endsWith ? executable.name.slice(1) : executable.name).replace(/^\/+/, '');
  if (pattern === '' || pattern.endsWith('/')) return null;
  const slash = pattern.lastIndexOf('/');
  const args = executable.arguments === undefined || executable.arguments.trim() === '' ? null : executable.arguments.toLowerCase();
  const shape: Shape = endsWith ? 'ends-with' : slash >= 0 ? 'folders' : 'basename';
  const entry = new Entry(application, pattern, shape, executable.is_launcher === true, args, args === null ? null : (executable.arguments ?? null));
  return { key: slash < 0 ? pattern : pattern.slice(slash + 1), entry, suffixKey: endsWith && slash < 0 };
}

/** Entries needing arguments first, then the longer (more specific) names: the first match is the best one. */
function bySpecificity(a: Entry, b: Entry): number {
  if ((a.args === null) !== (b.args === null)) return a.args === null ? 1 : -1;
  return b.pattern.length - a.pattern.length;
}

const SLASH = 47;

function pathFits(entry: Entry, path: string): boolean {
  switch (entry.shape) {
    case 'basename':
      return true; // filed under the basename: equal by construction
    case 'folders': {
      const before = path.length - entry.pattern.length;
      return path.endsWith(entry.pattern) && (before === 0 || path.charCodeAt(before - 1) === SLASH);
    }
    case 'ends-with':
      return path.endsWith(entry.pattern);
  }
}

/** A basename's entries: most basenames have one, kept without an array. */
type Bucket = Entry | Entry[];

function addTo(table: Map<string, Bucket>, key: string, entry: Entry): void {
  const bucket = table.get(key);
  if (bucket === undefined) table.set(key, entry);
  else if (Array.isArray(bucket)) bucket.push(entry);
  else table.set(key, [bucket, entry]);
}

function visitBucket(bucket: Bucket | undefined, path: string, visit: (entry: Entry) => boolean): boolean {
  if (bucket === undefined) return false;
  if (!Array.isArray(bucket)) return pathFits(bucket, path) && visit(bucket);
  for (const entry of bucket) if (pathFits(entry, path) && visit(entry)) return true;
  return false;
}

/** The entries of one OS, filed by the basename they can match. */
class EntryTable {
  private readonly byBasename = new Map<string, Bucket>();
  /** `>name` entries without folders, by `name`: looked up with every suffix of a basename. */
  private readonly bySuffix = new Map<string, Bucket>();
  private shortestSuffix = Number.POSITIVE_INFINITY;

  add(application: DetectableApplicationRef, executable: DetectableExecutable): void {
    const compiled = compileEntry(application, executable);
    if (compiled === null) return;
    if (compiled.suffixKey) this.shortestSuffix = Math.min(this.shortestSuffix, compiled.key.length);
    addTo(compiled.suffixKey ? this.bySuffix : this.byBasename, compiled.key, compiled.entry);
  }

  seal(): void {
    for (const bucket of this.byBasename.values()) if (Array.isArray(bucket)) bucket.sort(bySpecificity);
    for (const bucket of this.bySuffix.values()) if (Array.isArray(bucket)) bucket.sort(bySpecificity);
  }

  /** Calls `visit` with each entry whose name fits `path`, best first, until it returns true. */
  visit(path: string, visit: (entry: Entry) => boolean): boolean {
    const basename = path.slice(path.lastIndexOf('/') + 1);
    if (visitBucket(this.byBasename.get(basename), path, visit)) return true;
    if (this.bySuffix.size === 0) return false;
    for (let start = 0; basename.length - start >= this.shortestSuffix; start++) {
      if (visitBucket(this.bySuffix.get(start === 0 ? basename : basename.slice(start)), path, visit)) return true;
    }
    return false;
  }
}

function argumentsPresent(entry: Entry, args: string): boolean {
  return entry.args === null || args.includes(entry.args);
}

function matchOf(entry: Entry, os: DetectableOs, path: string): DetectableMatch {
  return { application: entry.application, executable: entry.executable(os), path };
}

export class DetectableIndex {
  /** Every OS's entries: the ones a candidate is matched against, the others for `explain()`. */
  private readonly tables = new Map<DetectableOs, EntryTable>();
  private readonly matched: ReadonlySet<DetectableOs>;

  /**
   * @param os the OS Companion runs on; on Linux the `win32` entries are matched too, for Wine and
   *   Proton games. The index keeps nothing of `applications` but ids, names and executables.
   */
  constructor(
    applications: readonly DetectableApplication[],
    readonly os: DetectableOs,
  ) {
    this.matched = new Set<DetectableOs>(os === 'linux' ? ['linux', 'win32'] : [os]);
    for (const application of applications) {
      const ref: DetectableApplicationRef = { id: application.id, name: application.name };
      for (const executable of application.executables) this.table(executable.os).add(ref, executable);
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

  /** Why `process` is detected or not (`companion doctor`). */
  explain(process: ScannedProcess): DetectionExplanation {
    const match = this.match(process);
    if (match !== null) return { kind: 'detected', match };
    let launcher: DetectableMatch | undefined;
    let missing: { match: DetectableMatch; arguments: string } | undefined;
    for (const candidate of process.candidates) {
      const path = normalizeDetectablePath(candidate.path);
      if (!this.matched.has(candidate.os)) continue;
      this.tables.get(candidate.os)?.visit(path, (entry) => {
        if (!argumentsPresent(entry, process.args)) missing ??= { match: matchOf(entry, candidate.os, path), arguments: entry.executable(candidate.os).arguments ?? '' };
        else if (entry.launcher) launcher ??= matchOf(entry, candidate.os, path);
        return false;
      });
    }
    if (launcher !== undefined) return { kind: 'launcher', match: launcher };
    if (missing !== undefined) return { kind: 'argument-missing', ...missing };
    return this.otherOs(process);
  }

  private matchCandidate(candidate: ProcessCandidate, args: string): DetectableMatch | null {
    const table = this.tables.get(candidate.os);
    if (table === undefined || !this.matched.has(candidate.os)) return null;
    const path = normalizeDetectablePath(candidate.path);
    let found: Entry | undefined;
    table.visit(path, (entry) => {
      if (entry.launcher || !argumentsPresent(entry, args)) return false;
      found = entry;
      return true;
    });
    return found === undefined ? null : matchOf(found, candidate.os, path);
  }

  private otherOs(process: ScannedProcess): DetectionExplanation {
    const oses = new Set<DetectableOs>();
    let first: DetectableMatch | undefined;
    for (const candidate of process.candidates) {
      const path = normalizeDetectablePath(candidate.path);
      for (const [os, table] of this.tables) {
        if (os === candidate.os) continue;
        table.visit(path, (entry) => {
          oses.add(os);
          first ??= matchOf(entry, os, path);
          return false;
        });
      }
    }
    return first === undefined ? { kind: 'no-entry' } : { kind: 'other-os', match: first, os: [...oses] };
  }

  private table(os: DetectableOs): EntryTable {
    let table = this.tables.get(os);
    if (table === undefined) {
      table = new EntryTable();
      this.tables.set(os, table);
    }
    return table;
  }
}
