import { statSync } from 'node:fs';
import { scannedProcess } from './linux-process-candidates.js';
import { listPsProcesses, type PsListing, type PsRow } from './ps-process-list.js';
import type { ProcessScan, ProcessSource, ScannedProcess } from './process-source.js';

/** At most this many ways of cutting a command line into a path and arguments are tried. */
const MAX_CUTS = 8;

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/**
 * Where a command line's program path ends: `ps` joins the arguments with spaces, so
 * `/Applications/My Game.app/Contents/MacOS/My Game -fullscreen` is cut at the longest prefix
 * (ending at a space) that is a file; a command line whose program is not a file we can see is
 * cut at its first space.
 */
export function splitCommandLine(args: string, exists: (path: string) => boolean = isFile): readonly string[] {
  const spaces: number[] = [];
  for (let i = args.indexOf(' '); i !== -1 && spaces.length < MAX_CUTS; i = args.indexOf(' ', i + 1)) spaces.push(i);
  if (args.startsWith('/')) {
    for (const cut of [...spaces].reverse()) {
      if (exists(args.slice(0, cut))) return [args.slice(0, cut), ...args.slice(cut + 1).split(' ').filter((arg) => arg !== '')];
    }
  }
  return args.split(' ').filter((arg) => arg !== '');
}

/**
 * macOS's processes (and any system with `ps`): one `ps` a scan lists every PID with when it
 * started; only a PID not seen before, or one whose start changed (the PID was reused), has its
 * command line turned into paths to match. Native programs are matched against `darwin` entries,
 * the `.exe` of a Wine or CrossOver game in its command line against `win32` ones. Measured
 * 2026-11-28 on Linux's procps (the same command): docs/performance.md, "Game detection".
 */
export class PsProcessSource implements ProcessSource {
  /** PID → its `lstart`. */
  private readonly known = new Map<number, string>();
  private complete = true;

  constructor(
    private readonly list: () => Promise<PsListing> = listPsProcesses,
    private readonly exists: (path: string) => boolean = isFile,
  ) {}

  async scan(): Promise<ProcessScan> {
    const { rows, ownPid } = await this.list();
    const complete = this.complete;
    this.complete = false;
    const listed = new Set<number>();
    const processes: ScannedProcess[] = [];
    for (const row of rows) {
      if (row.pid === ownPid) continue;
      listed.add(row.pid);
      if (this.known.get(row.pid) === row.started) continue;
      this.known.set(row.pid, row.started);
      processes.push(this.read(row));
    }
    const gone: number[] = [];
    for (const pid of this.known.keys()) if (!listed.has(pid)) gone.push(pid);
    for (const pid of gone) this.known.delete(pid);
    return { processes, gone, complete };
  }

  forget(): void {
    this.known.clear();
    this.complete = true;
  }

  async snapshot(): Promise<readonly ScannedProcess[]> {
    const { rows, ownPid } = await this.list();
    return rows.filter((row) => row.pid !== ownPid).map((row) => this.read(row));
  }

  private read(row: PsRow): ScannedProcess {
    const argv = splitCommandLine(row.args, this.exists);
    const program = argv[0] ?? '';
    const process = scannedProcess({ pid: row.pid, argv, exe: program.startsWith('/') ? program : null, cwd: () => null, exeFilesInCwd: () => [] }, 'darwin');
    const startedAt = Date.parse(row.started);
    return Number.isFinite(startedAt) && process.candidates.length > 0 ? { ...process, startedAt } : process;
  }
}
