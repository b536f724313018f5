import { mkdir } from 'node:fs/promises';
// The transport's files by path, not the rpc barrel: `companion serve` claims these before it loads the host (bound-at-start.ts).
import { assertSocketPathsFit } from '../../../../rpc/src/transport/ipc-listener.js';
import { resolveIpcPrefix, type ResolvedPrefix } from '../../../../rpc/src/transport/ipc-paths.js';
import { checkSocketDirectory } from '../../../../rpc/src/transport/socket-dir-check.js';
import { RuntimeFile } from '../../base/runtime-file.js';
import type { HostOptions } from './host-options.js';

/** The directories a starting host claims: the socket directory (with its runtime file) and the data directory. */
export interface ClaimedDirectories {
  readonly prefix: ResolvedPrefix;
  readonly startedAt: string;
  /** host.json, held from here on; null for a second host (--allow-second), which writes host-<index>.json later. */
  readonly runtime: RuntimeFile | null;
}

/**
 * Creates the socket directory (same user only, checked before anything is written there: the
 * runtime file holds tokens) and the data directory, and takes the runtime file, which fails
 * with AlreadyRunningError when another host serves the directory.
 */
export async function claimDirectories(options: Pick<HostOptions, 'env' | 'version' | 'dataDir' | 'listen'>): Promise<ClaimedDirectories> {
  const prefix = resolveIpcPrefix(options.env, options.listen?.runtimeDir);
  assertSocketPathsFit(prefix.dir);
  await mkdir(prefix.dir, { recursive: true, mode: 0o700 });
  await checkSocketDirectory(prefix.dir);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const startedAt = new Date().toISOString();
  const runtime =
    options.listen?.allowSecond === true
      ? null
      : await RuntimeFile.acquire(prefix.dir, { pid: process.pid, version: options.version, startedAt, ipc: null });
  return { prefix, startedAt, runtime };
}
