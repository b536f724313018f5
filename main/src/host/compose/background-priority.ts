import { readdirSync } from 'node:fs';
import os from 'node:os';

/*
 * `companion serve` answers games on its main thread; V8's background threads (the optimizing
 * compiler, concurrent marking and sweeping) run at the lowest priority, so on a busy CPU they
 * take the time the main thread leaves and never delay a reply. On a machine with idle cores
 * nothing changes: they run there.
 *
 * A fresh host compiles its hot path while the first games talk to it (some 150 functions
 * optimized over the first few thousand SET_ACTIVITY): with the compiler's thread at the main
 * thread's priority on the same CPU, a request that arrived during a compile waited up to a
 * scheduler slice for it. The collector's parallel phases (the scavenge, parts of a full
 * collection) make the main thread wait for its helpers, which at the lowest priority could be
 * starved by other processes: they run on the main thread alone instead.
 *
 * Measured 2026-11-25 (2 cores shared with other work, servers pinned to one CPU, the client on
 * the other): SET_ACTIVITY round trip p99 over 5,000 requests after 1,000 of warm-up on a fresh
 * host, three runs with little other load: 1807, 1352, 1565 µs at the same priority; 717, 453,
 * 783 µs with the background threads at the lowest (arRPC beside them: 372, 800, 525 µs).
 *
 * Called as `serve` starts (bin/companion.js), before the libuv pool exists: its threads (file
 * I/O) are made later by the main thread and keep its priority. Linux only: a nice value there
 * is per thread.
 */

/** The lowest priority (nice 19). */
const LOWEST = os.constants.priority.PRIORITY_LOW;

/** Lowers every thread of this process but the main one; returns how many were lowered. */
export function lowerBackgroundThreads(tasksDir = '/proc/self/task', mainTid = process.pid): number {
  if (process.platform !== 'linux') return 0;
  let tids: string[];
  try {
    tids = readdirSync(tasksDir);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const tid of tids) {
    const id = Number(tid);
    if (!Number.isInteger(id) || id === mainTid) continue;
    try {
      os.setPriority(id, LOWEST);
      lowered += 1;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return lowered;
}

/** For `companion serve`: V8's background threads below the main thread. */
export function backgroundThreadsYield(): void {
  lowerBackgroundThreads();
}
