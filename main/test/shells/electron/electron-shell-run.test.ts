import fs, { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS, type Snapshot } from '../../../../preload/src/contract.js';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import type * as ElectronMain from '../../../src/shells/electron/electron-main.js';
import { REPO_ROOT } from '../../support/cli-process.js';
import { fakeElectron, type FakeElectron } from './support/fake-electron.js';

/**
 * `runElectronShell`, the desktop app's whole start, run under Node on a fake of the electron
 * module (support/fake-electron.ts), with the real host behind it: the built shell
 * (out/main/src/shells/electron/electron-main.js, so the preload and renderer paths are the ones
 * the app uses), its data in a temporary userData, its sockets in a temporary XDG_RUNTIME_DIR.
 */
const DEMO_APP_ID = '1234567890123456789';
const BUILT_MAIN = path.join(REPO_ROOT, 'out/main/src/shells/electron/electron-main.js');
const PRELOAD = path.join(REPO_ROOT, 'out/preload-bundle/index.cjs');
const RENDERER_INDEX = path.join(REPO_ROOT, 'out/renderer/index.html');

let dirs: { userData: string; runtime: string; config: string };
const games: RawClient[] = [];
/** The shell's log records: its logger writes JSON lines to fd 2 (kept here instead). */
let logs: { level: number; msg: string }[] = [];

beforeEach(async () => {
  for (const file of [BUILT_MAIN, PRELOAD, RENDERER_INDEX]) {
    if (!existsSync(file)) throw new Error(`${path.relative(REPO_ROOT, file)} is missing: run 'npm run build' first`);
  }
  const make = (name: string) => mkdtemp(path.join(os.tmpdir(), `companion-shell-${name}-`));
  dirs = { userData: await make('data'), runtime: await make('run'), config: await make('config') };
  vi.stubEnv('XDG_RUNTIME_DIR', dirs.runtime);
  vi.stubEnv('XDG_CONFIG_HOME', dirs.config);
  logs = [];
  const writeSync = fs.writeSync.bind(fs);
  vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: never[]) => {
    const text = fd === 2 ? (typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString()) : '';
    if (!text.startsWith('{"level":')) return writeSync(fd, data as string, ...rest);
    for (const line of text.split('\n').filter(Boolean)) logs.push(JSON.parse(line) as { level: number; msg: string });
    return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  }) as typeof fs.writeSync);
});

afterEach(async () => {
  for (const game of games.splice(0)) game.socket.destroy();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function startShell(electron: FakeElectron): Promise<void> {
  const shell = (await import(BUILT_MAIN)) as typeof ElectronMain;
  await shell.runElectronShell(electron.module, { createBridge: shell.hostBridge });
}

/** What a window's page does first: `companion:ready` through the guarded IPC, as the preload sends it. */
async function pageReady(electron: FakeElectron, window: FakeElectron['windows'][number]): Promise<Snapshot> {
  const handler = electron.ipcHandlers.get('companion:ready');
  if (handler === undefined) throw new Error('no companion:ready handler');
  const event = { sender: { id: window.webContents.id }, senderFrame: { url: window.webContents.getURL(), parent: null } };
  return (await handler(event)) as Snapshot;
}

describe('the desktop shell, started on a fake Electron', () => {
  it('takes the lock, registers the schemes, opens the main window on the renderer with the preload, starts the host and the tray', { timeout: 60_000 }, async () => {
    const electron = fakeElectron({ userData: dirs.userData });
    await startShell(electron);
    const { calls } = electron;
    const entry = path.join(REPO_ROOT, 'out/main/src/shells/electron/electron-main.js');
    // Before ready: the app: scheme, then the lock, then companion: for this checkout's build.
    expect(calls.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(calls.indexOf('app.requestSingleInstanceLock'));
    expect(calls.indexOf('app.requestSingleInstanceLock')).toBeLessThan(calls.indexOf('app.whenReady'));
    expect(calls).toContain(`app.setAsDefaultProtocolClient:companion ${process.execPath} ${entry}`);
    expect(electron.privilegedSchemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    // After ready: permissions denied, the renderer served on app://, the contract's IPC guarded.
    const denied = vi.fn();
    electron.permissions.request?.({}, 'media', denied);
    expect(denied).toHaveBeenCalledWith(false);
    expect(electron.permissions.check?.({}, 'notifications')).toBe(false);
    const served = await electron.protocolHandlers.get('app')?.({ url: 'app://companion/index.html', method: 'GET' });
    expect(served?.status).toBe(200);
    expect(served?.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await served?.text()).toBe(await readFile(RENDERER_INDEX, 'utf8'));
    expect([...electron.ipcHandlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());

    expect(electron.windows).toHaveLength(1);
    const main = electron.windows[0] as FakeElectron['windows'][number];
    expect(main.loaded).toEqual(['app://companion/index.html']);
    expect(main.options.webPreferences).toMatchObject({ preload: PRELOAD, sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(main.options.icon).toBe(path.join(REPO_ROOT, 'assets/icon-256.png'));
    expect(existsSync(main.options.icon as string)).toBe(true);
    expect(main.webContents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    await until('the main window shown', () => calls.includes('window.show:Companion'));

    // The host: listening on its socket in the temporary runtime dir, signed in as the emulator's alice.
    const socket = path.join(dirs.runtime, 'discord-ipc-0');
    expect(existsSync(socket)).toBe(true);
    const snapshot = await pageReady(electron, main);
    expect(snapshot.status.ipc?.path).toBe(socket);
    const tray = electron.trays[0];
    expect(tray?.icon).toBe(path.join(REPO_ROOT, 'assets/icon-32.png'));
    await until('the tray to show the signed-in account', () => tray?.menu?.items.some((item) => item.label === 'Signed in as alice'));
    expect(tray?.tooltip).toMatch(/^Companion — /);
    expect(tray?.menu?.items.map((item) => item.label)).toEqual(expect.arrayContaining(['Open Companion', 'Start at login', 'Quit Companion']));
    // Start at login, on Linux: an XDG autostart entry that runs this build's shell.
    tray?.click('Start at login');
    const autostart = path.join(dirs.config, 'autostart', 'companion.desktop');
    await until('the autostart entry', () => existsSync(autostart));
    expect(await readFile(autostart, 'utf8')).toMatch(/^Exec=.*out\/main\/src\/shells\/electron\/electron-main\.js"?$/m);
    await until('the tray to show start at login checked', () => tray?.menu?.items.some((item) => item.label === 'Start at login' && item.checked === true));

    await quit(electron, socket);
    expect(logs.map((record) => record.msg)).toEqual(expect.arrayContaining(['gateway ready', 'permission request denied', 'window.open refused']));
    expect(logs.filter((record) => record.level >= 50)).toEqual([]);
  });

  it('a game sharing its activity raises a notification, its AUTHORIZE the consent window; a second launch brings the main window up', { timeout: 60_000 }, async () => {
    const electron = fakeElectron({ userData: dirs.userData });
    await startShell(electron);
    const main = electron.windows[0] as FakeElectron['windows'][number];
    await pageReady(electron, main);
    const socket = path.join(dirs.runtime, 'discord-ipc-0');
    const { client: game } = await RawClient.ready(socket, DEMO_APP_ID);
    games.push(game);

    expect(await game.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'In a match' } })).toMatchObject({ evt: null, cmd: 'SET_ACTIVITY' });
    const shared = await until('the sharing notification', () => electron.notifications.find((n) => n.title === 'Sharing your activity' && n.shown));
    expect(shared.body).toMatch(/now shows your activity to friends/);
    // The page that said ready gets the host's pushes.
    await until('a push to the main window', () => main.webContents.sent.some((message) => message.channel === 'companion:topic'));

    game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
    const consent = await until('the consent window', () => electron.windows.find((window) => window.loaded.some((url) => url.endsWith('#/consent'))));
    expect(consent.loaded).toEqual(['app://companion/index.html#/consent']);
    expect(consent.options).toMatchObject({ alwaysOnTop: true, webPreferences: expect.objectContaining({ preload: PRELOAD, sandbox: true }) });
    await until('the tray to offer the request', () => electron.trays[0]?.menu?.items.some((item) => item.label === 'Authorization requests (1)…'));

    const moves = electron.calls.filter((call) => call === 'window.moveTop:Companion').length;
    electron.app.emit('second-instance', {}, ['/opt/Companion/companion']);
    expect(electron.calls.filter((call) => call === 'window.moveTop:Companion')).toHaveLength(moves + 1);

    await quit(electron, socket);
    await game.waitClosed();
  });

  it('issue 28 §1: a game asking Companion to show a view brings the main window to the front, and its page is sent there', { timeout: 60_000 }, async () => {
    const electron = fakeElectron({ userData: dirs.userData });
    await startShell(electron);
    const main = electron.windows[0] as FakeElectron['windows'][number];
    await pageReady(electron, main);
    const socket = path.join(dirs.runtime, 'discord-ipc-0');
    const { client: game } = await RawClient.ready(socket, DEMO_APP_ID);
    games.push(game);
    const moves = electron.calls.filter((call) => call === 'window.moveTop:Companion').length;
    expect(await game.request('OPEN_CONNECTED_GAMES_SETTINGS', {})).toMatchObject({ cmd: 'OPEN_CONNECTED_GAMES_SETTINGS', data: null });
    const push = await until('the open-view push', () => main.webContents.sent.find((message) => message.channel === 'companion:open-view'));
    expect(push.payload).toEqual({ view: 'authorized-apps', application_id: DEMO_APP_ID });
    expect(electron.calls.filter((call) => call === 'window.moveTop:Companion')).toHaveLength(moves + 1);
    // Closed to the tray: the game's request opens the main window again, which gets it once ready.
    main.close();
    expect((await game.request('OPEN_CONNECTED_GAMES_SETTINGS', {})).data).toBeNull();
    const reopened = await until('a new main window', () => electron.windows.find((window, index) => index > 0 && window.loaded.includes('app://companion/index.html')));
    await pageReady(electron, reopened);
    const queued = await until('the open-view push to the new window', () => reopened.webContents.sent.find((message) => message.channel === 'companion:open-view'));
    expect(queued.payload).toEqual({ view: 'authorized-apps', application_id: DEMO_APP_ID });
    await quit(electron, socket);
    await game.waitClosed();
  });

  it('quits at once, starting nothing, when another instance holds the lock', async () => {
    const electron = fakeElectron({ userData: dirs.userData, singleInstance: false });
    await startShell(electron);
    expect(electron.calls).toEqual(['protocol.registerSchemesAsPrivileged', 'app.requestSingleInstanceLock', 'app.quit', 'app.exit:0']);
    expect(existsSync(path.join(dirs.runtime, 'discord-ipc-0'))).toBe(false);
  });
});

/** The tray's Quit: every window closed, the tray gone, the host closed (its socket removed), then exit 0. */
async function quit(electron: FakeElectron, socket: string): Promise<void> {
  const tray = electron.trays[0];
  if (tray === undefined) throw new Error('no tray');
  tray.click('Quit Companion');
  expect(await electron.app.exitCode).toBe(0);
  expect(electron.windows.every((window) => window.isDestroyed())).toBe(true);
  expect(tray.destroyed).toBe(true);
  expect(existsSync(socket)).toBe(false);
  expect(electron.calls.filter((call) => call.startsWith('app.exit'))).toEqual(['app.exit:0']);
}
