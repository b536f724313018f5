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
/** Node's defaults for both. */
const RELEASE = '--opt --sparkplug';
const USER_SET = /--(no-)?(opt|turbofan|sparkplug)\b/;

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
