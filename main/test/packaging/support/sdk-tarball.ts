/**
 * The SDK package as a game gets it: `npm run sdk:pack` (scripts/sdk-pack.mjs) builds and packs
 * sdk/ into out/packages/, and `npm install --offline <tgz>` puts it into an empty folder.
 */
import { execFile } from 'node:child_process';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../support/cli-process.js';

const run = promisify(execFile);

export interface SdkPack {
  readonly name: string;
  readonly version: string;
  /** Absolute path of the .tgz. */
  readonly tarball: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly { readonly path: string; readonly size: number }[];
  readonly dependencies: Readonly<Record<string, string>>;
  /** The names the entries export at run time. */
  readonly exports: readonly string[];
}

/** The one command: `npm run sdk:pack` (its JSON summary). */
export async function packSdk(): Promise<SdkPack> {
  const { stdout } = await run('npm', ['run', '--silent', 'sdk:pack', '--', '--json'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as SdkPack;
}

interface LockEntry {
  readonly dependencies?: Record<string, string>;
  readonly [field: string]: unknown;
}

/**
 * Lockfile entries for `names` and what they depend on, copied from the project's own
 * package-lock.json. With them, npm takes those packages, at the project's versions, from the
 * npm cache that the project's install filled, exactly as that install found them: offline.
 * Without them, `npm install --offline <tgz>` fails on a fresh machine (ENOTCACHED): for a
 * dependency that is new to a folder npm asks for the registry's full metadata, while an
 * install from the project's lockfile (no `resolved` URLs) cached only the abbreviated
 * install metadata. A name the project does not install fails here.
 */
async function lockEntriesFor(names: readonly string[]): Promise<Record<string, LockEntry>> {
  const lock = JSON.parse(await readFile(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const entries: Record<string, LockEntry> = {};
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const key = `node_modules/${name}`;
    if (key in entries) continue;
    const entry = lock.packages[key];
    if (entry === undefined) throw new Error(`the SDK depends on ${name}, which the project's package-lock.json does not install`);
    entries[key] = { ...entry, extraneous: true };
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  return entries;
}

export interface Installed {
  /** npm's "added N packages". */
  readonly added: number;
  /** The folders in node_modules/. */
  readonly packages: readonly string[];
  readonly output: string;
}

/**
 * A game's folder: package.json (an ES module package) and nothing else but the lock entries of
 * the SDK's own dependencies; then `npm install --offline --no-audit --no-fund ./<tgz>`.
 */
export async function installTarball(pack: SdkPack, folder: string): Promise<Installed> {
  const tarball = path.basename(pack.tarball);
  await copyFile(pack.tarball, path.join(folder, tarball));
  await writeFile(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'tarball-game', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const lock = { name: 'tarball-game', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'tarball-game', version: '1.0.0' }, ...(await lockEntriesFor(Object.keys(pack.dependencies))) } };
  await writeFile(path.join(folder, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  const { stdout, stderr } = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: folder });
  const added = /added (\d+) packages?/.exec(stdout)?.[1];
  if (added === undefined) throw new Error(`npm install printed no "added N packages": ${stdout}${stderr}`);
  const packages = (await readdir(path.join(folder, 'node_modules'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return { added: Number(added), packages, output: stdout + stderr };
}
