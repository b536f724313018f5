import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { removeStrayTemps, writeFileAtomic, writerGone } from '../../../../common/src/node/atomic-file.js';
import type { LoginItemPort } from '../../host/ui-bridge/host-settings.js';

/**
 * Start at login. Electron's login item covers macOS and Windows; on Linux it does nothing,
 * so the shell writes an XDG autostart entry (`$XDG_CONFIG_HOME/autostart/companion.desktop`),
 * which GNOME, KDE and the other freedesktop sessions read. Both sit behind LoginItemPort.
 */

/** The parts of Electron's `app` a login item uses. */
export interface LoginItemApp {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
}

export function electronLoginItem(app: LoginItemApp): LoginItemPort {
  return {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: async (openAtLogin) => app.setLoginItemSettings({ openAtLogin }),
  };
}

export const AUTOSTART_FILE_NAME = 'companion.desktop';

export function autostartFile(env: NodeJS.ProcessEnv, home = homedir()): string {
  const configHome = env['XDG_CONFIG_HOME'];
  const base = configHome !== undefined && configHome.startsWith('/') ? configHome : join(home, '.config');
  return join(base, 'autostart', AUTOSTART_FILE_NAME);
}

/** One Exec argument, quoted as the Desktop Entry spec asks (reserved characters escaped). */
export function desktopExecArg(arg: string): string {
  if (/^[A-Za-z0-9_./:=@+,-]+$/.test(arg)) return arg;
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
}

/** The autostart entry that runs `command` at login (minimised to the tray). */
export function autostartEntry(command: readonly string[]): string {
  // A `%` starts a field code in Exec: written as `%%`.
  const exec = command.map(desktopExecArg).join(' ').replace(/%/g, '%%');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Companion',
    'Comment=Rich presence and game invites for your games',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function xdgAutostartLoginItem(options: { readonly file: string; readonly command: readonly string[] }): LoginItemPort {
  return {
    get: () => existsSync(options.file),
    set: async (openAtLogin) => {
      if (!openAtLogin) {
        await rm(options.file, { force: true });
        return;
      }
      await mkdir(join(options.file, '..'), { recursive: true });
      await removeStrayTemps(options.file, writerGone);
      await writeFileAtomic(options.file, autostartEntry(options.command));
    },
  };
}
