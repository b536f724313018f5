// The transport's files by path, not the rpc barrel: this runs before the host's code is loaded.
import { listenIpcDirectories, type IpcListenerSet } from '../../../../rpc/src/transport/ipc-listener-set.js';
import { PendingConnections } from '../../../../rpc/src/transport/pending-connections.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../../../rpc/src/server/connection-limit.js';
import { darwinUserTempDir } from '../../base/darwin-temp-dir.js';
import { claimDirectories, type ClaimedDirectories } from './host-directories.js';
import type { HostOptions } from './host-options.js';
import { hostIpcDirectories } from './ipc-directories.js';

/**
 * The first steps of a host's start, taken before the rest of it is even loaded
 * (`companion serve`, bin/companion.js): the directories claimed (the runtime file, so a
 * second host is refused as before) and the discord-ipc sockets bound where the host would
 * bind them, their connections held (PendingConnections) until the host serves them. A game
 * started with Companion finds the socket at once and gets READY when the host is up.
 */
export interface BoundAtStart {
  readonly claimed: ClaimedDirectories;
  readonly ipc: IpcListenerSet;
  readonly pending: PendingConnections;
  /** macOS: the GUI session's TMPDIR the directories were chosen with (undefined elsewhere). */
  readonly guiTempDir: string | undefined;
}

/** What binding at start needs of the host's options. */
export type BindAtStartOptions = Pick<HostOptions, 'env' | 'version' | 'dataDir' | 'listen'>;

/**
 * Claims the directories and binds the sockets as startHost would (claimDirectories, then the
 * listeners of hostIpcDirectories). Fails as startHost would fail there, having undone what it
 * did (the runtime file released, no socket left behind). Not for sockets systemd hands over:
 * those are bound already.
 */
export async function bindAtStart(options: BindAtStartOptions): Promise<BoundAtStart> {
  const claimed = await claimDirectories(options);
  try {
    const guiTempDir = options.listen?.guiTempDir ?? (await darwinUserTempDir());
    const pending = new PendingConnections(DEFAULT_MAX_CONNECTIONS);
    const ipc = await listenIpcDirectories({ directories: hostIpcDirectories(options, guiTempDir), onConnection: pending.accept });
    return { claimed, ipc, pending, guiTempDir };
  } catch (error) {
    await claimed.runtime?.release();
    throw error;
  }
}

/** Undoes bindAtStart when no host follows: waiting games' connections ended, sockets removed, the runtime file released. */
export async function releaseBoundAtStart(bound: BoundAtStart): Promise<void> {
  bound.pending.close();
  await bound.ipc.close();
  await bound.claimed.runtime?.release();
}
