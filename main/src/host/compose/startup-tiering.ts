import v8 from 'node:v8';

/*
 * V8's compilers held back while `companion serve` starts.
 *
 * Startup code runs once: loading 160-odd modules, opening stores, binding sockets, signing in.
 * V8 still compiles some of it with its baseline and optimizing compilers, and the compilers'
 * own code, several MiB of the node binary, then stays resident for the life of the process.
 * So bin/companion.js holds them back for `serve` and serve.ts lets them go once the host has
 * started; the code that runs under load (frame decoding, dispatch, SET_ACTIVITY) gets compiled
 * as usual as soon as it is hot, and the bench's throughput phases measure it so. A user who set
 * any of these flags (node options) keeps them: nothing is held then.
 *
 * V8's flags differ between Node majors (Node 22 and 24 have no --interrupt-budget, Node 24
 * has Maglev on by default), and an unknown flag makes V8 print "unrecognized flag" on stderr
 * and drop the rest of the string. So each supported Node major has its own flags below, every
 * one of them in that Node's `node --v8-options` (main/test/packaging/node-versions.test.ts
 * checks it on each), and any other major is left with V8's defaults.
 *
 * Node documents changing V8 flags after start as unpredictable; it stays for what it measurably
 * saves (docs/performance.md, "Start-up tiering per Node version"). Measured 2026-11-25 (2
 * cores, Node 20.20.2, shared with other work): idle VmRSS of
 * `node bin/companion.js serve --runtime-dir D --data-dir D2` (held) against
 * `node --opt bin/companion.js serve ...` (the same V8 defaults, but user-set: nothing held),
 * embedded emulator, no game, 8 pairs started side by side, read 5 s after "listening":
 * held 59.4 MiB median (58.2-60.5), not held 63.4 MiB (62.3-63.7), 4.0 MiB median of the pairs'
 * differences (2.1-5.5). The idle RSS target of `companion serve` is 60 MiB.
 */

/** What is set while `serve` starts, and once it has started. */
export interface TieringFlags {
  readonly hold: string;
  readonly release: string;
}

/**
 * Node 20 (V8 11.3): V8's defaults for both compilers, and hot code optimized early: after
 * 16,896 bytes of bytecode have run in a function (V8's default waits for three times 67,584),
 * so the hot path is compiled while the first games connect rather than spread over their
 * first seconds of updates.
 *
 * On one CPU the compiler's thread, even at nice 10 (background-priority.ts), keeps that CPU for
 * a scheduler slice each time it runs, so every compile spread over the first updates was a late
 * reply. Measured 2026-11-25 (2 cores, Linux 6.18, server pinned to one CPU, the client on the
 * other): SET_ACTIVITY round trip p99 over 5,000 requests that follow 550 handshakes and 1,000
 * requests on a fresh host, four runs each, interleaved: V8's defaults 566, 690, 659, 605 µs;
 * these 262, 291, 289, 315 µs; arRPC beside them 276, 282, 327, 338 µs (p50 unchanged).
 */
const NODE_20: TieringFlags = {
  hold: '--no-opt --no-sparkplug',
  release: '--opt --sparkplug --interrupt-budget=16896 --ticks-before-optimization=1',
};

/**
 * Node 22 and 24 count invocations instead of bytecode budgets, so code that runs a few hundred
 * times, like the handshake's (the application's lookup, READY), stayed in the baseline tiers
 * for V8's 3,000 calls before TurboFan (400 before Maglev on 24). Measured 2026-11-28 (2 cores,
 * Linux 6.18, unpinned): fresh servers, 50 + 500 handshakes of one application to READY,
 * Companion with the defaults, Companion with these, and arRPC interleaved, three rounds; p50
 * in us. Node 22.23.3: defaults 340, 352, 311; these 255, 311, 243; arRPC 277, 297, 265.
 * Node 24.21.0 (Maglev 100 / TurboFan 1,000): defaults 273, 271, 260; these 221, 218, 202;
 * arRPC 211, 204, 201. CPU per SET_ACTIVITY at 100 clients and start RSS unchanged within the
 * runs' spread (10.6-11.8 us user, 73.5-74.1 MiB on 24; 69.7-70.3 MiB on 22).
 *
 * Node 22 (V8 12.4, built without Maglev): TurboFan after 300 calls, 50 after a type change.
 */
const NODE_22: TieringFlags = {
  hold: '--no-opt --no-sparkplug',
  release: '--opt --sparkplug --invocation-count-for-turbofan=300 --minimum-invocations-after-ic-update=50',
};

/**
 * Node 24 (V8 13.6): Maglev, the mid-tier optimizing compiler, is on by default and held too;
 * after the start, Maglev after 100 calls, TurboFan after 1,000, 100 after a type change.
 *
 * Its baseline compiler (Sparkplug, a few µs a batch of functions) works on a worker thread by
 * default (Node 20 and 22: on the main thread), so an idle host that runs a little code (the
 * gateway heartbeat, the heap release) woke V8's worker threads for it: on the main thread here.
 * Measured 2026-11-29 (2 cores, Linux 6.18, unpinned; a script outside the repository:
 * `companion serve` alone, 100 clients sending SET_ACTIVITY for 5 s then 10 for 5 s, then every
 * thread's context switches over the next 60 s): 13, 13, 17 with V8's default (of which V8's
 * worker threads 3-7, a `perf record -e sched:sched_wakeup -g` showed them woken by
 * BaselineBatchCompiler::CompileBatchConcurrent), 7, 7, 7 with it off (worker threads 0).
 */
const NODE_24: TieringFlags = {
  hold: '--no-opt --no-sparkplug --no-maglev',
  release: '--opt --sparkplug --no-concurrent-sparkplug --maglev --invocation-count-for-maglev=100 --invocation-count-for-turbofan=1000 --minimum-invocations-after-ic-update=100',
};

const BY_MAJOR: Readonly<Record<number, TieringFlags>> = { 20: NODE_20, 22: NODE_22, 24: NODE_24 };

/** The flags for this Node (`process.versions.node`); undefined for a major not known here: nothing is held. */
export function tieringFlagsFor(nodeVersion: string = process.versions.node): TieringFlags | undefined {
  return BY_MAJOR[Number(nodeVersion.split('.')[0])];
}

/** Node majors with their own flags, for the tests that check each against its V8. */
export const TIERED_NODE_MAJORS: readonly number[] = Object.keys(BY_MAJOR).map(Number);

const USER_SET = /--(no-)?(opt|turbofan|sparkplug|concurrent-sparkplug|maglev|interrupt-budget|ticks-before-optimization|invocation-count-for-[a-z-]+|minimum-invocations-[a-z-]+)\b/;

let held: TieringFlags | undefined;

/**
 * Before the host's modules load: nothing is compiled beyond bytecode until `compileFromNowOn`.
 * False (nothing set) when the user set a compiler flag or this Node major has no flags here.
 */
export function holdCompilersForStartup(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? '', nodeVersion = process.versions.node): boolean {
  if (execArgv.some((arg) => USER_SET.test(arg)) || USER_SET.test(nodeOptions)) return false;
  const flags = tieringFlagsFor(nodeVersion);
  if (flags === undefined) return false;
  v8.setFlagsFromString(flags.hold);
  held = flags;
  return true;
}

/** Startup is over: hot code is compiled again. A no-op unless held. */
export function compileFromNowOn(): void {
  if (held === undefined) return;
  const { release } = held;
  held = undefined;
  v8.setFlagsFromString(release);
}
