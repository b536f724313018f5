import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pidExists } from './pid-exists.js';

/**
 * Writes `data` to a unique temp file next to `file` (mode 0600), fsyncs it, renames it over
 * `file` and fsyncs the directory (best effort), so the rename itself is durable. On failure
 * the temp file is removed and `file` is untouched.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('base64url')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    try {
      // The umask may have narrowed it further, never widened; chmod makes it exact.
      await handle.chmod(0o600);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(path.dirname(file));
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported everywhere (e.g. Windows); the rename is still atomic.
  }
}

/**
 * Removes what `writeFileAtomic(file)` leaves when its writer dies between writing and
 * renaming: the temp files `<name>.<pid>.<random>.tmp` beside `file` (and the runtime file's
 * `<name>.<pid>.tmp` / `<name>.<pid>.stale`) whose pid `removable` accepts. `removed` is told
 * each name once its removal was tried, and the names are returned. A directory that cannot be
 * listed is left alone.
 */
export async function removeStrayTemps(file: string, removable: (pid: number) => boolean, removed?: (name: string) => void): Promise<string[]> {
  const dir = path.dirname(file);
  const name = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${name}\\.(\\d+)(?:\\.[A-Za-z0-9_-]+)?\\.(?:tmp|stale)$`);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const gone: string[] = [];
  for (const entry of names) {
    const match = pattern.exec(entry);
    if (match === null || !removable(Number(match[1]))) continue;
    await unlink(path.join(dir, entry)).catch(() => undefined);
    removed?.(entry);
    gone.push(entry);
  }
  return gone;
}

/** A temp file's writer is gone: not this process, and no process has its pid. For files several hosts may write. */
export function writerGone(pid: number): boolean {
  return pid !== process.pid && !pidExists(pid);
}
