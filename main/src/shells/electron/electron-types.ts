import type { InvokeEventLike } from './ipc-guard.js';
import type { SafeStorageLike } from './secret-store.js';
import type { SecureWebPreferences } from './web-preferences.js';

/**
 * The few Electron APIs the shell uses, as local structural types: the adapters take these, so
 * tests pass fakes (main/test/shells/electron/support/fake-electron.ts runs the whole shell on
 * one). They are checked against Electron's own: load-electron.ts assigns what
 * `require('electron')` gives, typed by the installed electron package's electron.d.ts, to
 * `ElectronModule`, so `tsc -b` fails when an Electron upgrade removes or changes anything here.
 * (The electron package is a dev dependency and, since Electron 42, has no postinstall download
 * that could fail and take its types away.)
 */

export interface WebContentsLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: { preventDefault(): void; url: string }, url?: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'did-start-navigation', listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void): unknown;
  on(event: 'render-process-gone' | 'destroyed', listener: () => void): unknown;
  getURL(): string;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  moveTop(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  setTitle(title: string): void;
  on(event: 'closed' | 'ready-to-show', listener: () => void): unknown;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  close(): void;
  destroy(): void;
}

export interface BrowserWindowOptionsLike {
  readonly width: number;
  readonly height: number;
  readonly minWidth?: number;
  readonly minHeight?: number;
  readonly title: string;
  readonly show: boolean;
  /** The icon's file path. */
  readonly icon?: string;
  readonly alwaysOnTop?: boolean;
  readonly resizable?: boolean;
  readonly webPreferences: SecureWebPreferences;
}

export type BrowserWindowConstructor = new (options: BrowserWindowOptionsLike) => BrowserWindowLike;

export interface PermissionSessionLike {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
}

/** The privileges the `app:` scheme asks for (Electron's `Privileges`, the ones used). */
export interface SchemePrivilegesLike {
  readonly standard?: boolean;
  readonly secure?: boolean;
  readonly supportFetchAPI?: boolean;
  readonly codeCache?: boolean;
}

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: SchemePrivilegesLike }[]): void;
  handle(scheme: string, handler: (request: { url: string; method: string }) => Response | Promise<Response>): void;
}

export interface LoginItemSettingsLike {
  readonly openAtLogin: boolean;
}

export interface AppLike {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(code?: number): void;
  whenReady(): Promise<void>;
  getPath(name: 'userData'): string;
  getVersion(): string;
  setAsDefaultProtocolClient(scheme: string, path?: string, args?: string[]): boolean;
  getLoginItemSettings(): LoginItemSettingsLike;
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
  on(event: 'window-all-closed' | 'activate', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
}

export interface MenuItemOptionsLike {
  readonly label?: string;
  readonly type?: 'normal' | 'separator' | 'checkbox';
  readonly enabled?: boolean;
  readonly checked?: boolean;
  readonly click?: () => void;
}

export interface ElectronModule {
  readonly app: AppLike;
  readonly BrowserWindow: BrowserWindowConstructor;
  readonly ipcMain: { handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void };
  readonly protocol: ProtocolLike;
  readonly session: { readonly defaultSession: PermissionSessionLike };
  readonly shell: { openExternal(url: string): Promise<void> };
  readonly safeStorage: SafeStorageLike;
  readonly Tray: new (icon: string) => {
    setToolTip(text: string): void;
    setContextMenu(menu: unknown): void;
    on(event: 'click', listener: () => void): unknown;
    destroy(): void;
  };
  readonly Menu: { buildFromTemplate(items: MenuItemOptionsLike[]): unknown };
  readonly Notification: (new (options: { title: string; body: string; silent?: boolean }) => { show(): void; on(event: 'click', listener: () => void): unknown }) & {
    isSupported(): boolean;
  };
}
