// The transport's files by path, not the rpc barrel: `companion serve` binds before it loads the host (bound-at-start.ts).
import { ipcListenDirectories, type ListenDirectory } from '../../../../rpc/src/transport/listen-directories.js';
import type { HostOptions } from './host-options.js';

/**
 * The directories the host listens in for these options, the prefix first: one choice for
 * the sockets bound at start (bound-at-start.ts) and the ones bound by the host itself
 * (listening.ts). `guiTempDir`: macOS' GUI-session TMPDIR (darwin-temp-dir.ts).
 */
export function hostIpcDirectories(options: Pick<HostOptions, 'env' | 'listen'>, guiTempDir: string | undefined): ListenDirectory[] {
  const listen = options.listen ?? {};
  return ipcListenDirectories(options.env, process.platform, { runtimeDir: listen.runtimeDir, snap: listen.snapSocket === true, guiTempDir });
}
