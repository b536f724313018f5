/**
 * The few Electron APIs the shell uses, as local structural types. load-electron.ts casts what
 * `require('electron')` gives to `ElectronModule`; the adapters take these types, so tests pass
 * fakes.
 *
 * Why not Electron's own types: they ship in the npm package (electron@41.7.1's tarball holds
 * electron.d.ts beside install.js, and they compile here with `import type` from 'electron'),
 * but a plain `npm install` does not keep that package where the binary cannot be downloaded:
 * its postinstall (install.js) fetches the binary from GitHub, fails (checked 2026-11-25 in an
 * empty project with only `"optionalDependencies": {"electron": "41.7.1"}`: "getaddrinfo
 * ENOTFOUND github.com", exit 1), and npm then removes a failed optional dependency, types
 * and all. Only ELECTRON_SKIP_BINARY_DOWNLOAD=1 keeps it (install.js reads no npm config
 * setting), so `tsc -b` would depend on an environment variable. These types stay until
 * Electron's types can be had without the binary download.
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
  /** A NativeImage or a file path. */
  readonly icon?: unknown;
  readonly alwaysOnTop?: boolean;
  readonly resizable?: boolean;
  readonly webPreferences: object;
}

export type BrowserWindowConstructor = new (options: BrowserWindowOptionsLike) => BrowserWindowLike;

export interface PermissionSessionLike {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
}

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: readonly { scheme: string; privileges: Record<string, boolean> }[]): void;
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
  readonly ipcMain: { handle(channel: string, listener: (event: never, ...args: unknown[]) => Promise<unknown>): void };
  readonly protocol: ProtocolLike;
  readonly session: { readonly defaultSession: PermissionSessionLike };
  readonly shell: { openExternal(url: string): Promise<void> };
  readonly safeStorage: {
    isEncryptionAvailable(): boolean;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
    getSelectedStorageBackend?(): string;
  };
  readonly Tray: new (icon: unknown) => {
    setToolTip(text: string): void;
    setContextMenu(menu: unknown): void;
    on(event: 'click', listener: () => void): unknown;
    destroy(): void;
  };
  readonly Menu: { buildFromTemplate(items: readonly MenuItemOptionsLike[]): unknown };
  readonly Notification: (new (options: { title: string; body: string; silent?: boolean }) => { show(): void; on(event: 'click', listener: () => void): unknown }) & {
    isSupported(): boolean;
  };
}
