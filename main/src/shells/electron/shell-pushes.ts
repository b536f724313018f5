import type { Snapshot } from '../../../../preload/src/contract.js';
import type { PushMessage } from '../../host/ui-bridge/bridge-port.js';
import type { ElectronModule } from './electron-types.js';
import { snapshotChanges } from './notifications.js';
import type { ShellTray } from './shell-tray.js';
import type { WindowManager } from './windows-adapter.js';

/**
 * Where the bridge's pushes go: to every window (queued until it is ready); snapshots also
 * drive the tray, the notifications and the consent window.
 */
export class ShellPushes {
  private lastSnapshot: Snapshot | null = null;

  constructor(
    private readonly electron: Pick<ElectronModule, 'Notification'>,
    private readonly windows: WindowManager,
    private readonly tray: ShellTray,
  ) {}

  readonly deliver = (message: PushMessage): void => {
    this.windows.broadcast(message);
    if (message.channel !== 'companion:snapshot') return;
    const changes = snapshotChanges(this.lastSnapshot, message.payload);
    this.lastSnapshot = message.payload;
    this.tray.update(message.payload);
    if (changes.newConsentRequests.length > 0) this.windows.show('consent');
    if (!this.electron.Notification.isSupported()) return;
    for (const spec of changes.notifications) {
      const notification = new this.electron.Notification({ title: spec.title, body: spec.body });
      notification.on('click', () => this.windows.show('main'));
      notification.show();
    }
  };
}
