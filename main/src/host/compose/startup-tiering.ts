import v8 from 'node:v8';

/*
 * V8's compilers held back while `companion serve` starts.
 *
 * Startup code runs once: loading 160-odd modules, opening stores, binding sockets, signing in.
 * V8 still compiles some of it with Sparkplug and TurboFan, and the compilers' own code, several
 * MiB of the node binary, then stays resident for the life of the process. In `npm run bench`'s
 * embedded-rss phase a host started this way idles about 3.5 MiB lower (63.2 MiB median before,
 * 59.4 after). So bin/companion.js holds both back for `serve` and serve.ts lets them go once the
 * host has started; the code that runs under load (frame decoding, dispatch, SET_ACTIVITY) gets
 * compiled as usual as soon as it is hot, and the bench's throughput phases measure it so.
 * A user who set any of these flags (node options) keeps them: nothing is held then.
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
