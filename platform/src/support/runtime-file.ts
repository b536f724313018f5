import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeStrayTemps } from '../../../common/src/node/atomic-file.js';

export const RUNTIME_FILE_NAME = 'platform.json';

/** `platform.json` in the data dir: how admin commands find a running emulator. */
export interface PlatformRuntimeInfo {
  readonly pid: number;
  readonly url: string;
  readonly adminToken: string;
  readonly startedAt: string;
  /** The TLS listener (`https://127.0.0.1:PORT`), when there is one. */
  readonly tlsUrl?: string;
  /** The local certificate authority's certificate a game's machine trusts, with `tlsUrl`. */
  readonly caCertFile?: string;
}

/** A running emulator already uses the data dir (its state would be overwritten). */
export class PlatformAlreadyRunningError extends Error {
  constructor(
    readonly pid: number,
    readonly file: string,
    readonly url: string,
  ) {
    super(`a platform emulator already uses this data dir (pid ${pid}, ${url}; ${file})`);
    this.name = 'PlatformAlreadyRunningError';
  }
}

export function runtimeFilePath(dataDir: string): string {
  return path.join(dataDir, RUNTIME_FILE_NAME);
}

/** Reads the runtime file; undefined when there is none or it is not ours. */
export async function readRuntimeFile(dataDir: string): Promise<PlatformRuntimeInfo | undefined> {
  let text: string;
  try {
    text = await readFile(runtimeFilePath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const data = JSON.parse(text) as Partial<PlatformRuntimeInfo>;
    if (typeof data.pid === 'number' && typeof data.url === 'string' && typeof data.adminToken === 'string' && typeof data.startedAt === 'string') {
      return data as PlatformRuntimeInfo;
    }
  } catch {
    // A half-written or foreign file counts as none.
  }
  return undefined;
}

/** Data dirs in use by emulators of this process (the pid check cannot tell them apart). */
const claimedInProcess = new Set<string>();

/** Refuses a data dir another live emulator uses; a file left by a dead one is replaced. */
export async function claimDataDir(dataDir: string): Promise<void> {
  const key = path.resolve(dataDir);
  const existing = await readRuntimeFile(dataDir);
  if (claimedInProcess.has(key)) throw new PlatformAlreadyRunningError(process.pid, runtimeFilePath(dataDir), existing?.url ?? 'starting');
  if (existing !== undefined && existing.pid !== process.pid && isAlive(existing.pid)) {
    throw new PlatformAlreadyRunningError(existing.pid, runtimeFilePath(dataDir), existing.url);
  }
  claimedInProcess.add(key);
  // Only the emulator that holds the data dir writes platform.json: every temp beside it was
  // left by one that died between writing and renaming.
  await removeStrayTemps(runtimeFilePath(dataDir), () => true);
}

export function releaseDataDir(dataDir: string): void {
  claimedInProcess.delete(path.resolve(dataDir));
}

export async function writeRuntimeFile(dataDir: string, info: PlatformRuntimeInfo): Promise<string> {
  const file = runtimeFilePath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return file;
}

/** Removes the runtime file if it is still the one this process wrote. */
export async function removeRuntimeFile(dataDir: string, adminToken: string): Promise<void> {
  const current = await readRuntimeFile(dataDir);
  if (current === undefined || current.adminToken === adminToken) await rm(runtimeFilePath(dataDir), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
