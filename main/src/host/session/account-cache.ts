import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformUser } from '../../../../platform/src/wire/index.js';
import { removeStrayTemps, writeFileAtomic, writerGone } from '../../../../common/src/node/atomic-file.js';

/**
 * The last account the host signed in with: `<data dir>/account.json`, mode 0600. It holds
 * the user object only, never a token, so that games still get READY with the right user
 * while the platform is unreachable.
 */
export class AccountCache {
  constructor(private readonly dataDir: string) {}

  get file(): string {
    return path.join(this.dataDir, 'account.json');
  }

  /** The cached user; also removes the temps of interrupted writes (this is read once, at start). */
  async read(): Promise<PlatformUser | null> {
    await removeStrayTemps(this.file, writerGone);
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as { user?: PlatformUser };
      return typeof parsed.user?.id === 'string' && typeof parsed.user.username === 'string' ? parsed.user : null;
    } catch {
      return null;
    }
  }

  /** Writes one after another, so the last call's user is what the file ends up holding. */
  write(user: PlatformUser | null): Promise<void> {
    const next = this.last.catch(() => undefined).then(() => this.writeNow(user));
    this.last = next;
    return next;
  }

  private last: Promise<void> = Promise.resolve();

  /** Resolves once every write asked for so far has finished (or failed). */
  flush(): Promise<void> {
    return this.last.catch(() => undefined);
  }

  private async writeNow(user: PlatformUser | null): Promise<void> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, JSON.stringify({ user, savedAt: new Date().toISOString() }, null, 2));
  }
}
