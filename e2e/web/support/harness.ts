import path from 'node:path';
import { expect as baseExpect, test as base, type Page } from '@playwright/test';
import { SCREENSHOTS, stopAll, type HostProcess } from './processes.js';
import { RawIpcClient } from '../../../rpc/src/framing/raw-ipc-client.js';
import { connectXhayper, type XhayperGame } from './xhayper-game.js';

/** A game speaking the framing directly (rpc's RawIpcClient), its payloads typed `any` for the specs' expectations. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are arbitrary JSON, checked by the specs' expectations
export class RawGame extends RawIpcClient<any> {}

/**
 * The specs' test: `games` connects games to a host and disconnects them after the test;
 * every host and emulator started during the test is killed afterwards, also when it failed.
 */
export interface Games {
  raw(host: HostProcess, clientId: string): Promise<RawGame>;
  xhayper(host: HostProcess, clientId: string): Promise<XhayperGame>;
}

export const test = base.extend<{ games: Games; processes: void }>({
  // Every browser context a test opened (a second player's page) is closed after it, then every
  // host and emulator it started is stopped, passed or failed. A context left open would outlive
  // its host and sit in the shared browser through the later tests: Playwright screenshots every
  // open page (and may describe the oldest) when a later test fails, so that test's report would
  // show a stranger's screen with "Connection to the Companion host lost".
  processes: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      try {
        await use();
      } finally {
        await Promise.all(browser.contexts().filter((context) => !before.has(context)).map((context) => context.close()));
        await stopAll();
      }
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern -- as above
  games: async ({}, use) => {
    const open: (() => Promise<void> | void)[] = [];
    try {
      await use({
        async raw(host, clientId) {
          const { client: game, ready } = await RawGame.ready(host.ipcPath, clientId);
          open.push(() => game.close());
          if (ready?.evt !== 'READY') throw new Error(`no READY: ${JSON.stringify(ready)}`);
          return game;
        },
        async xhayper(host, clientId) {
          const game = await connectXhayper(host.runtimeDir, clientId);
          open.push(() => game.close());
          return game;
        },
      });
    } finally {
      for (const close of open.reverse()) await close();
    }
  },
});

/** UI state that crosses processes (gateway round trips, snapshot pushes): more than the default 5 s. */
export const expect = baseExpect.configure({ timeout: 15_000 });

/** Opens the host's web UI with its token (it becomes the session cookie), on `screen` if given. */
export async function openUi(page: Page, host: HostProcess, screen?: 'games' | 'friends' | 'inspector' | 'apps' | 'settings'): Promise<void> {
  await page.goto(host.openUrl);
  // The token leaves the address bar at once (302 to / with the cookie).
  await expect(page).toHaveURL(host.baseUrl);
  await expect(page.getByTestId('nav-games')).toBeVisible();
  await expect(page.getByTestId('loading')).toHaveCount(0);
  if (screen !== undefined && screen !== 'games') await page.getByTestId(`nav-${screen}`).click();
}

/** The screen as the test left it, in out/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core, from the dev dependency, loaded into the page (as `window.axe`). */
export async function injectAxe(page: Page): Promise<void> {
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  // Evaluated through the DevTools protocol: the UI's Content-Security-Policy refuses inline scripts, as it should.
  await page.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
}

/** axe-core, from the dev dependency, run in the page: its violations (id and the first node's target), none expected. */
export async function axeViolations(page: Page): Promise<{ id: string; target: string }[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, target: JSON.stringify(v.nodes[0]?.target ?? []) }));
  });
}
