import v8 from 'node:v8';

/*
 * V8's compilers held back while `companion serve` starts.
 *
 * Startup code runs once: loading 160-odd modules, opening stores, binding sockets, signing in.
 * V8 still compiles some of it with Sparkplug and TurboFan, and the compilers' own code, several
 * MiB of the node binary, then stays resident for the life of the process. So bin/companion.js
 * holds both back for `serve` and serve.ts lets them go once the host has started; the code that
 * runs under load (frame decoding, dispatch, SET_ACTIVITY) gets compiled as usual as soon as it
 * is hot, and the bench's throughput phases measure it so. A user who set any of these flags
 * (node options) keeps them: nothing is held then.
 *
 * Node documents changing V8 flags after start as unpredictable; it stays for what it measurably
 * saves. Measured 2026-11-25 (2 cores, Node 20.20.2, shared with other work): idle VmRSS of
 * `node bin/companion.js serve --runtime-dir D --data-dir D2` (held) against
 * `node --opt bin/companion.js serve ...` (the same V8 defaults, but user-set: nothing held),
 * embedded emulator, no game, 8 pairs started side by side, read 5 s after "listening":
 * held 59.4 MiB median (58.2-60.5), not held 63.4 MiB (62.3-63.7), 4.0 MiB median of the pairs'
 * differences (2.1-5.5). The idle RSS target of `companion serve` is 60 MiB.
 */

const HOLD = '--no-opt --no-sparkplug';
/**
 * Node's defaults for both, and hot code optimized early: after 16,896 bytes of bytecode have
 * run in a function (V8's default waits for three times 67,584), so the hot path is compiled
 * while the first games connect rather than spread over their first seconds of updates.
 *
 * On one CPU the compiler's thread, even at nice 10 (background-priority.ts), keeps that CPU for
 * a scheduler slice each time it runs, so every compile spread over the first updates was a late
 * reply. Measured 2026-11-25 (2 cores, Linux 6.18, server pinned to one CPU, the client on the
 * other): SET_ACTIVITY round trip p99 over 5,000 requests that follow 550 handshakes and 1,000
 * requests on a fresh host, four runs each, interleaved: V8's defaults 566, 690, 659, 605 µs;
 * these 262, 291, 289, 315 µs; arRPC beside them 276, 282, 327, 338 µs (p50 unchanged).
 */
const RELEASE = '--opt --sparkplug --interrupt-budget=16896 --ticks-before-optimization=1';
const USER_SET = /--(no-)?(opt|turbofan|sparkplug|interrupt-budget|ticks-before-optimization)\b/;

let held = false;

/** Before the host's modules load: nothing is compiled beyond bytecode until `compileFromNowOn`. */
export function holdCompilersForStartup(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env['NODE_OPTIONS'] ?? ''): boolean {
  if (execArgv.some((arg) => USER_SET.test(arg)) || USER_SET.test(nodeOptions)) return false;
  v8.setFlagsFromString(HOLD);
  held = true;
  return true;
}

/** Startup is over: hot code is compiled again. A no-op unless held. */
export function compileFromNowOn(): void {
  if (!held) return;
  held = false;
  v8.setFlagsFromString(RELEASE);
}
