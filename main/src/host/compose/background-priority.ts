import { readdirSync } from 'node:fs';
import os from 'node:os';

/*
 * `companion serve` answers games on its main thread; V8's background threads (the optimizing
 * compiler, concurrent marking and sweeping) run at a lower priority, so on a busy CPU they
 * take the time the main thread leaves and never delay a reply. On a machine with idle cores
 * nothing changes: they run there.
 *
 * A fresh host compiles its hot path while the first games talk to it (some 150 functions
 * optimized over the first few thousand SET_ACTIVITY): with the compiler's thread at the main
 * thread's priority on the same CPU, a request that arrived during a compile waited up to a
 * scheduler slice for it.
 *
 * Measured 2026-11-25 (2 cores shared with other work, servers pinned to one CPU, the client on
 * the other): SET_ACTIVITY round trip p99 over 5,000 requests after 1,000 of warm-up on a fresh
 * host, five runs side by side: 1026, 1146, 1629, 1114, 846 µs at the same priority; 617, 732,
 * 833, 685, 690 µs at nice 10; 508, 629, 876, 472, 490 µs at nice 19 (arRPC beside them: 297,
 * 388, 652, 432, 412 µs).
 *
 * Tried and not kept (2026-11-25, Linux 6.18): SCHED_IDLE through util-linux's chrt. Since
 * Linux 6.6 (EEVDF) a running thread keeps the CPU for its slice (0.75 ms) whatever its nice
 * value, while a SCHED_IDLE thread gives it up as soon as a normal one wakes: the p99 above fell
 * to 366-374 µs. But on a CPU the main thread saturates, idle-class threads get almost nothing:
 * code that had to be optimized under 100 clients stayed unoptimized, and the server's CPU per
 * request ranged from 16 to 46 µs over seven rounds (15.7-18.8 µs at nice 10).
 *
 * Called as `serve` starts (bin/companion.js). An ES module entry has already read files
 * asynchronously by then, so the libuv pool (file I/O) exists and is lowered too. Keeping the
 * pool at the main thread's priority (its threads are the newest ones) was measured: start RSS
 * 57.8-58.0 MiB against 54.1-54.3 with it lowered, for no gain we could measure. Linux only: a
 * nice value there is per thread.
 */

/**
 * Nice 10: the main thread always wins a contended CPU, yet concurrent marking and sweeping keep
 * about a tenth of it, so a CPU saturated by requests does not starve them (the heap would then
 * grow until the main thread finishes the marking itself).
 */
const BACKGROUND = os.constants.priority.PRIORITY_BELOW_NORMAL;

/** Lowers every thread of this process but the main one to nice 10; returns how many were lowered. */
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
      os.setPriority(id, BACKGROUND);
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
