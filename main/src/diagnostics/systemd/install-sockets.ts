import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../../../rpc/src/index.js';
import { SERVICE_UNIT, UNIT_MARKER, socketUnitFiles, type SocketUnitOptions } from './socket-units.js';

/** `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`. */
export function userUnitDir(env: Env): string {
  return path.join(configHome(env), 'systemd', 'user');
}

/** What install-sockets wrote, so uninstall-sockets removes exactly that: `$XDG_CONFIG_HOME/companion/installed-sockets.json`. */
export function manifestPath(env: Env): string {
  return path.join(configHome(env), 'companion', 'installed-sockets.json');
}

function configHome(env: Env): string {
  return env['XDG_CONFIG_HOME'] || path.join(env['HOME'] || os.homedir(), '.config');
}

interface Manifest {
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  readonly enabled: readonly string[];
}

/** Runs `systemctl --user ...`; absent when there is no systemctl on PATH. */
export type Systemctl = (args: readonly string[]) => Promise<{ ok: true } | { ok: false; message: string }>;

/** Finds systemctl on PATH; undefined when there is none (the calls are then skipped with a note). */
export async function findSystemctl(env: Env): Promise<Systemctl | undefined> {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, 'systemctl');
    try {
      await access(candidate, constants.X_OK);
    } catch {
      continue;
    }
    return (args) =>
      new Promise((resolve) => {
        execFile(candidate, ['--user', ...args], { env: { ...env }, timeout: 15_000 }, (error, _stdout, stderr) => {
          if (error === null) resolve({ ok: true });
          else resolve({ ok: false, message: (stderr.trim().split('\n')[0] ?? '') || error.message });
        });
      });
  }
  return undefined;
}

export class UnitConflictError extends Error {
  constructor(readonly file: string) {
    super(`${file} exists and was not written by 'companion install-sockets'; move it away or remove it first`);
    this.name = 'UnitConflictError';
  }
}

/**
 * Writes the socket and service units (a unit of the same name that Companion did not write
 * is never overwritten), records them in the manifest, then `systemctl --user daemon-reload`
 * and `enable` for the sockets when systemctl exists. Returns lines saying what it did.
 */
export async function installSockets(env: Env, options: SocketUnitOptions, systemctl: Systemctl | undefined): Promise<string[]> {
  const dir = userUnitDir(env);
  const units = socketUnitFiles(options);
  for (const unit of units) {
    const file = path.join(dir, unit.name);
    const existing = await readText(file);
    if (existing !== undefined && !existing.startsWith(UNIT_MARKER)) throw new UnitConflictError(file);
  }
  const previous = await readManifest(env);
  const lines: string[] = [];
  await mkdir(dir, { recursive: true });
  const files: { path: string; sha256: string }[] = [];
  for (const unit of units) {
    const file = path.join(dir, unit.name);
    await writeFile(file, unit.content, { mode: 0o644 });
    files.push({ path: file, sha256: sha256(unit.content) });
    lines.push(`wrote ${file}`);
  }
  // Units of an earlier install that this one no longer has (e.g. --snap dropped).
  for (const old of previous?.files ?? []) {
    if (files.some((file) => file.path === old.path)) continue;
    if (await removeIfUnchanged(old)) lines.push(`removed ${old.path} (no longer part of the install)`);
  }
  const sockets = units.filter((unit) => unit.name.endsWith('.socket')).map((unit) => unit.name);
  const manifest: Manifest = { files, enabled: sockets };
  await mkdir(path.dirname(manifestPath(env)), { recursive: true, mode: 0o700 });
  await writeFile(manifestPath(env), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  lines.push(`recorded them in ${manifestPath(env)}`);
  lines.push(...(await runSystemctl(systemctl, [['daemon-reload'], ['enable', ...sockets]])));
  return lines;
}

/**
 * Undoes installSockets: `systemctl --user disable --now` for what it enabled (and stops the
 * service), removes the files it wrote when they are unchanged, `daemon-reload`, and the
 * manifest. A file edited since is left in place, and said so.
 */
export async function uninstallSockets(env: Env, systemctl: Systemctl | undefined): Promise<string[]> {
  const manifest = await readManifest(env);
  if (manifest === undefined) return [`nothing to remove: no install recorded (${manifestPath(env)} does not exist)`];
  const lines: string[] = [];
  lines.push(...(await runSystemctl(systemctl, [['disable', '--now', ...manifest.enabled], ['stop', SERVICE_UNIT]])));
  for (const file of manifest.files) {
    const removed = await removeIfUnchanged(file);
    if (removed) lines.push(`removed ${file.path}`);
    else if ((await readText(file.path)) === undefined) lines.push(`${file.path} was already gone`);
    else lines.push(`left ${file.path} in place: it was changed since install-sockets wrote it`);
  }
  lines.push(...(await runSystemctl(systemctl, [['daemon-reload']])));
  await rm(manifestPath(env), { force: true });
  lines.push(`removed ${manifestPath(env)}`);
  return lines;
}

async function runSystemctl(systemctl: Systemctl | undefined, calls: readonly (readonly string[])[]): Promise<string[]> {
  if (systemctl === undefined) {
    return [`systemctl not found: skipped ${calls.map((args) => `'systemctl --user ${args.join(' ')}'`).join(' and ')}; run them where your user session has systemd`];
  }
  const lines: string[] = [];
  for (const args of calls) {
    const result = await systemctl(args);
    lines.push(result.ok ? `ran systemctl --user ${args.join(' ')}` : `systemctl --user ${args.join(' ')} failed: ${result.message}`);
  }
  return lines;
}

async function readManifest(env: Env): Promise<Manifest | undefined> {
  const text = await readText(manifestPath(env));
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Manifest>;
    if (Array.isArray(parsed.files) && Array.isArray(parsed.enabled)) return parsed as Manifest;
  } catch {
    // fall through
  }
  throw new Error(`${manifestPath(env)} is not a manifest written by install-sockets; remove the units by hand`);
}

async function removeIfUnchanged(file: { path: string; sha256: string }): Promise<boolean> {
  const text = await readText(file.path);
  if (text === undefined || sha256(text) !== file.sha256) return false;
  await rm(file.path, { force: true });
  return true;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
