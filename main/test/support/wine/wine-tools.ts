/**
 * Whether this machine can run the Windows tests: Wine (Debian's `wine` and `wine64`) and the
 * mingw-w64 C compiler, found on PATH. Where they are missing a test says so in one line and
 * skips, except under CI, where it fails (.ci/run installs them), the policy of
 * node-versions.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const MINGW_GCC = 'x86_64-w64-mingw32-gcc';

export const INSTALL_HINT = 'install them with `sudo apt-get install -y wine wine64 gcc-mingw-w64-x86-64` (Debian/Ubuntu)';

export interface WineTools {
  readonly wine: string;
  readonly wineserver: string;
  readonly gcc: string;
}

/** The tools' paths, or the one line that says what is missing and how to get it. */
export type WineToolsFound = { readonly ok: true; readonly tools: WineTools } | { readonly ok: false; readonly line: string };

/** The first executable `name` on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function findWineTools(env: NodeJS.ProcessEnv = process.env): WineToolsFound {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { ok: false, line: `the Wine tests run on Linux x64 (this is ${process.platform} ${process.arch})` };
  const wine = onPath('wine', env);
  const wineserver = onPath('wineserver', env);
  const gcc = onPath(MINGW_GCC, env);
  const missing = [wine === undefined ? 'wine' : [], wineserver === undefined ? 'wineserver' : [], gcc === undefined ? MINGW_GCC : []].flat();
  if (wine === undefined || wineserver === undefined || gcc === undefined) return { ok: false, line: `${missing.join(', ')} not found: ${INSTALL_HINT}` };
  // Debian's `wine` without the 64-bit loader (the wine64 package) cannot start a 64-bit exe.
  const version = spawnSync(wine, ['--version'], { encoding: 'utf8', env: { ...env, WINEDEBUG: '-all' } });
  if (version.status !== 0) return { ok: false, line: `wine --version failed (${(version.stderr || version.error?.message || '').trim()}): ${INSTALL_HINT}` };
  return { ok: true, tools: { wine, wineserver, gcc } };
}

/** CI=true (any value but '', 'false', '0'): a test that cannot run is a failure, not a skip. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
