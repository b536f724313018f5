import { setImmediate as nextTurn } from 'node:timers/promises';
import { scannedProcess, type ProcessFacts } from './linux-process-candidates.js';
import { CLOCK_TICKS_PER_SECOND, ProcFiles } from './proc-files.js';
import type { ProcessScan, ProcessSource, ScannedProcess } from './process-source.js';

/**
 * Linux's running processes from `/proc`, incrementally. A scan lists the numeric entries of
 * `/proc` (one `getdents`) and reads a process (`cmdline`, `exe`, `stat`; `cwd` for a Wine game)
 * only the first time its PID shows up, and, if it started less than 10 s before, once more at
 * the scan after (a launch script that `exec`s the game keeps its PID). A PID that went away is
 * reported gone.
 *
 * A PID reused between two scans (a process gone, another started under its number) is caught
 * by its start time (`/proc/PID/stat`), read again only for the PIDs that the kernel may have
 * handed out since the previous scan: those between the last PID then and now (the last field of
 * `/proc/loadavg`), the kernel handing PIDs out in increasing order and wrapping around at
 * `pid_max`. Without that field every known PID's start time is read.
 */

/** What is kept of a process between scans. */
interface Known {
  /** `/proc/PID/stat`'s start time when it was read; null if that failed. */
  startTime: number | null;
  /** The scan that last listed it. */
  generation: number;
  /** Until the scan after the first read: what was read (exe and argv), to tell whether it exec'd since. */
  firstRead: string | null;
}

/**
 * A process younger than this when first read is read once more at the next scan (a launch
 * script may be about to exec the game); an older one (running before detection began) is not.
 */
const YOUNG_TICKS = 10 * CLOCK_TICKS_PER_SECOND;
/** New processes read between two turns of the event loop (the first scan reads them all). */
const READS_PER_TURN = 128;
/** `.exe` files of a Wine process's working directory tried at most. */
const MAX_CWD_EXES = 8;

export class LinuxProcessSource implements ProcessSource {
  private readonly files: ProcFiles;
  private readonly known = new Map<number, Known>();
  private generation = 0;
  private lastPid: number | null = null;
  /** Read once per scan, at its first new process. */
  private uptime: number | null | undefined;

  constructor(options: { readonly procRoot?: string } = {}) {
    this.files = new ProcFiles(options.procRoot);
  }

  async scan(): Promise<ProcessScan> {
    const complete = this.known.size === 0;
    const generation = ++this.generation;
    const mayBeReused = this.reuseWindow();
    this.uptime = undefined;
    const processes: ScannedProcess[] = [];
    let reads = 0;
    for (const pid of this.files.pids()) {
      const known = this.known.get(pid);
      const read = known === undefined ? this.readNew(pid, generation) : this.readAgain(pid, known, generation, mayBeReused);
      if (read === null) continue;
      processes.push(read);
      if (++reads % READS_PER_TURN === 0) await nextTurn();
    }
    const gone: number[] = [];
    for (const [pid, known] of this.known) {
      if (known.generation === generation) continue;
      this.known.delete(pid);
      gone.push(pid);
    }
    return { processes, gone, complete };
  }

  forget(): void {
    this.known.clear();
    this.lastPid = null;
  }

  async snapshot(): Promise<readonly ScannedProcess[]> {
    const processes: ScannedProcess[] = [];
    for (const pid of this.files.pids()) {
      processes.push(scannedProcess(this.facts(pid, this.files.link(pid, 'exe'), this.files.argv(pid))));
      if (processes.length % READS_PER_TURN === 0) await nextTurn();
    }
    return processes;
  }

  /** Which known PIDs the kernel may have handed out again since the previous scan. */
  private reuseWindow(): (pid: number) => boolean {
    const before = this.lastPid;
    const now = this.files.lastPid();
    this.lastPid = now;
    if (before === null || now === null) return () => true;
    if (now >= before) return (pid) => pid > before && pid <= now;
    return (pid) => pid > before || pid <= now; // wrapped around pid_max
  }

  private readNew(pid: number, generation: number): ScannedProcess {
    const startTime = this.files.startTime(pid);
    const exe = this.files.link(pid, 'exe');
    const argv = this.files.argv(pid);
    this.known.set(pid, { startTime, generation, firstRead: this.young(startTime) ? signature(exe, argv) : null });
    return this.withStart(scannedProcess(this.facts(pid, exe, argv)), startTime);
  }

  /** The process with when it started (epoch ms), from its start in ticks since boot and the uptime. */
  private withStart(process: ScannedProcess, startTime: number | null): ScannedProcess {
    if (this.uptime === undefined) this.uptime = this.files.uptimeTicks();
    if (startTime === null || this.uptime === null || process.candidates.length === 0) return process;
    return { ...process, startedAt: Date.now() - ((this.uptime - startTime) * 1000) / CLOCK_TICKS_PER_SECOND };
  }

  /** Whether a process that started at `startTime` is young enough to exec something else soon. */
  private young(startTime: number | null): boolean {
    if (this.uptime === undefined) this.uptime = this.files.uptimeTicks();
    return startTime === null || this.uptime === null || this.uptime - startTime < YOUNG_TICKS;
  }

  /** A known process: read again if it may have exec'd or its PID may be another's now, else null. */
  private readAgain(pid: number, known: Known, generation: number, mayBeReused: (pid: number) => boolean): ScannedProcess | null {
    known.generation = generation;
    if (mayBeReused(pid) && this.files.startTime(pid) !== known.startTime) return this.readNew(pid, generation);
    if (known.firstRead === null) return null;
    const exe = this.files.link(pid, 'exe');
    const argv = this.files.argv(pid);
    const changed = signature(exe, argv) !== known.firstRead;
    known.firstRead = null;
    return changed ? this.withStart(scannedProcess(this.facts(pid, exe, argv)), known.startTime) : null;
  }

  private facts(pid: number, exe: string | null, argv: readonly string[]): ProcessFacts {
    let cwd: string | null | undefined;
    const readCwd = (): string | null => (cwd ??= this.files.link(pid, 'cwd'));
    return {
      pid,
      argv,
      exe,
      cwd: readCwd,
      exeFilesInCwd: () => {
        const folder = readCwd();
        return folder === null ? [] : this.files.exeFiles(folder, MAX_CWD_EXES);
      },
    };
  }
}

function signature(exe: string | null, argv: readonly string[]): string {
  return `${exe ?? ''}\0${argv.join('\0')}`;
}
