import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendOutcomes, applyTopic, type HostData, type PushMessage, type StatusView } from '../../../../preload/src/contract.js';
import type { ControlLogger } from '../../host/control/control-server.js';
import { startHost, type Host } from '../../host/compose/host.js';
import { createLogger } from '../../base/logger.js';
import { readVersion } from '../../base/version.js';
import { createBridgeBackend } from '../../host/ui-bridge/bridge-backend.js';
import { hostSettings, logLevelOf, type LoginItemPort } from '../../host/ui-bridge/host-settings.js';
import { autostartFile, electronLoginItem, xdgAutostartLoginItem } from './login-item.js';
import type { BridgeBackend } from '../../host/ui-bridge/bridge-port.js';
import { DEEP_LINK_SCHEME, findDeepLinkArg, parseCallbackUrl } from './deep-link.js';
import type { ElectronModule, MenuItemOptionsLike } from './electron-types.js';
import { denyAllPermissions, guardWebContents } from './guards-adapter.js';
import { installGuardedHandlers, type InvokeEventLike } from './ipc-guard.js';
import { snapshotChanges } from './notifications.js';
import { companionIconPng } from './icon.js';
import { handleAppProtocol, registerAppScheme } from './protocol-adapter.js';
import { SafeStorageSecretStore } from './secret-store.js';
import { acquireSingleInstance } from './single-instance.js';
import { trayMenuTemplate, trayTooltip, type TrayAction } from './tray-menu.js';
import { DEFAULT_EXTERNAL_HOSTS } from './url-policy.js';
import { PRELOAD_BUNDLE_PATH, WindowManager } from './windows-adapter.js';

/**
 * The Electron entry (`electron out/main/src/shells/electron/electron-main.js`; electron-builder's
 * `extraMetadata.main`). It composes the same host `companion serve` runs with the shell:
 * single-instance lock, `app://` protocol, guarded IPC, windows, tray, notifications,
 * consent window, deep links, login item. Every decision lives in the pure modules beside
 * it; this file only wires them to Electron, which it imports dynamically (importing
 * `electron` in plain Node throws when its binary is missing).
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
  const externalHosts = options.externalHosts ?? DEFAULT_EXTERNAL_HOSTS;

  // Before ready: the privileged scheme, the lock, the deep-link scheme.
  registerAppScheme(electron.protocol);
  const pendingStates = new Set<string>();
  const onDeepLink = (raw: string): void => {
    const result = parseCallbackUrl(raw, DEEP_LINK_SCHEME, pendingStates);
    // No sign-in in the browser is started by this version, so every link is refused for now.
    if (!result.ok) logger.warn({ reason: result.reason }, 'deep link ignored');
  };
  const icon = electron.nativeImage.createFromBuffer(companionIconPng(256), { scaleFactor: 1 });
  const windows = new WindowManager({
    BrowserWindow: electron.BrowserWindow,
    preloadPath: PRELOAD_BUNDLE_PATH,
    icon,
    devTools: !app.isPackaged,
  });
  if (!acquireSingleInstance(app, DEEP_LINK_SCHEME, { focus: () => windows.show('main'), deepLink: onDeepLink })) return;
  if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [ELECTRON_MAIN_ENTRY]);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    onDeepLink(url);
  });
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, { openExternal: (url) => void electron.shell.openExternal(url), allowedHosts: externalHosts, logger }),
  );
  // The shell lives in the tray: closing every window does not quit.
  app.on('window-all-closed', () => undefined);

  await app.whenReady();
  denyAllPermissions(electron.session.defaultSession, logger);
  handleAppProtocol(electron.protocol, RENDERER_DIR);

  const dataDir = join(app.getPath('userData'), 'data');
  const secrets = new SafeStorageSecretStore({
    safeStorage: electron.safeStorage,
    file: join(app.getPath('userData'), 'platform-token.bin'),
    platform: process.platform,
    logger,
  });
  const token = await secrets.load();
  const host = await startHost({
    env: process.env,
    allowSecond: false,
    version: readVersion(),
    logger,
    dataDir,
    // The windows are the UI: no loopback web UI beside them.
    webUi: false,
    // Every sign-in from the UI is saved here, and cleared on sign-out: the next launch signs in with it.
    tokenStore: secrets,
    ...(token === null ? {} : { credentials: { token } }),
  });
  // Start at login: Electron's login item on macOS and Windows, an XDG autostart entry on Linux.
  const loginItem =
    process.platform === 'linux'
      ? xdgAutostartLoginItem({
          file: autostartFile(process.env),
          command: app.isPackaged ? [process.execPath] : [process.execPath, ELECTRON_MAIN_ENTRY],
        })
      : electronLoginItem(app);
  const bridge = options.createBridge(host, logger, loginItem);

  installGuardedHandlers(
    electron.ipcMain as unknown as { handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void },
    { backend: bridge, isKnownSender: windows.isKnownSender, logger, onReady: (id) => windows.queue.markReady(id) },
  );

  // Tray: status, quick actions, start at login.
  let status: StatusView | null = null;
  let lastData: HostData | null = null;
  const tray = new electron.Tray(electron.nativeImage.createFromBuffer(companionIconPng(32), { scaleFactor: 1 }));
  const act = (action: TrayAction): void => {
    if (action === 'open') windows.show('main');
    else if (action === 'open-consent') windows.show('consent');
    else if (action === 'toggle-login-item') {
      void loginItem
        .set(!loginItem.get())
        .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'start at login could not be changed'))
        .finally(refreshTray);
    } else app.quit();
  };
  const refreshTray = (): void => {
    const state = {
      status,
      pendingConsents: lastData?.consent_requests.filter((request) => request.state !== 'settled').length ?? 0,
      games: lastData?.games.length ?? 0,
      openAtLogin: loginItem.get(),
      loginItemSupported: true,
    };
    tray.setToolTip(trayTooltip(state));
    const items: MenuItemOptionsLike[] = trayMenuTemplate(state).map(({ action, ...item }) =>
      action === undefined ? item : { ...item, click: () => act(action) },
    );
    tray.setContextMenu(electron.Menu.buildFromTemplate(items));
  };
  tray.on('click', () => windows.show('main'));

  // Pushes go to every window (queued until it is ready); the state they change also drives
  // the tray, notifications and the consent window (from the first snapshot on).
  const onState = (next: HostData): void => {
    const changes = snapshotChanges(lastData, next);
    lastData = next;
    status = next.status;
    refreshTray();
    if (changes.newConsentRequests.length > 0) windows.show('consent');
    if (electron.Notification.isSupported()) {
      for (const spec of changes.notifications) {
        const notification = new electron.Notification({ title: spec.title, body: spec.body });
        notification.on('click', () => windows.show('main'));
        notification.show();
      }
    }
  };
  const unsubscribe = bridge.subscribe((message) => {
    windows.broadcast(message);
    if (lastData === null || message.channel === 'companion:frames') return;
    onState(applyPush(lastData, message));
  });
  void bridge
    .invoke('companion:ready', [])
    .then(({ frames: _frames, ...data }) => onState(data))
    .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'the first snapshot failed'));
  refreshTray();
  windows.show('main');
  const initialLink = findDeepLinkArg(process.argv, DEEP_LINK_SCHEME);
  if (initialLink !== null) onDeepLink(initialLink);

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

function applyPush(data: HostData, message: PushMessage): HostData {
  if (message.channel === 'companion:topic') return applyTopic(data, message.payload);
  if (message.channel === 'companion:outcomes') return appendOutcomes(data, message.payload);
  return data;
}

/** The contract over the host: the same bridge backend the headless web UI serves. */
export function hostBridge(host: Host, logger?: ControlLogger, loginItem?: LoginItemPort): BridgeBackend {
  const logLevel = logLevelOf(logger);
  return createBridgeBackend({
    backend: host.control.backend,
    server: host.server,
    lint: host.frameLinter,
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
  // Dynamic: importing `electron` outside Electron throws when its binary is missing.
  const specifier = 'electron';
  const imported = (await import(specifier)) as { default?: ElectronModule } & ElectronModule;
  const electron = imported.default ?? imported;
  await runElectronShell(electron, { createBridge: hostBridge });
}

// Runs only inside Electron's main process (never under Node or Vitest).
if ((process.versions as { electron?: string }).electron !== undefined && (process as { type?: string }).type === 'browser') {
  main().catch((error: unknown) => {
    process.stderr.write(`companion: the desktop shell failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
