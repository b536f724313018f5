import path from 'node:path';
import { resolveIpcPrefix, type Env } from './ipc-paths.js';

/** Where Flatpak Discord exposes its socket, relative to XDG_RUNTIME_DIR; sandboxed apps are set up to look there. */
export const FLATPAK_DISCORD_SUBDIR = 'app/com.discordapp.Discord';
/** Where Snap Discord's socket is, relative to XDG_RUNTIME_DIR. The directory belongs to the Snap: opt-in. */
export const SNAP_DISCORD_SUBDIR = 'snap.discord';

export type ListenDirectoryKind =
  /** The resolved prefix: the first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp (or --runtime-dir). */
  | 'prefix'
  /** `<XDG_RUNTIME_DIR>/app/com.discordapp.Discord` (Linux). */
  | 'flatpak'
  /** `<XDG_RUNTIME_DIR>/snap.discord` (Linux, opt-in). */
  | 'snap'
  /** macOS: the GUI session's TMPDIR, when the prefix is another directory. */
  | 'gui-tmpdir'
  /** macOS: XDG_RUNTIME_DIR, when the prefix is another directory. */
  | 'xdg-runtime-dir'
  /** macOS: /tmp, for clients started without TMPDIR. */
  | 'tmp';

export interface ListenDirectory {
  readonly dir: string;
  readonly kind: ListenDirectoryKind;
  /** Whether Companion may create it (sub-directories of the prefix) rather than expect it. */
  readonly create: boolean;
}

export interface ListenDirectoryOptions {
  /** `--runtime-dir`: stands for XDG_RUNTIME_DIR, and replaces the environment's choice. */
  readonly runtimeDir?: string | undefined;
  /** Also listen in `snap.discord/` (Linux). */
  readonly snap?: boolean | undefined;
  /**
   * macOS: the GUI session's temporary directory (`getconf DARWIN_USER_TEMP_DIR`), which is
   * what apps started from the Dock or Finder see as TMPDIR. Default: TMPDIR of `env`.
   */
  readonly guiTempDir?: string | undefined;
}

/**
 * Every directory Companion listens in, the prefix first (its failure is fatal; the others
 * are best effort). A pure function of the environment and the platform:
 * - Linux: the prefix, and when the prefix is XDG_RUNTIME_DIR (or --runtime-dir, which stands
 *   for it) also its Flatpak sub-directory, and its Snap sub-directory when asked. Without
 *   XDG_RUNTIME_DIR there is no Flatpak layout to serve, and creating `app/` in a shared
 *   /tmp would let other users squat it.
 * - macOS: the prefix, then the GUI session's TMPDIR, XDG_RUNTIME_DIR and /tmp, each when it
 *   differs from those before: a game started from a shell that sets XDG_RUNTIME_DIR, one
 *   started from the Dock (launchd's TMPDIR) and one started without TMPDIR each look in a
 *   different place. With --runtime-dir, only that directory.
 * - Windows: the one pipe namespace (the directory is not used).
 */
export function ipcListenDirectories(env: Env, platform: NodeJS.Platform, options: ListenDirectoryOptions = {}): ListenDirectory[] {
  const prefix = resolveIpcPrefix(env, options.runtimeDir);
  const dirs: ListenDirectory[] = [{ dir: prefix.dir, kind: 'prefix', create: true }];
  if (platform === 'linux') {
    if (prefix.source !== 'XDG_RUNTIME_DIR' && prefix.source !== '--runtime-dir') return dirs;
    dirs.push({ dir: path.posix.join(prefix.dir, FLATPAK_DISCORD_SUBDIR), kind: 'flatpak', create: true });
    if (options.snap === true) dirs.push({ dir: path.posix.join(prefix.dir, SNAP_DISCORD_SUBDIR), kind: 'snap', create: true });
    return dirs;
  }
  if (platform === 'darwin' && prefix.source !== '--runtime-dir') {
    const add = (value: string | undefined, kind: ListenDirectoryKind): void => {
      if (value === undefined || value === '') return;
      const dir = resolveIpcPrefix({ TMPDIR: value }).dir;
      if (!dirs.some((existing) => existing.dir === dir)) dirs.push({ dir, kind, create: false });
    };
    add(options.guiTempDir ?? env['TMPDIR'], 'gui-tmpdir');
    add(env['XDG_RUNTIME_DIR'], 'xdg-runtime-dir');
    add('/tmp', 'tmp');
  }
  return dirs;
}

/** A short phrase for people: why Companion listens in a directory of this kind. */
export function describeListenDirectory(kind: ListenDirectoryKind): string {
  switch (kind) {
    case 'prefix':
      return 'where games look first';
    case 'flatpak':
      return 'for Flatpak apps and libraries that search app/com.discordapp.Discord';
    case 'snap':
      return 'for Snap apps and libraries that search snap.discord';
    case 'gui-tmpdir':
      return "for apps started from the Dock or Finder: the GUI session's TMPDIR";
    case 'xdg-runtime-dir':
      return 'for games started from a shell that sets XDG_RUNTIME_DIR';
    case 'tmp':
      return 'for games started without TMPDIR';
  }
}
