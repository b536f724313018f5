import { EventEmitter } from 'node:events';
import type {
  BrowserWindowLike,
  BrowserWindowOptionsLike,
  ElectronModule,
  LoginItemSettingsLike,
  MenuItemOptionsLike,
  SchemePrivilegesLike,
  WebContentsLike,
} from '../../../../src/shells/electron/electron-types.js';
import type { InvokeEventLike } from '../../../../src/shells/electron/ipc-guard.js';

/**
 * A stand-in for the `electron` module that the whole shell (`runElectronShell`) runs on under
 * Node: it does what the shell asks of Electron's objects in memory and records it, in order,
 * in `calls`, so a test can check what the shell did (the lock, the scheme, the windows and
 * what they load, the tray, the notifications, the quit).
 */
type Listener = (...args: never[]) => unknown;
type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

export interface FakeElectronOptions {
  /** Where `app.getPath('userData')` points. */
  readonly userData: string;
  /** What `requestSingleInstanceLock()` answers (default true: this is the first instance). */
  readonly singleInstance?: boolean;
}

let nextWebContentsId = 1;

export class FakeWebContents extends EventEmitter implements WebContentsLike {
  readonly id = nextWebContentsId++;
  readonly sent: { channel: string; payload: unknown }[] = [];
  url = '';
  destroyed = false;
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;

  override on(event: string, listener: Listener): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }
  send(channel: string, payload?: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getURL(): string {
    return this.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
}

export class FakeTray {
  tooltip = '';
  menu: { items: MenuItemOptionsLike[] } | null = null;
  destroyed = false;
  private readonly events = new EventEmitter();
  constructor(readonly icon: string) {}
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as { items: MenuItemOptionsLike[] };
  }
  on(event: 'click', listener: () => void): this {
    this.events.on(event, listener);
    return this;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Clicks the menu item with this label. */
  click(label: string): void {
    const item = this.menu?.items.find((candidate) => candidate.label === label);
    if (item?.click === undefined) throw new Error(`no menu item ${label}; menu: ${JSON.stringify(this.menu?.items.map((i) => i.label))}`);
    item.click();
  }
}

export interface FakeElectron {
  readonly module: ElectronModule;
  readonly app: EventEmitter & { readonly exitCode: Promise<number> };
  /** Everything the shell asked of Electron, in order (`name` or `name:detail`). */
  readonly calls: string[];
  readonly windows: (BrowserWindowLike & { readonly options: BrowserWindowOptionsLike; readonly webContents: FakeWebContents; readonly loaded: string[] })[];
  readonly trays: FakeTray[];
  readonly notifications: { readonly title: string; readonly body: string; shown: boolean; click(): void }[];
  readonly ipcHandlers: Map<string, Handler>;
  readonly privilegedSchemes: { scheme: string; privileges: SchemePrivilegesLike }[];
  readonly protocolHandlers: Map<string, (request: { url: string; method: string }) => Response | Promise<Response>>;
  readonly permissions: { request?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void; check?: (contents: unknown, permission: string) => boolean };
}

function fakeApp(options: FakeElectronOptions, calls: string[]): FakeElectron['app'] & ElectronModule['app'] {
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  let openAtLogin = false;
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    exitCode,
    requestSingleInstanceLock: () => (calls.push('app.requestSingleInstanceLock'), options.singleInstance ?? true),
    whenReady: async () => void calls.push('app.whenReady'),
    getPath: (name: 'userData') => (calls.push(`app.getPath:${name}`), options.userData),
    getVersion: () => '0.0.0-fake',
    setAsDefaultProtocolClient: (scheme: string, path?: string, args?: string[]) => (calls.push(`app.setAsDefaultProtocolClient:${[scheme, path, ...(args ?? [])].join(' ')}`), true),
    getLoginItemSettings: (): LoginItemSettingsLike => ({ openAtLogin }),
    setLoginItemSettings: (settings: { openAtLogin: boolean }) => void (openAtLogin = settings.openAtLogin),
    exit: (code = 0) => (calls.push(`app.exit:${code}`), exited(code)),
    quit: () => {
      calls.push('app.quit');
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) app.exit(0);
    },
  });
  return app as unknown as FakeElectron['app'] & ElectronModule['app'];
}

function fakeWindowClass(app: EventEmitter, calls: string[], windows: FakeElectron['windows']): ElectronModule['BrowserWindow'] {
  return class FakeWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    private destroyed = false;
    constructor(readonly options: BrowserWindowOptionsLike) {
      super();
      calls.push(`new BrowserWindow:${options.title}`);
      windows.push(this as never);
      // Electron announces every web contents it creates.
      app.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string): Promise<void> {
      calls.push(`window.loadURL:${url}`);
      this.loaded.push(url);
      this.webContents.url = url;
      setImmediate(() => this.emit('ready-to-show'));
    }
    show = (): void => void calls.push(`window.show:${this.options.title}`);
    focus = (): void => undefined;
    moveTop = (): void => void calls.push(`window.moveTop:${this.options.title}`);
    restore = (): void => undefined;
    isMinimized = (): boolean => false;
    isDestroyed = (): boolean => this.destroyed;
    setTitle = (): void => undefined;
    close = (): void => this.destroy();
    destroy(): void {
      if (this.destroyed) return;
      this.destroyed = true;
      this.webContents.destroyed = true;
      calls.push(`window.destroy:${this.options.title}`);
      this.emit('closed');
    }
  } as unknown as ElectronModule['BrowserWindow'];
}

export function fakeElectron(options: FakeElectronOptions): FakeElectron {
  const calls: string[] = [];
  const app = fakeApp(options, calls);
  const windows: FakeElectron['windows'] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeElectron['notifications'] = [];
  const ipcHandlers = new Map<string, Handler>();
  const privilegedSchemes: FakeElectron['privilegedSchemes'] = [];
  const protocolHandlers: FakeElectron['protocolHandlers'] = new Map();
  const permissions: FakeElectron['permissions'] = {};
  class Notification {
    static isSupported = (): boolean => true;
    private readonly events = new EventEmitter();
    constructor(readonly spec: { title: string; body: string }) {
      calls.push(`new Notification:${spec.title}`);
      notifications.push({ title: spec.title, body: spec.body, shown: false, click: () => this.events.emit('click') });
    }
    show(): void {
      const record = notifications.find((n) => n.title === this.spec.title && n.body === this.spec.body && !n.shown);
      if (record !== undefined) record.shown = true;
    }
    on(event: 'click', listener: () => void): this {
      this.events.on(event, listener);
      return this;
    }
  }
  const module: ElectronModule = {
    app,
    BrowserWindow: fakeWindowClass(app, calls, windows),
    ipcMain: { handle: (channel, listener) => void ipcHandlers.set(channel, listener) },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => (calls.push('protocol.registerSchemesAsPrivileged'), void privilegedSchemes.push(...schemes)),
      handle: (scheme, handler) => (calls.push(`protocol.handle:${scheme}`), void protocolHandlers.set(scheme, handler)),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => void (permissions.request = handler),
        setPermissionCheckHandler: (handler) => void (permissions.check = handler),
        setDevicePermissionHandler: () => undefined,
      },
    },
    shell: { openExternal: async (url) => void calls.push(`shell.openExternal:${url}`) },
    // A keyring that "encrypts" reversibly, so the token store writes its file.
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (text) => Buffer.from(`fake-encrypted:${Buffer.from(text).toString('base64')}`),
      decryptStringAsync: async (data) => ({ shouldReEncrypt: false, result: Buffer.from(data.toString().replace(/^fake-encrypted:/, ''), 'base64').toString() }),
    },
    Tray: class extends FakeTray {
      constructor(icon: string) {
        super(icon);
        calls.push('new Tray');
        trays.push(this);
      }
    },
    Menu: { buildFromTemplate: (items) => ({ items: [...items] }) },
    Notification,
  };
  return { module, app, calls, windows, trays, notifications, ipcHandlers, privilegedSchemes, protocolHandlers, permissions };
}
