import { fileURLToPath } from 'node:url';
import type { PushMessage } from '../../host/ui-bridge/bridge-port.js';
import type { BrowserWindowConstructor, BrowserWindowLike } from './electron-types.js';
import { ReadyQueue } from './ready-queue.js';
import { APP_INDEX_URL } from './url-policy.js';
import { secureWebPreferences } from './web-preferences.js';

/**
 * The shell's windows: the main window and the consent window. Each one is a known IPC
 * sender while it lives, and gets pushes through the ready queue (flushed when its page
 * invokes `companion:ready`, reset when it navigates or its renderer dies).
 */
export type WindowKind = 'main' | 'consent';

/**
 * The sandboxed preload every window loads: the one-file CommonJS bundle that
 * `vite build --config preload/vite.config.ts` writes to `<out>/preload-bundle/index.cjs`
 * (this module is `<out>/main/src/shells/electron/windows-adapter.js`).
 */
export const PRELOAD_BUNDLE_PATH = fileURLToPath(new URL('../../../../preload-bundle/index.cjs', import.meta.url));

export interface WindowsOptions {
  readonly BrowserWindow: BrowserWindowConstructor;
  /** Default PRELOAD_BUNDLE_PATH. */
  readonly preloadPath?: string;
  /** The window icon's file path. */
  readonly icon?: string;
  readonly devTools?: boolean;
}

const LAYOUT: Readonly<Record<WindowKind, { width: number; height: number; url: string; title: string }>> = {
  main: { width: 1100, height: 720, url: APP_INDEX_URL, title: 'Companion' },
  consent: { width: 480, height: 620, url: `${APP_INDEX_URL}#/consent`, title: 'Companion — Authorization' },
};

export class WindowManager {
  private readonly windows = new Map<WindowKind, BrowserWindowLike>();
  private readonly senders = new Set<number>();
  readonly queue: ReadyQueue<PushMessage>;

  constructor(private readonly options: WindowsOptions) {
    this.queue = new ReadyQueue<PushMessage>({
      send: (id, message) => {
        for (const window of this.windows.values()) {
          if (window.webContents.id === id && !window.webContents.isDestroyed()) window.webContents.send(message.channel, message.payload);
        }
      },
      // A topic's newer value replaces a queued one; frames and outcomes all flow (they append).
      coalesceKey: (message) => (message.channel === 'companion:topic' ? `${message.channel}:${message.payload.topic}` : null),
    });
  }

  /** For the IPC guard: is this web contents one of our windows? */
  isKnownSender = (webContentsId: number): boolean => this.senders.has(webContentsId);

  get(kind: WindowKind): BrowserWindowLike | undefined {
    return this.windows.get(kind);
  }

  /** Opens (or returns) the window and brings it to the front. */
  show(kind: WindowKind): BrowserWindowLike {
    const existing = this.windows.get(kind);
    if (existing !== undefined && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.moveTop();
      existing.focus();
      return existing;
    }
    const layout = LAYOUT[kind];
    const window = new this.options.BrowserWindow({
      width: layout.width,
      height: layout.height,
      minWidth: 360,
      minHeight: 420,
      title: layout.title,
      show: false,
      ...(this.options.icon === undefined ? {} : { icon: this.options.icon }),
      ...(kind === 'consent' ? { alwaysOnTop: true, resizable: false } : {}),
      webPreferences: secureWebPreferences(this.options.preloadPath ?? PRELOAD_BUNDLE_PATH, { devTools: this.options.devTools === true }),
    });
    const id = window.webContents.id;
    this.windows.set(kind, window);
    this.senders.add(id);
    this.queue.reset(id);
    window.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) this.queue.unready(id);
    });
    window.webContents.on('render-process-gone', () => this.queue.unready(id));
    window.on('ready-to-show', () => {
      window.show();
      window.focus();
    });
    window.on('closed', () => {
      this.senders.delete(id);
      this.queue.forget(id);
      if (this.windows.get(kind) === window) this.windows.delete(kind);
    });
    void window.loadURL(layout.url);
    return window;
  }

  /** Sends to one window, when it is open (queued until it is ready). */
  send(kind: WindowKind, message: PushMessage): void {
    const window = this.windows.get(kind);
    if (window !== undefined && !window.isDestroyed()) this.queue.push(window.webContents.id, message);
  }

  /** Sends to every window (queued until each is ready). */
  broadcast(message: PushMessage): void {
    this.queue.broadcast(message);
  }

  closeAll(): void {
    for (const window of this.windows.values()) if (!window.isDestroyed()) window.destroy();
  }
}
