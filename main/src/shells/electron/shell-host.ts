import { join } from 'node:path';
import type { Logger } from 'pino';
import { startHost, type Host } from '../../host/compose/host.js';
import { readVersion } from '../../base/version.js';
import type { LoginItemPort } from '../../host/ui-bridge/host-settings.js';
import type { AppLike, ElectronModule } from './electron-types.js';
import { autostartFile, electronLoginItem, xdgAutostartLoginItem } from './login-item.js';
import { SafeStorageSecretStore } from './secret-store.js';

export interface ShellHost {
  readonly host: Host;
  readonly loginItem: LoginItemPort;
}

/**
 * The host the desktop app runs: the same one `companion serve` starts, with its data under
 * Electron's userData, no loopback web UI (the windows are the UI), and the platform token
 * kept by safeStorage: every sign-in from the UI is saved there and cleared on sign-out, so
 * the next launch signs in with it.
 */
export async function startShellHost(app: AppLike, safeStorage: ElectronModule['safeStorage'], logger: Logger, entry: string): Promise<ShellHost> {
  const secrets = new SafeStorageSecretStore({
    safeStorage,
    file: join(app.getPath('userData'), 'platform-token.bin'),
    platform: process.platform,
    logger,
  });
  const token = await secrets.load();
  const host = await startHost({
    env: process.env,
    version: readVersion(),
    logger,
    dataDir: join(app.getPath('userData'), 'data'),
    // No `ui`: the windows are the UI, with no loopback web UI beside them.
    // Every sign-in from the UI is saved here, and cleared on sign-out: the next launch signs in with it.
    platform: { tokenStore: secrets, ...(token === null ? {} : { credentials: { token } }) },
  });
  return { host, loginItem: shellLoginItem(app, entry) };
}

/** Start at login: Electron's login item on macOS and Windows, an XDG autostart entry on Linux. */
function shellLoginItem(app: AppLike, entry: string): LoginItemPort {
  if (process.platform !== 'linux') return electronLoginItem(app);
  return xdgAutostartLoginItem({
    file: autostartFile(process.env),
    command: app.isPackaged ? [process.execPath] : [process.execPath, entry],
  });
}
