import { CscriptProcessList, type ProcessListRunner } from './cscript-process-list.js';
import type { ProcessScan, ProcessSource, ScannedProcess } from './process-source.js';
import { windowsScannedProcess } from './windows-process-candidates.js';
import { parseProcessList } from './windows-process-list.js';

/**
 * Windows' running processes, incrementally, through WMI: Node has no process-list API and
 * Companion ships no native code, so each scan runs a short VBScript on `cscript.exe` (every
 * Windows has it; docs/performance.md, "Game detection", says why not `wmic`, `tasklist` or
 * PowerShell). The script is told the processes already known (PID and stamp: creation date and
 * name) and reads the path and command line of the others only; a known PID no longer listed is
 * gone, one listed with another stamp is a new process under a reused PID.
 */
export type { ProcessListOutput, ProcessListRunner } from './cscript-process-list.js';

export class WindowsProcessSource implements ProcessSource {
  /** PID to stamp, of every process reported and not gone since. */
  private readonly known = new Map<number, string>();
  private readonly runner: ProcessListRunner;

  constructor(options: { readonly runner?: ProcessListRunner } = {}) {
    this.runner = options.runner ?? new CscriptProcessList();
  }

  async scan(): Promise<ProcessScan> {
    const complete = this.known.size === 0;
    const run = await this.runner.list(complete ? null : this.known);
    const list = parseProcessList(run.output);
    const listed = new Set<number>(list.kept);
    const processes: ScannedProcess[] = [];
    for (const row of list.fresh) {
      if (row.pid === run.pid) continue; // the script's own cscript.exe
      listed.add(row.pid);
      this.known.set(row.pid, row.stamp);
      processes.push(windowsScannedProcess(row));
    }
    const gone: number[] = [];
    for (const pid of this.known.keys()) {
      if (listed.has(pid)) continue;
      this.known.delete(pid);
      gone.push(pid);
    }
    return { processes, gone, complete };
  }

  forget(): void {
    this.known.clear();
  }

  async snapshot(): Promise<readonly ScannedProcess[]> {
    const run = await this.runner.list(null);
    return parseProcessList(run.output)
      .fresh.filter((row) => row.pid !== run.pid)
      .map(windowsScannedProcess);
  }

  /** Removes the script's temp folder (also done at exit). */
  close(): void {
    this.runner.close?.();
  }
}
