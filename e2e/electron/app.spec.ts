import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';

/**
 * The Electron shell, driven for real: `npm run test:electron` (scripts/test-electron.mjs) runs
 * it with ELECTRON_PATH set to the binary `npm start` would use, and skips it with a one-line
 * reason where there is none. Run directly, it skips itself the same way:
 * `node_modules/electron/path.txt` is written only when electron's installer has downloaded the
 * binary (`npm install` tries, `npx install-electron` retries), and ELECTRON_PATH can name one.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'out/main/src/shells/electron/electron-main.js');
const ELECTRON_PATH = process.env['ELECTRON_PATH'];
const HAS_BINARY = (ELECTRON_PATH !== undefined && ELECTRON_PATH !== '') || existsSync(path.join(ROOT, 'node_modules/electron/path.txt'));
const SKIP_REASON = 'no Electron binary: node_modules/electron/path.txt is absent and ELECTRON_PATH is unset';

if (!HAS_BINARY) process.stdout.write(`e2e/electron: skipped, ${SKIP_REASON}\n`);
test.skip(!HAS_BINARY, SKIP_REASON);

let home: string;
let app: ElectronApplication;

test.beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'companion-electron-'));
  app = await electron.launch({
    args: [ENTRY],
    ...(ELECTRON_PATH === undefined || ELECTRON_PATH === '' ? {} : { executablePath: ELECTRON_PATH }),
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_RUNTIME_DIR: path.join(home, 'run'),
      COMPANION_LOG_LEVEL: 'warn',
    },
  });
});

test.afterEach(async () => {
  await app?.close().catch(() => undefined);
  await rm(home, { recursive: true, force: true });
});

/** discord-ipc framing: opcode and length (int32 LE), then JSON. */
function frame(op: number, body: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(body));
  const head = Buffer.alloc(8);
  head.writeInt32LE(op, 0);
  head.writeInt32LE(json.length, 4);
  return Buffer.concat([head, json]);
}

async function connectGame(clientId: string): Promise<Socket> {
  const socketPath = path.join(home, 'run', 'discord-ipc-0');
  await expect.poll(() => existsSync(socketPath), { timeout: 20_000 }).toBe(true);
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const ready = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(frame(0, { v: 1, client_id: clientId }));
  await ready;
  return socket;
}

async function mainWindow(): Promise<Page> {
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return page;
}

test('opens the main window on the app origin, sandboxed, with the bridge', async () => {
  const page = await mainWindow();
  await expect(page).toHaveTitle(/Companion/);
  expect(page.url()).toMatch(/^app:\/\/companion\//);
  // The preload exposed the contract and nothing of Node.
  expect(await page.evaluate(() => Object.keys((window as unknown as { companion: object }).companion).sort())).toEqual(['invoke', 'on']);
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
});

test('a game AUTHORIZE brings the consent prompt to the front', async () => {
  await mainWindow();
  const game = await connectGame('1234567890123456');
  const consentWindow = app.waitForEvent('window', { predicate: (page) => page.url().includes('#/consent') });
  game.write(frame(1, { cmd: 'AUTHORIZE', nonce: 'n1', args: { client_id: '1234567890123456', scopes: ['identify', 'rpc'] } }));
  const consent = await consentWindow;
  await expect(consent.getByRole('button', { name: /approve/i })).toBeVisible({ timeout: 20_000 });
  await expect(consent.getByRole('button', { name: /deny/i })).toBeVisible();
  game.destroy();
});

test('refuses navigation away from the app and window.open', async () => {
  const page = await mainWindow();
  await page.evaluate(() => {
    window.open('https://example.com/');
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toMatch(/^app:\/\/companion\//);
  expect(app.windows().every((page) => page.url().startsWith('app://companion/'))).toBe(true);
});
