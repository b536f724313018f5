import type { HostData } from '../../../../preload/src/contract.js';
import type { LoginItemPort } from '../../host/ui-bridge/host-settings.js';
import type { ElectronModule, MenuItemOptionsLike } from './electron-types.js';
import { trayMenuTemplate, trayTooltip, type TrayAction } from './tray-menu.js';
import type { WindowManager } from './windows-adapter.js';

export interface ShellTrayOptions {
  /** The icon's file path. */
  readonly icon: string;
  readonly windows: WindowManager;
  readonly loginItem: LoginItemPort;
  readonly logger: { warn(fields: object, message: string): void };
  readonly quit: () => void;
}

/**
 * The tray: status and counts from the host's latest state in its tooltip and menu, and the quick
 * actions (open, open the consent window, start at login, quit). The menu's contents are
 * decided by tray-menu.ts; this class only builds it and runs the clicks.
 */
export class ShellTray {
  private readonly tray: InstanceType<ElectronModule['Tray']>;
  private snapshot: HostData | null = null;

  constructor(
    private readonly electron: Pick<ElectronModule, 'Tray' | 'Menu'>,
    private readonly options: ShellTrayOptions,
  ) {
    this.tray = new electron.Tray(options.icon);
    this.tray.on('click', () => options.windows.show('main'));
  }

  /** Shows the host's latest state (none yet: its status is unknown). */
  update(snapshot: HostData | null): void {
    this.snapshot = snapshot;
    this.refresh();
  }

  refresh(): void {
    const snapshot = this.snapshot;
    const state = {
      status: snapshot?.status ?? null,
      pendingConsents: snapshot?.consent_requests.filter((request) => request.state !== 'settled').length ?? 0,
      games: snapshot?.games.length ?? 0,
      openAtLogin: this.options.loginItem.get(),
      loginItemSupported: true,
    };
    this.tray.setToolTip(trayTooltip(state));
    const items: MenuItemOptionsLike[] = trayMenuTemplate(state).map(({ action, ...item }) =>
      action === undefined ? item : { ...item, click: () => this.act(action) },
    );
    this.tray.setContextMenu(this.electron.Menu.buildFromTemplate(items));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private act(action: TrayAction): void {
    const { windows, loginItem, logger } = this.options;
    if (action === 'open') windows.show('main');
    else if (action === 'open-consent') windows.show('consent');
    else if (action === 'toggle-login-item') {
      void loginItem
        .set(!loginItem.get())
        .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'start at login could not be changed'))
        .finally(() => this.refresh());
    } else this.options.quit();
  }
}
