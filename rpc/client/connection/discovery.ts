import { stat } from 'node:fs/promises';
import path from 'node:path';
import { IPC_INDEX_COUNT, PREFIX_ENV_VARS, ipcSocketPath, resolveIpcPrefix, type Env } from '../../src/transport/ipc-paths.js';

/**
 * Sub-directories of a runtime directory where sandboxed desktop clients (Snap, Flatpak,
 * Vesktop) expose their socket, in the order the client libraries probe them: Lachee's C#
 * client and @xhayper first (`snap.discord`, `app/com.discordapp.Discord`), then the further
 * ones of @xhayper 1.5.1, pypresence and the Rust crate (as each
 * library's source does).
 */
export const SANDBOX_SUBDIRECTORIES = [
  'snap.discord',
  'app/com.discordapp.Discord',
  'app/com.discordapp.DiscordCanary',
  'app/com.discordapp.DiscordPTB',
  'app/dev.vencord.Vesktop',
  '.flatpak/com.discordapp.Discord/xdg-run',
  '.flatpak/dev.vencord.Vesktop/xdg-run',
  'snap.discord-canary',
] as const;

/**
 * The directories to search, in order: the one the server binds in (the first set of
 * XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp: `resolveIpcPrefix`, the server's own rule),
 * then every other variable of that list that is set, then /tmp; without duplicates. The
 * later ones cost nothing when empty and find a server started with another environment
 * (as the Rust crate and Lachee's client do).
 */
export function discoveryDirectories(env: Env): string[] {
  const dirs: string[] = [resolveIpcPrefix(env).dir];
  for (const name of PREFIX_ENV_VARS) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    dirs.push(resolveIpcPrefix({ [name]: value }).dir);
  }
  dirs.push(resolveIpcPrefix({}).dir);
  return [...new Set(dirs)];
}

/**
 * Every candidate socket path, in the order a connection tries them. On Unix, for each
 * directory of `discoveryDirectories` and each index 0..9: the plain `<dir>/discord-ipc-N`
 * first, then `<dir>/<sandbox>/discord-ipc-N` for each of SANDBOX_SUBDIRECTORIES. So the
 * lowest index wins, and at one index the server's own path wins over a sandboxed client's.
 * On Windows: `\\?\pipe\discord-ipc-0..9`.
 */
export function candidateSocketPaths(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') {
    return Array.from({ length: IPC_INDEX_COUNT }, (_, index) => ipcSocketPath(index, '', platform));
  }
  const paths: string[] = [];
  for (const dir of discoveryDirectories(env)) {
    for (let index = 0; index < IPC_INDEX_COUNT; index += 1) {
      paths.push(ipcSocketPath(index, dir, platform));
      for (const sub of SANDBOX_SUBDIRECTORIES) paths.push(ipcSocketPath(index, path.posix.join(dir, sub), platform));
    }
  }
  return paths;
}

/**
 * The candidates that exist, in candidate order (Unix: a socket file is there; Windows:
 * every pipe name, since only opening one tells). Checked in parallel with stat (symlinks followed), so a
 * search of all candidates costs one round of file-system calls.
 */
export async function existingSocketPaths(env: Env, platform: NodeJS.Platform = process.platform): Promise<string[]> {
  const candidates = candidateSocketPaths(env, platform);
  if (platform === 'win32') return candidates;
  const present = await Promise.all(
    candidates.map(async (candidate) => {
      try {
        // stat, not lstat: the usual Flatpak workaround is a symlink from the plain path to the sandbox's socket.
        return (await stat(candidate)).isSocket();
      } catch {
        return false;
      }
    }),
  );
  return candidates.filter((_, i) => present[i] === true);
}
