import { readdirSync, readFileSync } from 'node:fs';

/** Open file descriptors of a process: the entries of /proc/<pid>/fd (Linux). */
export function openFdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export interface ChildProcessSighting {
  readonly pid: number;
  readonly name: string;
}

/** The processes whose parent is `pid`: every /proc/<n>/status with `PPid: <pid>`. */
export function childProcesses(pid: number): ChildProcessSighting[] {
  const children: ChildProcessSighting[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${entry}/status`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    if (Number(/^PPid:\s+([0-9]+)$/m.exec(status)?.[1]) !== pid) continue;
    children.push({ pid: Number(entry), name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?' });
  }
  return children;
}

export interface SettleOptions {
  readonly intervalMs?: number;
  /** How many reads in a row must agree. */
  readonly stableReads?: number;
  readonly maxMs?: number;
}

/**
 * The fd count once it has stopped moving: the same value `stableReads` times in a row,
 * `intervalMs` apart. A peer's close reaches the host a moment after the client's, so a read
 * taken at once can still count sockets on their way out. After `maxMs` the last read counts.
 */
export async function settledFdCount(pid: number, options: SettleOptions = {}): Promise<number> {
  const { intervalMs = 100, stableReads = 3, maxMs = 3000 } = options;
  const deadline = Date.now() + maxMs;
  let last = openFdCount(pid);
  let agreeing = 1;
  while (agreeing < stableReads && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = openFdCount(pid);
    agreeing = now === last ? agreeing + 1 : 1;
    last = now;
  }
  return last;
}
