/*
 * `companion serve` on Node 22 collects its garbage on the main thread only (V8's
 * --single-threaded-gc).
 *
 * With V8's defaults every collection hands work to the platform's worker threads (four here):
 * parallel scavenges, concurrent marking and sweeping. An always-on companion mostly waits, and
 * what it collects after a game's burst of updates is small; spread over four threads it wakes
 * each of them many times, on the cores the game is using. The host's own release once the games
 * go quiet (idle-heap-release.ts) and V8's memory reducer after it were most of its wake-ups
 * after a load. Measured 2026-11-28 (2 cores, Linux 6.18, unpinned; a script outside the
 * repository: `companion serve` alone, 100 clients sending SET_ACTIVITY for 5 s then 10 for 5 s,
 * then every thread's context switches over the next 60 s, and RSS at its end):
 * - Node 22.23.3: V8's threads 154, 165, 166, 176 switches (92-93 MiB); collecting on the main
 *   thread 26 (93.4 MiB).
 * - Node 24.21.0: 80, 95, 100 (110-112 MiB); on the main thread 20 (113 MiB).
 * - CPU per SET_ACTIVITY at 100 clients over 5 s, both hosts side by side, three rounds: Node 22
 *   user 8.5-8.8 µs, system 3.7-4.0 with V8's threads; 8.5-9.1 and 3.3-3.4 on the main thread
 *   (2-5 % more requests served); Node 24 8.8-9.2 + 3.6-3.8 against 8.7-9.2 + 3.2-3.5.
 * - The bench's `arrpc` phase (docs/performance.md, "Idle wake-ups"): on Node 22 the idle RSS
 *   after its load stayed where it was (113 against 110 MiB, arRPC 115); on Node 24 it rose from
 *   126 to 176-191 MiB (peak 185 to 250-265), so Node 24 keeps V8's threads.
 *
 * V8 reads these flags when it sets up the heap: set at run time (v8.setFlagsFromString, even as
 * the first statement of bin/companion.js) V8 stops on "Check failed: concurrent_marking_handle_"
 * at the first collection. So `serve` starts node again with the flag in the same process
 * (serve-exec.ts). Node 22 only: Node 24 keeps V8's threads (above), Node 20 cannot exec. A user
 * who set any collector flag keeps node as started.
 */

/** The node options that make V8 collect on the main thread only. */
export const SINGLE_THREADED_GC = '--single-threaded-gc';

const USER_SET_GC = /--(no-)?(single-threaded-gc|parallel-(scavenge|marking|compaction|pointer-update)|concurrent-(marking|sweeping|array-buffer-sweeping))\b/;

/** What decides the flag: how this node was started. */
export interface NodeStart {
  readonly execPath: string;
  readonly execArgv: readonly string[];
  /** process.argv: node, the script, its arguments. */
  readonly argv: readonly string[];
  readonly nodeOptions: string;
  /** process.versions.node. */
  readonly nodeVersion: string;
}

/** The Node majors whose V8 collects on the main thread only in `serve` (measured per major, above). */
export const SINGLE_THREADED_GC_MAJORS: ReadonlySet<number> = new Set([22]);

/** The argument vector to start node with (the flag first), or undefined when this node runs on as started. */
export function singleThreadedGcArgv(start: NodeStart): readonly string[] | undefined {
  if (!SINGLE_THREADED_GC_MAJORS.has(Number(start.nodeVersion.split('.')[0]))) return undefined;
  if (start.execArgv.some((arg) => USER_SET_GC.test(arg)) || USER_SET_GC.test(start.nodeOptions)) return undefined;
  return [start.execPath, SINGLE_THREADED_GC, ...start.execArgv, ...start.argv.slice(1)];
}
