import { writeSecondaryRuntimeFile, type RuntimeInfo } from '../../base/runtime-file.js';
import type { ClaimedDirectories } from './host-directories.js';
import type { Teardown } from './teardown.js';

/**
 * Writes what clients need to find the host (its sockets, control API, web UI, platform) into
 * the runtime file taken at start, or, for a second host, into host-<index>.json beside it.
 * Returns the file's path.
 */
export async function publishRuntimeInfo(claimed: ClaimedDirectories, info: RuntimeInfo, teardown: Teardown): Promise<string> {
  if (claimed.runtime !== null) {
    await claimed.runtime.update(info);
    return claimed.runtime.file;
  }
  const secondary = await writeSecondaryRuntimeFile(claimed.prefix.dir, info.ipc?.index ?? 0, info);
  teardown.add(() => secondary.remove());
  return secondary.file;
}
