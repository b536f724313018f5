import { LinuxProcessSource } from './process-source-linux.js';
import { PsProcessSource } from './process-source-ps.js';
import { WindowsProcessSource } from './process-source-windows.js';
import type { ProcessSource } from './process-source.js';

/**
 * The process source for the OS Companion runs on: `/proc` on Linux, WMI through `cscript.exe`
 * on Windows, `ps` on macOS; null elsewhere (detection is then off).
 */
export function defaultProcessSource(platform: NodeJS.Platform = process.platform): ProcessSource | null {
  if (platform === 'linux') return new LinuxProcessSource();
  if (platform === 'win32') return new WindowsProcessSource();
  if (platform === 'darwin') return new PsProcessSource();
  return null;
}
