import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

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
