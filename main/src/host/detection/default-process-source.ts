import { LinuxProcessSource } from './process-source-linux.js';
import { WindowsProcessSource } from './process-source-windows.js';
import type { ProcessSource } from './process-source.js';

/**
 * The process source for the OS Companion runs on: `/proc` on Linux, WMI through `cscript.exe`
 * on Windows; null where there is none yet (macOS is to come: detection is then off).
 */
export function defaultProcessSource(platform: NodeJS.Platform = process.platform): ProcessSource | null {
  if (platform === 'linux') return new LinuxProcessSource();
  if (platform === 'win32') return new WindowsProcessSource();
  return null;
}
