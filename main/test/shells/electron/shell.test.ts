import { describe, expect, it, vi } from 'vitest';
import type { InviteView, JoinRequestView, StatusView } from '../../../../preload/src/contract.js';
import type { BrowserWindowLike, BrowserWindowOptionsLike, PermissionSessionLike, WebContentsLike } from '../../../src/shells/electron/electron-types.js';
import { denyAllPermissions, guardWebContents } from '../../../src/shells/electron/guards-adapter.js';
import { snapshotChanges } from '../../../src/shells/electron/notifications.js';
import { acquireSingleInstance } from '../../../src/shells/electron/single-instance.js';
import { trayMenuTemplate, trayTooltip } from '../../../src/shells/electron/tray-menu.js';
import { WindowManager } from '../../../src/shells/electron/windows-adapter.js';
import { uiSnapshot, uiStatus, uiUser } from '../../support/ui-snapshot.js';

const user = uiUser;
const STATUS: StatusView = uiStatus();
const snapshot = uiSnapshot;

describe('tray menu', () => {
  it('shows status and the quick actions', () => {
    const items = trayMenuTemplate({ status: STATUS, pendingConsents: 2, games: 1, openAtLogin: true, loginItemSupported: true });
    expect(items.map((item) => item.label ?? '—')).toEqual([
      'Status: Connected',
      'Signed in as nelly',
      '1 game connected',
      '—',
      'Open Companion',
      'Authorization requests (2)…',
      'Start at login',
      '—',
      'Quit Companion',
    ]);
    expect(items.find((item) => item.action === 'toggle-login-item')).toMatchObject({ type: 'checkbox', checked: true });
    expect(items.slice(0, 3).every((item) => item.enabled === false)).toBe(true);
  });

  it('handles a host that has not started and a hostile name', () => {
    const items = trayMenuTemplate({ status: null, pendingConsents: 0, games: 0, openAtLogin: false, loginItemSupported: false });
    expect(items.map((item) => item.action).filter(Boolean)).toEqual(['open', 'quit']);
    const tooltip = trayTooltip({
      status: { ...STATUS, account: { user: { ...user('2', 'x'), global_name: `a\nb${'z'.repeat(100)}` } } },
      pendingConsents: 0,
      games: 0,
      openAtLogin: false,
      loginItemSupported: false,
    });
    expect(tooltip).not.toContain('\n');
    expect(tooltip.length).toBeLessThan(80);
  });
});

describe('notifications', () => {
  const join: JoinRequestView = { id: 'j1', user: user('5', '<b>mallory</b>'), application_id: '99', received_at: 1 };
  const invite: InviteView = { id: 'i1', user: user('6', 'trent'), application_id: '99', activity: { name: 'Chess' }, content: '', received_at: 2, expires_at: 3, valid: true };

  it('announces only what is new, as plain text', () => {
    const first = snapshotChanges(null, snapshot({ join_requests: [join] }));
    expect(first.notifications).toEqual([]);
    const next = snapshotChanges(
      snapshot(),
      snapshot({ join_requests: [join], invites: [invite], games: [{ connection_id: 'c', client_id: '99', application_name: 'Chess', pid: 1, transport: 'ipc', client_library: { library: 'unknown', reason: 'no command seen yet' }, activity: null, connected_at: 0, link_requests: false }] }),
    );
    expect(next.notifications).toEqual([
      { kind: 'join-request', id: 'j1', title: 'Ask to Join', body: 'b mallory /b wants to join your game Chess.' },
      { kind: 'invite', id: 'i1', title: 'Game invite', body: 'trent invited you to join Chess.' },
    ]);
    expect(next.notifications.map((n) => n.body).join()).not.toMatch(/[<>]/);
    expect(snapshotChanges(snapshot({ join_requests: [join] }), snapshot({ join_requests: [join] })).notifications).toEqual([]);
  });

  it("announces an app's first activity once: the player learns friends can now see it", () => {
    const presence = (announced: { application_id: string; application_name: string; at: number }[]) => ({
      policy: 'most-recent' as const,
      pinned_application_id: null,
      hide_all: false,
      rules: {},
      games: [],
      recent_outcomes: [],
      announced,
    });
    const before = snapshot({ presence: presence([{ application_id: '1', application_name: 'Old', at: 1 }]) });
    const after = snapshot({ presence: presence([{ application_id: '1', application_name: 'Old', at: 1 }, { application_id: '2', application_name: '<i>Chess</i>', at: 2 }]) });
    expect(snapshotChanges(before, after).notifications).toEqual([
      { kind: 'sharing', id: '2', title: 'Sharing your activity', body: 'i Chess /i now shows your activity to friends. Change it on the Games screen.' },
    ]);
    expect(snapshotChanges(after, after).notifications).toEqual([]);
    expect(snapshotChanges(null, after).notifications).toEqual([]);
  });

  it('brings up the consent window for each new consent request', () => {
    const request = {
      id: 'c1',
      application: { id: '99', name: 'Chess', icon: null, verified: false },
      scopes: ['identify'],
      expanded_scopes: ['identify'],
      descriptions: [],
      integration_type: null,
      state: 'visible' as const,
      expires_at: null,
    };
    expect(snapshotChanges(null, snapshot({ consent_requests: [request] })).newConsentRequests).toEqual(['c1']);
    expect(snapshotChanges(snapshot({ consent_requests: [request] }), snapshot({ consent_requests: [request] })).newConsentRequests).toEqual([]);
  });
});

describe('single instance', () => {
  it('quits when the lock is held elsewhere', () => {
    const app = { requestSingleInstanceLock: () => false, quit: vi.fn(), on: vi.fn() };
    expect(acquireSingleInstance(app, 'companion', { focus: vi.fn(), deepLink: vi.fn() })).toBe(false);
    expect(app.quit).toHaveBeenCalled();
    expect(app.on).not.toHaveBeenCalled();
  });

  it('a second launch focuses the window and hands over its link', () => {
    let listener: ((event: unknown, argv: string[]) => void) | undefined;
    const app = { requestSingleInstanceLock: () => true, quit: vi.fn(), on: (_e: 'second-instance', l: typeof listener) => (listener = l) };
    const focus = vi.fn();
    const deepLink = vi.fn();
    expect(acquireSingleInstance(app, 'companion', { focus, deepLink })).toBe(true);
    listener?.({}, ['/opt/Companion/companion', '--no-sandbox']);
    expect(focus).toHaveBeenCalledTimes(1);
    expect(deepLink).not.toHaveBeenCalled();
    listener?.({}, ['/opt/Companion/companion', 'companion:/authorize/callback?code=a&state=b']);
    expect(deepLink).toHaveBeenCalledWith('companion:/authorize/callback?code=a&state=b');
  });
});

type Listener = (...args: never[]) => void;

function fakeContents(id: number, url = 'app://companion/index.html') {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const contents = {
    id,
    sent: [] as [string, unknown][],
    send(channel: string, payload: unknown) {
      contents.sent.push([channel, payload]);
    },
    isDestroyed: () => false,
    on(event: string, listener: Listener) {
      listeners.set(event, listener);
      return contents;
    },
    getURL: () => url,
    setWindowOpenHandler(handler: typeof openHandler) {
      openHandler = handler;
    },
    emit(event: string, ...args: unknown[]) {
      (listeners.get(event) as ((...a: unknown[]) => void) | undefined)?.(...args);
    },
    open: (target: string) => openHandler?.({ url: target }),
  };
  return contents;
}

describe('guards adapter', () => {
  it('prevents navigation off the app origin and denies window.open', () => {
    const contents = fakeContents(1);
    const openExternal = vi.fn();
    guardWebContents(contents as unknown as WebContentsLike, { openExternal, allowedHosts: ['github.com'], logger: { warn: vi.fn() } });
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      const away = { preventDefault: vi.fn(), url: 'https://evil.example/' };
      contents.emit(event, away, away.url);
      expect(away.preventDefault).toHaveBeenCalled();
      const inside = { preventDefault: vi.fn(), url: 'app://companion/index.html#/games' };
      contents.emit(event, inside);
      expect(inside.preventDefault).not.toHaveBeenCalled();
    }
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
    expect(contents.open('https://github.com/x')).toEqual({ action: 'deny' });
    expect(contents.open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(contents.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://github.com/x']]);
  });

  it('denies every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((c: unknown, p: string) => boolean) | undefined;
    const session: PermissionSessionLike = {
      setPermissionRequestHandler: (handler) => (request = handler),
      setPermissionCheckHandler: (handler) => (check = handler),
    };
    denyAllPermissions(session, { warn: vi.fn() });
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      request?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(check?.({}, permission)).toBe(false);
    }
  });
});

describe('window manager', () => {
  function fakeWindowClass() {
    const created: (BrowserWindowLike & { options: BrowserWindowOptionsLike; emit(event: string): void; loaded: string[] })[] = [];
    let nextId = 10;
    class FakeWindow {
      readonly webContents = fakeContents(nextId++);
      readonly loaded: string[] = [];
      private readonly listeners = new Map<string, () => void>();
      destroyed = false;
      constructor(readonly options: BrowserWindowOptionsLike) {
        created.push(this as never);
      }
      async loadURL(url: string) {
        this.loaded.push(url);
      }
      show = vi.fn();
      focus = vi.fn();
      moveTop = vi.fn();
      restore = vi.fn();
      isMinimized = () => false;
      isDestroyed = () => this.destroyed;
      setTitle = vi.fn();
      close = vi.fn();
      destroy = () => this.emit('closed');
      on(event: string, listener: () => void) {
        this.listeners.set(event, listener);
        return this;
      }
      emit(event: string) {
        if (event === 'closed') this.destroyed = true;
        this.listeners.get(event)?.();
      }
    }
    return { created, FakeWindow };
  }

  it('creates secure windows on the app origin, knows them as senders, and queues until ready', () => {
    const { created, FakeWindow } = fakeWindowClass();
    const windows = new WindowManager({ BrowserWindow: FakeWindow as never, preloadPath: '/out/preload-bundle/index.cjs' });
    const main = windows.show('main');
    const consent = windows.show('consent');
    expect(created).toHaveLength(2);
    expect(created[0]?.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, preload: '/out/preload-bundle/index.cjs' });
    expect(created[0]?.loaded).toEqual(['app://companion/index.html']);
    expect(created[1]?.loaded).toEqual(['app://companion/index.html#/consent']);
    expect(created[1]?.options.alwaysOnTop).toBe(true);
    expect(windows.isKnownSender(main.webContents.id)).toBe(true);
    expect(windows.isKnownSender(999)).toBe(false);

    windows.broadcast({ channel: 'companion:frames', payload: [] });
    const sent = (window: BrowserWindowLike) => (window.webContents as unknown as { sent: unknown[] }).sent;
    expect(sent(main)).toEqual([]);
    windows.queue.markReady(main.webContents.id);
    expect(sent(main)).toEqual([['companion:frames', []]]);
    expect(sent(consent)).toEqual([]);

    // Showing again brings the same window to the front.
    expect(windows.show('consent')).toBe(consent);
    expect(consent.moveTop).toHaveBeenCalled();
    expect(consent.focus).toHaveBeenCalled();

    // A closed window is no longer a sender and loses its queue.
    (consent as unknown as { emit(event: string): void }).emit('closed');
    expect(windows.isKnownSender(consent.webContents.id)).toBe(false);
    expect(windows.queue.queued(consent.webContents.id)).toBe(0);
    expect(windows.show('consent')).not.toBe(consent);
  });
});
