import { appendOutcomes, applyTopic, type HostData, type PushMessage } from '../../../../preload/src/contract.js';
import type { BridgeBackend } from '../../host/ui-bridge/bridge-port.js';
import type { ElectronModule } from './electron-types.js';
import { snapshotChanges } from './notifications.js';
import type { ShellTray } from './shell-tray.js';
import type { WindowManager } from './windows-adapter.js';

/**
 * Where the bridge's pushes go: to every window (queued until it is ready). The shell keeps the
 * host's state too, from one `companion:ready` at start and the topic and outcome pushes after
 * it, and that state drives the tray, the notifications and the consent window.
 */
export class ShellPushes {
  private state: HostData | null = null;
  /** Direct messages written before the shell started are history, not news. */
  private readonly startedAt = Date.now();

  constructor(
    private readonly electron: Pick<ElectronModule, 'Notification'>,
    private readonly windows: WindowManager,
    private readonly tray: ShellTray,
    private readonly logger: { warn(fields: object, message: string): void },
  ) {}

  /** Asks the bridge for the whole state once; pushes before the answer are already in it. */
  start(bridge: BridgeBackend): void {
    void bridge
      .invoke('companion:ready', [])
      .then(({ frames: _frames, device_screen: _screen, ...data }) => this.show(data))
      .catch((error: unknown) => this.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'the first snapshot failed'));
  }

  readonly deliver = (message: PushMessage): void => {
    if (message.channel === 'companion:open-view') {
      // A game asked to show one of Companion's views: the main window comes to the front first
      // (opened if closed; the push waits for its page to be ready). The consent window stays as it is.
      if (message.payload.view !== 'close-authorize-device') this.windows.show('main');
      this.windows.send('main', message);
      return;
    }
    this.windows.broadcast(message);
    if (this.state === null) return;
    if (message.channel === 'companion:topic') this.show(applyTopic(this.state, message.payload));
    else if (message.channel === 'companion:outcomes') this.show(appendOutcomes(this.state, message.payload));
  };

  private show(next: HostData): void {
    const changes = snapshotChanges(this.state, next, this.startedAt);
    this.state = next;
    this.tray.update(next);
    if (changes.newConsentRequests.length > 0) this.windows.show('consent');
    if (!this.electron.Notification.isSupported()) return;
    for (const spec of changes.notifications) {
      const notification = new this.electron.Notification({ title: spec.title, body: spec.body });
      notification.on('click', () => this.windows.show('main'));
      notification.show();
    }
  }
}
