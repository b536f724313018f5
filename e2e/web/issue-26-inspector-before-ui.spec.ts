import type { Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';

/** Whether the list shows fewer rows than the inspector holds, by the count above it ("7 of 2009 rows …"). */
async function filtered(page: Page): Promise<boolean> {
  const [, shown, total] = ((await page.getByTestId('inspector-count').textContent()) ?? '').match(/^([\d,]+) of ([\d,]+) rows/) ?? [];
  return Number(shown?.replace(/,/g, '')) < Number(total?.replace(/,/g, ''));
}

/** The connection id of the game's rows the search finds (the third column). */
async function connectionOf(page: Page, text: string): Promise<string> {
  await page.getByTestId('inspector-connection').selectOption('');
  await page.getByTestId('inspector-search').fill(text);
  // The list filters with the deferred search text (typing stays responsive with 10,000 rows):
  // until it has, it shows every connection's newest rows (the flooding game's), so a row read
  // then names the wrong game. On a slow machine that window is long: wait for the count.
  await expect.poll(() => filtered(page)).toBe(true);
  // The game's own row (the host's gateway rows may carry the same text: the platform's echo of the presence).
  const row = page.getByTestId('inspector-row').and(page.locator('[data-direction="in"]')).first();
  await expect(row).toBeVisible();
  const id = (await row.locator('span').nth(2).textContent()) ?? '';
  await page.getByTestId('inspector-search').fill('');
  return id;
}

test('issue 26 §4: the inspector shows what happened while no UI was open, from the first byte, and says what the host dropped', async ({ page, games }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const host = await startHost();
  // A game connects, says hello and sets its activity before anyone opens the UI.
  const early = await games.raw(host, DEMO_APP_ID);
  expect(await early.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Before the UI' } })).toMatchObject({ evt: null });
  // A second game floods its own ring (more rows than one connection keeps), still with no UI.
  const busy = await games.raw(host, DEMO_APP_ID);
  let last = '';
  for (let i = 0; i < 1_100; i++) last = busy.command('SET_ACTIVITY', { pid: process.pid, activity: { state: `Flood ${i}` } });
  expect(await busy.reply(last, 30_000)).toMatchObject({ evt: null });

  await openUi(page, host, 'inspector');
  const rows = page.getByTestId('inspector-row');
  const earlyId = await connectionOf(page, 'Before the UI');
  await page.getByTestId('inspector-connection').selectOption(earlyId);
  // Its whole conversation: the host's open row, HANDSHAKE in, READY out, SET_ACTIVITY in and its reply.
  await expect(rows.and(page.locator('[data-direction="host"]')).filter({ hasText: 'open' })).toHaveCount(1);
  await expect(rows.and(page.locator('[data-direction="in"]')).filter({ hasText: 'HANDSHAKE' })).toHaveCount(1);
  await expect(rows.and(page.locator('[data-direction="out"]')).filter({ hasText: 'READY' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'SET_ACTIVITY' })).toHaveCount(2);
  await expect(page.getByTestId('inspector-dropped')).toHaveCount(0);
  await screenshot(page, 'issue-26-inspector-game-before-ui');

  // The flooding game: its opening is kept, then "N older frames dropped" where the gap is, then its newest rows.
  const busyId = await connectionOf(page, 'Flood 1099');
  await page.getByTestId('inspector-connection').selectOption(busyId);
  // Paused, the list stays where it is scrolled to (not at the newest row).
  await page.getByTestId('inspector-pause').click();
  await page.getByTestId('inspector-scroll').locator('.vlist').evaluate((list) => {
    list.scrollTop = 0;
  });
  await expect(rows.and(page.locator('[data-direction="in"]')).filter({ hasText: 'HANDSHAKE' })).toHaveCount(1);
  const marker = page.getByTestId('inspector-dropped');
  await expect(marker).toHaveCount(1);
  await expect(marker).toContainText(/[\d,]+ older frames dropped/);
  await expect(marker).toHaveAttribute('data-connection', busyId);
  const dropped = Number(((await marker.textContent()) ?? '').match(/([\d,]+) older frames dropped/)?.[1]?.replace(/,/g, ''));
  // 1,100 commands and their replies, their relay outcomes and the opening: more than a ring keeps.
  expect(dropped).toBeGreaterThan(0);
  await screenshot(page, 'issue-26-inspector-older-frames-dropped');
});
