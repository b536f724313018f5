/*
 * How V8 collects in `companion serve` on Node 22 and 24: on the main thread only
 * (--single-threaded-gc), and without V8's memory reducer (--no-memory-reducer).
 *
 * With V8's defaults every collection hands work to the platform's worker threads (four here):
 * parallel scavenges, concurrent marking and sweeping. An always-on companion mostly waits, and
 * what it collects after a game's burst of updates is small; spread over four threads it wakes
 * each of them many times, on the cores the game is using. The host's own release once the games
 * go quiet (idle-heap-release.ts) and V8's memory reducer after it were most of its wake-ups
 * after a load. The memory reducer also wakes the main thread every 8 s for as long as it waits
 * for the allocation rate to drop, and then collects again, after the host's release already
 * gave back what there was: with it off, that release (armed by every game update and gateway
 * dispatch) is the one that shrinks the heap once the host goes quiet.
 *
 * Measured (2 cores, Linux 6.18, unpinned; a script outside the repository: `companion serve`
 * alone, 100 clients sending SET_ACTIVITY for 5 s then 10 for 5 s, then every thread's context
 * switches over the next 60 s, and RSS at its end):
 * - 2026-11-28, Node 22.23.3: V8's threads 154, 165, 166, 176 switches (92-93 MiB); collecting on
 *   the main thread 26 (93.4 MiB). Node 24.21.0 (then with glibc's many arenas): 80, 95, 100
 *   (110-112 MiB); on the main thread 20 (113 MiB).
 * - 2026-11-29, Node 24.21.0 with one malloc arena (malloc-arenas.ts): V8's defaults 90, 156,
 *   177 (96-98 MiB); one worker thread (--v8-pool-size=1) 33, 37, and 28, 37 without the memory
 *   reducer as well; --no-memory-reducer alone 73, 93; on the main thread and without the memory
 *   reducer 10, 13, 16 (97.5-100.7 MiB; peak RSS 143 against 136). arRPC after the same load: 11,
 *   all on its main thread.
 * - CPU per SET_ACTIVITY at 100 clients over 5 s, both hosts side by side: Node 22 (2026-11-28,
 *   three rounds) user 8.5-8.8 µs, system 3.7-4.0 with V8's threads; 8.5-9.1 and 3.3-3.4 on the
 *   main thread. Node 24 (2026-11-29, four rounds) user 8.8-9.3 + system 3.7-4.2 with V8's
 *   threads, 9.4-11.0 + 3.6-3.9 with both flags: about 7 % more CPU under a load no player makes,
 *   for a host that stays asleep once the games are quiet.
 *
 * V8 reads these flags when it sets up the heap: set at run time (v8.setFlagsFromString, even as
 * the first statement of bin/companion.js) V8 stops on "Check failed: concurrent_marking_handle_"
 * at the first collection. So `serve` starts node again with them in the same process
 * (serve-exec.ts). Node 20 cannot exec and keeps V8's defaults. A user who set any collector
 * flag keeps node as started.
 */

/** The node options `serve` runs with on the majors in COLLECTOR_FLAG_MAJORS. */
export const COLLECTOR_FLAGS: readonly string[] = ['--single-threaded-gc', '--no-memory-reducer'];

const USER_SET_GC = /--(no-)?(single-threaded-gc|memory-reducer|parallel-(scavenge|marking|compaction|pointer-update)|concurrent-(marking|sweeping|array-buffer-sweeping))\b/;

/** What decides the flags: how this node was started. */
export interface NodeStart {
  readonly execPath: string;
  readonly execArgv: readonly string[];
  /** process.argv: node, the script, its arguments. */
  readonly argv: readonly string[];
  readonly nodeOptions: string;
  /** process.versions.node. */
  readonly nodeVersion: string;
}

/** The Node majors whose `serve` runs with COLLECTOR_FLAGS (measured per major, above). */
export const COLLECTOR_FLAG_MAJORS: ReadonlySet<number> = new Set([22, 24]);

/** The argument vector to start node with (the flags first), or undefined when this node runs on as started. */
export function collectorArgv(start: NodeStart): readonly string[] | undefined {
  if (!COLLECTOR_FLAG_MAJORS.has(Number(start.nodeVersion.split('.')[0]))) return undefined;
  if (start.execArgv.some((arg) => USER_SET_GC.test(arg)) || USER_SET_GC.test(start.nodeOptions)) return undefined;
  return [start.execPath, ...COLLECTOR_FLAGS, ...start.execArgv, ...start.argv.slice(1)];
}
