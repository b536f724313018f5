/** Builds a Windows program from C with mingw-w64: 64-bit, statically linked (no DLL beside it). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MINGW_GCC } from './wine-tools.js';

const run = promisify(execFile);

/** `x86_64-w64-mingw32-gcc -O2 -static -Wall -Wextra -Werror -o OUT SOURCES... LIBS...`; throws with the compiler's output. */
export async function buildWindowsC(sources: readonly string[], out: string, options: { gcc?: string; libs?: readonly string[] } = {}): Promise<string> {
  const args = ['-O2', '-static', '-Wall', '-Wextra', '-Werror', '-o', out, ...sources, ...(options.libs ?? [])];
  try {
    await run(options.gcc ?? MINGW_GCC, args, { timeout: 120_000 });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${MINGW_GCC} ${args.join(' ')} failed: ${stderr?.trim() || message}`);
  }
  return out;
}
