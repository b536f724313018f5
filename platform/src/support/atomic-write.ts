import { randomBytes } from 'node:crypto';
import { chmod, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `text` to `<file>.<pid>.<random>.tmp` (mode 0600) and renames it over `file`: a crash
 * leaves the old file or the new one, and at worst the temp file, which
 * `removeStrayTemps` removes at the next start.
 */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('base64url')}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    // The mode given to writeFile is masked by the umask; make sure it is exactly 0600.
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/**
 * Removes the temp files `<name>.<pid>[.<random>].tmp` beside `file` that a writer left when
 * it died between writing and renaming, when `removable(pid)` says their writer is gone.
 * Returns the names removed. A directory that cannot be listed is left alone.
 */
export async function removeStrayTemps(file: string, removable: (pid: number) => boolean): Promise<string[]> {
  const name = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${name}\\.(\\d+)(?:\\.[A-Za-z0-9_-]+)?\\.tmp$`);
  let names: string[];
  try {
    names = await readdir(path.dirname(file));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of names) {
    const match = pattern.exec(entry);
    if (match === null || !removable(Number(match[1]))) continue;
    await unlink(path.join(path.dirname(file), entry)).catch(() => undefined);
    removed.push(entry);
  }
  return removed;
}
