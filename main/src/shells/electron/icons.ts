import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shell's icons: PNG files in assets/, the drawing of assets/icon.svg at 32 px (tray) and
 * 256 px (windows), beside icon.png at 512 px for the installers. Packaged, electron-builder.yml
 * copies the two as extra resources to `<resources>/icons`; run from the build (`npm start`),
 * they are read from the project's assets/ folder.
 */
export const TRAY_ICON_FILE = 'icon-32.png';
export const WINDOW_ICON_FILE = 'icon-256.png';

/** `<project>/assets`, relative to `<project>/out/main/src/shells/electron/`. */
export const PROJECT_ASSETS_DIR = fileURLToPath(new URL('../../../../../assets/', import.meta.url));

export interface ShellIcons {
  readonly tray: string;
  readonly window: string;
}

/** `resourcesPath` is Electron's `process.resourcesPath`, used when packaged. */
export function shellIcons(packaged: boolean, resourcesPath: string | undefined): ShellIcons {
  const dir = packaged && resourcesPath !== undefined ? join(resourcesPath, 'icons') : PROJECT_ASSETS_DIR;
  return { tray: join(dir, TRAY_ICON_FILE), window: join(dir, WINDOW_ICON_FILE) };
}
