import { chmod, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { probeSlot } from '../../../rpc/src/transport/socket-probe.js';
import { removeStrayTemps, writerGone } from '../../../common/src/node/atomic-file.js';
import { pidExists } from '../../../common/src/node/pid-exists.js';

/**
 * One runtime file per host, `<runtime dir>/companion/host.json`, mode 0600 in a 0700
 * directory. Creating it is also the single-instance lock, made safe against hosts that
 * start at the same moment:
 * - the file appears atomically with its content (written to a temporary file, then
 *   hard-linked into place, which fails if the name exists);
 * - updates replace it with rename, so nobody ever reads a half-written file;
 * - a lock is stale when its pid is gone, or when its recorded socket no longer answers
 *   (a pid reused after a reboot); a stale lock is renamed aside and re-checked before it is
 *   deleted, so a host never deletes a lock another host has just taken.
 */
export interface RuntimeInfo {
  readonly pid: number;
  readonly version: string;
  readonly startedAt: string;
  readonly ipc: { readonly path: string; readonly index: number } | null;
  /**
   * Every socket the host listens on, the primary (`ipc`) first, with the kind of directory
   * (`prefix`, `flatpak`, `snap`, macOS `gui-tmpdir` / `xdg-runtime-dir` / `tmp`).
   */
  readonly listeners?: readonly { readonly path: string; readonly index: number; readonly kind: string }[];
  /** The loopback control API: its URL and the bearer token client commands use. */
  readonly control?: { readonly url: string; readonly token: string };
  /**
   * The headless UI (`companion serve`): its base URL (`http://127.0.0.1:PORT/`) and the token
   * to open it with once (`<url>?token=<token>`).
   */
  readonly webUi?: { readonly url: string; readonly token: string };
  /** The platform the host talks to; the embedded emulator's admin token when it is ours. */
  readonly platform?: { readonly url: string; readonly embedded: boolean; readonly adminToken?: string };
}

export class AlreadyRunningError extends Error {
  constructor(
    readonly pid: number,
    readonly file: string,
  ) {
    super(`Companion is already running (pid ${pid}, runtime file ${file})`);
    this.name = 'AlreadyRunningError';
  }
}

export function runtimeFilePath(runtimeDir: string): string {
  return path.join(runtimeDir, 'companion', 'host.json');
}

/**
 * The runtime file of a second host (--allow-second): `host-<index>.json` beside the lock,
 * not a lock itself, so client commands can still find it with `--host FILE`.
 */
export async function writeSecondaryRuntimeFile(runtimeDir: string, index: number, info: RuntimeInfo): Promise<{ file: string; remove(): Promise<void> }> {
  const file = path.join(runtimeDir, 'companion', `host-${index}.json`);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await removeStrayTemps(file, writerGone);
  const tmp = await writeTemp(file, info);
  await rename(tmp, file);
  return { file, remove: () => rm(file, { force: true }) };
}

export class RuntimeFile {
  private constructor(readonly file: string) {}

  /** Takes the lock, or throws AlreadyRunningError when a live host holds it. */
  static async acquire(runtimeDir: string, info: RuntimeInfo): Promise<RuntimeFile> {
    const file = runtimeFilePath(runtimeDir);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Temps and set-aside locks of hosts that died mid-write (several hosts share the dir).
    await removeStrayTemps(file, writerGone);
    const tmp = await writeTemp(file, info);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        try {
          await link(tmp, file);
          return new RuntimeFile(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const holder = await readInfo(file);
        if (holder !== undefined && (await isLive(holder))) throw new AlreadyRunningError(holder.pid, file);
        await removeIfStill(file, holder);
      }
      throw new Error(`cannot take ${file}: other hosts keep replacing it`);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async update(info: RuntimeInfo): Promise<void> {
    const tmp = await writeTemp(this.file, info);
    await rename(tmp, this.file);
  }

  async release(): Promise<void> {
    const holder = await readInfo(this.file);
    if (holder?.pid === process.pid) await rm(this.file, { force: true });
  }
}

async function writeTemp(file: string, info: RuntimeInfo): Promise<string> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(info, null, 2), { mode: 0o600 });
  await chmod(tmp, 0o600);
  return tmp;
}

async function readInfo(file: string): Promise<RuntimeInfo | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<RuntimeInfo>;
    return typeof parsed.pid === 'number' ? (parsed as RuntimeInfo) : undefined;
  } catch {
    return undefined;
  }
}

/** A holder is live when its process exists and, once it has bound, its socket answers. */
async function isLive(holder: RuntimeInfo): Promise<boolean> {
  if (holder.pid === process.pid || !pidExists(holder.pid)) return false;
  if (holder.ipc === null) return true; // still starting
  return (await probeSlot(holder.ipc.path)).kind === 'live';
}

/**
 * Removes a stale lock without ever removing a fresh one: move it aside, look at what was
 * moved, and put it back if it turned out to be another host's new lock.
 */
async function removeIfStill(file: string, seen: RuntimeInfo | undefined): Promise<void> {
  const aside = `${file}.${process.pid}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else removed it
    throw error;
  }
  const moved = await readInfo(aside);
  const replaced = moved !== undefined && (seen === undefined || moved.pid !== seen.pid || moved.startedAt !== seen.startedAt);
  if (replaced && (await isLive(moved))) {
    try {
      await link(aside, file);
    } catch {
      // a third host took the name meanwhile; the live one we moved will find its lock gone
    }
  }
  await rm(aside, { force: true });
}
