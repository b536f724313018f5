import { LinuxProcessSource } from './process-source-linux.js';
import type { ProcessSource } from './process-source.js';

/**
 * The process source for the OS Companion runs on; null where there is none yet (Windows, through
 * the OS's process list, and macOS are to come: detection is then off).
 */
export function defaultProcessSource(platform: NodeJS.Platform = process.platform): ProcessSource | null {
  return platform === 'linux' ? new LinuxProcessSource() : null;
}
