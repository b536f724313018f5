import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlLogger } from '../../host/control/control-server.js';
import type { Host } from '../../host/compose/host.js';
import { createLogger } from '../../base/logger.js';
import { createBridgeBackend } from '../../host/ui-bridge/bridge-backend.js';
import { hostSettings, logLevelOf, type LoginItemPort } from '../../host/ui-bridge/host-settings.js';
import type { BridgeBackend } from '../../host/ui-bridge/bridge-port.js';
import { deepLinkHandler, setUpApp } from './app-setup.js';
import { DEEP_LINK_SCHEME, findDeepLinkArg } from './deep-link.js';
import type { ElectronModule } from './electron-types.js';
import { denyAllPermissions } from './guards-adapter.js';
import { shellIcons } from './icons.js';
import { installGuardedHandlers } from './ipc-guard.js';
import { loadElectron } from './load-electron.js';
import { handleAppProtocol } from './protocol-adapter.js';
import { startShellHost } from './shell-host.js';
import { ShellPushes } from './shell-pushes.js';
import { ShellTray } from './shell-tray.js';
import { DEFAULT_EXTERNAL_HOSTS } from './url-policy.js';
import { PRELOAD_BUNDLE_PATH, WindowManager } from './windows-adapter.js';

/**
 * The Electron entry (`electron out/main/src/shells/electron/electron-main.js`; electron-builder's
 * `extraMetadata.main`). It composes the same host `companion serve` runs with the shell:
 * single-instance lock, `app://` protocol, guarded IPC, windows, tray, notifications,
 * consent window, deep links, login item. Every decision lives in the modules beside it;
 * this file only puts them in order. Electron itself comes from load-electron.ts.
 */

/** This module's built path (for `npm start` / Playwright to pass to the Electron binary). */
export const ELECTRON_MAIN_ENTRY = fileURLToPath(import.meta.url);

/** `<out>/renderer`, relative to `<out>/main/src/shells/electron/`. */
const OUT_DIR = fileURLToPath(new URL('../../../../', import.meta.url));
const RENDERER_DIR = join(OUT_DIR, 'renderer');

export interface ShellOptions {
  /** Maps the contract onto the host (the same service the headless web bridge uses). */
  readonly createBridge: (host: Host, logger: ControlLogger, loginItem: LoginItemPort) => BridgeBackend;
  readonly externalHosts?: readonly string[];
}

export async function runElectronShell(electron: ElectronModule, options: ShellOptions): Promise<void> {
  const { app } = electron;
  const logger = createLogger({ level: 'info' });
  const icons = shellIcons(app.isPackaged, (process as { resourcesPath?: string }).resourcesPath);
  const windows = new WindowManager({ BrowserWindow: electron.BrowserWindow, preloadPath: PRELOAD_BUNDLE_PATH, icon: icons.window, devTools: !app.isPackaged });
  const onDeepLink = deepLinkHandler(logger);
  const setUp = setUpApp(electron, onDeepLink, {
    entry: ELECTRON_MAIN_ENTRY,
    externalHosts: options.externalHosts ?? DEFAULT_EXTERNAL_HOSTS,
    logger,
    focus: () => windows.show('main'),
  });
  if (!setUp) return;

  await app.whenReady();
  denyAllPermissions(electron.session.defaultSession, logger);
  let started: Host | null = null;
  handleAppProtocol(electron.protocol, RENDERER_DIR, () => started?.images ?? null);
  const { host, loginItem } = await startShellHost(app, electron.safeStorage, logger, ELECTRON_MAIN_ENTRY);
  started = host;
  const bridge = options.createBridge(host, logger, loginItem);
  installGuardedHandlers(electron.ipcMain, { backend: bridge, isKnownSender: windows.isKnownSender, logger, onReady: (id) => windows.queue.markReady(id) });
  const tray = new ShellTray(electron, { icon: icons.tray, windows, loginItem, logger, quit: () => app.quit() });
  const pushes = new ShellPushes(electron, windows, tray, logger);
  const unsubscribe = bridge.subscribe(pushes.deliver);
  pushes.start(bridge);
  tray.refresh();
  windows.show('main');
  const initialLink = findDeepLinkArg(process.argv, DEEP_LINK_SCHEME);
  if (initialLink !== null) onDeepLink(initialLink);

  // The first quit closes everything, then exits once the host has closed.
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    unsubscribe();
    windows.closeAll();
    tray.destroy();
    void host.close().finally(() => app.exit(0));
  });
}

/** The contract over the host: the same bridge backend the headless web UI serves. */
export function hostBridge(host: Host, logger?: ControlLogger, loginItem?: LoginItemPort): BridgeBackend {
  const logLevel = logLevelOf(logger);
  return createBridgeBackend({
    backend: host.control.backend,
    server: host.server,
    lint: host.frameLinter,
    hostEvents: host.hostEvents,
    settings: hostSettings({
      broker: host.consent,
      ...(logger === undefined ? {} : { logger }),
      ...(logLevel === undefined ? {} : { logLevel }),
      ...(loginItem === undefined ? {} : { loginItem }),
    }),
    ...(logger === undefined ? {} : { logger }),
  });
}

async function main(): Promise<void> {
  await runElectronShell(loadElectron(), { createBridge: hostBridge });
}

// Runs only inside Electron's main process (never under Node or Vitest).
if ((process.versions as { electron?: string }).electron !== undefined && (process as { type?: string }).type === 'browser') {
  main().catch((error: unknown) => {
    process.stderr.write(`companion: the desktop shell failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
