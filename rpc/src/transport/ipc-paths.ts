import path from 'node:path';

/** Socket names run from discord-ipc-0 to discord-ipc-9, as in every client library. */
export const IPC_INDEX_COUNT = 10;
export const IPC_NAME_PREFIX = 'discord-ipc-';

export type Env = Readonly<Record<string, string | undefined>>;

/** The environment variables clients consult, in their order. */
export const PREFIX_ENV_VARS = ['XDG_RUNTIME_DIR', 'TMPDIR', 'TMP', 'TEMP'] as const;

export interface ResolvedPrefix {
  readonly dir: string;
  /** The variable that supplied `dir`, `'--runtime-dir'`, or `'default'` for /tmp. */
  readonly source: (typeof PREFIX_ENV_VARS)[number] | '--runtime-dir' | 'default';
}

/**
 * The directory the real desktop client binds in: the first of XDG_RUNTIME_DIR, TMPDIR,
 * TMP and TEMP that is set, else /tmp. A variable set to the empty string counts as unset,
 * as in the client's and npm's `a || b || ...` (the C library would take the empty string and
 * produce a relative path, which nobody can rely on). One trailing slash is dropped, as npm
 * discord-rpc does, so the printed path matches what clients build.
 */
export function resolveIpcPrefix(env: Env, override?: string): ResolvedPrefix {
  if (override !== undefined && override !== '') return { dir: stripTrailingSlash(path.resolve(override)), source: '--runtime-dir' };
  for (const name of PREFIX_ENV_VARS) {
    const value = env[name];
    if (value !== undefined && value !== '') return { dir: stripTrailingSlash(value), source: name };
  }
  return { dir: '/tmp', source: 'default' };
}

function stripTrailingSlash(dir: string): string {
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

export function ipcSocketName(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= IPC_INDEX_COUNT) {
    throw new RangeError(`IPC index must be an integer from 0 to ${IPC_INDEX_COUNT - 1}, got ${index}`);
  }
  return `${IPC_NAME_PREFIX}${index}`;
}

/** `<dir>/discord-ipc-N` on Unix; `\\?\pipe\discord-ipc-N` on Windows. */
export function ipcSocketPath(index: number, dir: string, platform: NodeJS.Platform = process.platform): string {
  const name = ipcSocketName(index);
  if (platform === 'win32') return `\\\\?\\pipe\\${name}`;
  return path.posix.join(dir, name);
}

/** Every candidate path in index order. */
export function ipcSocketPaths(dir: string, platform: NodeJS.Platform = process.platform): string[] {
  return Array.from({ length: IPC_INDEX_COUNT }, (_, index) => ipcSocketPath(index, dir, platform));
}
