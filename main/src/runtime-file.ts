import { chmod, mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * One runtime file per host, `<runtime dir>/companion/host.json`, mode 0600 in a 0700
 * directory. Creating it exclusively is also the single-instance lock: a second host for the
 * same user and directory finds it, sees that its pid is alive, and stops.
 */
export interface RuntimeInfo {
  readonly pid: number;
  readonly version: string;
  readonly startedAt: string;
  readonly ipc: { readonly path: string; readonly index: number } | null;
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

export class RuntimeFile {
  private constructor(readonly file: string) {}

  /** Takes the lock, or throws AlreadyRunningError when a live host holds it. */
  static async acquire(runtimeDir: string, info: RuntimeInfo): Promise<RuntimeFile> {
    const file = runtimeFilePath(runtimeDir);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const handle = await open(file, 'wx', 0o600);
        try {
          await handle.writeFile(JSON.stringify(info, null, 2));
        } finally {
          await handle.close();
        }
        await chmod(file, 0o600);
        return new RuntimeFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = await readHolder(file);
        if (holder !== undefined && holder !== process.pid && isAlive(holder)) throw new AlreadyRunningError(holder, file);
        await rm(file, { force: true }); // left behind by a host that died
      }
    }
    throw new Error(`cannot create ${file}`);
  }

  async update(info: RuntimeInfo): Promise<void> {
    const handle = await open(this.file, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(info, null, 2));
    } finally {
      await handle.close();
    }
  }

  async release(): Promise<void> {
    const holder = await readHolder(this.file);
    if (holder === process.pid) await rm(this.file, { force: true });
  }
}

async function readHolder(file: string): Promise<number | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { pid?: unknown };
    return typeof parsed.pid === 'number' ? parsed.pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
