import type { Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';

interface Box {
  readonly what: string;
  readonly left: number;
  readonly right: number;
  readonly clipped: boolean;
}

/** The frame list's header cells and every cell of its rows shown, with where they are drawn. */
async function listBoxes(page: Page): Promise<{ cells: Box[]; list: { scrollWidth: number; clientWidth: number; left: number; right: number }; viewport: number }> {
  return page.getByTestId('inspector-scroll').evaluate((list) => {
    // `text`: the element whose text must show whole (a header cell's name; its resize edge overhangs the cell).
    const box = (what: string, el: Element, text: Element = el): Box => {
      const rect = el.getBoundingClientRect();
      const html = text as HTMLElement;
      return { what, left: rect.left, right: rect.right, clipped: html.scrollWidth > html.clientWidth + 1 };
    };
    const head = Array.from(list.querySelectorAll('.frame-head > .frame-head-cell')).map((cell, i) => box(`header ${i} ${cell.textContent ?? ''}`, cell, cell.firstElementChild ?? cell));
    const rows = Array.from(list.querySelectorAll('[data-testid="inspector-row"]')).flatMap((row, r) =>
      Array.from(row.children).map((cell, c) => box(`row ${r} column ${c} "${cell.textContent ?? ''}"`, cell)),
    );
    const rect = list.getBoundingClientRect();
    return { cells: [...head, ...rows], list: { scrollWidth: list.scrollWidth, clientWidth: list.clientWidth, left: rect.left, right: rect.right }, viewport: window.innerWidth };
  });
}

test('issue 26 §5: the inspector at 1280x800 shows every default column (Evt with error codes and consent decisions, Nonce, RTT) without scrolling sideways; at 800x600 it may scroll', async ({ page, games }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const host = await startHost();
  await openUi(page, host, 'inspector');
  // A fresh browser: the default column widths (none resized).
  await page.evaluate(() => window.localStorage.removeItem('companion.inspector.columns'));
  await page.reload();
  const game = await games.raw(host, DEMO_APP_ID);
  const rows = page.getByTestId('inspector-row');
  // A consent decision (denied: an error reply with its code and the decision), a command the host
  // does not know (an error code), and a SET_ACTIVITY with its round trip.
  const denied = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  await page.getByTestId('consent-prompt').getByTestId('consent-deny').click();
  await game.reply(denied);
  const unknown = game.command('NOT_A_COMMAND', {});
  await game.reply(unknown);
  const set = game.command('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Columns', details: 'At 1280x800' } });
  await game.reply(set);
  const deniedReply = rows.and(page.locator('[data-direction="out"]')).filter({ hasText: denied });
  await expect(deniedReply.getByTestId('inspector-consent-decision')).toHaveText('· denied (player)');
  await expect(deniedReply.getByTestId('inspector-error-code')).toBeVisible();
  await expect(rows.and(page.locator('[data-direction="out"]')).filter({ hasText: set }).getByTestId('inspector-rtt')).toHaveText(/^\d+ ms$/);

  const wide = await listBoxes(page);
  await screenshot(page, 'issue-26-inspector-1280x800');
  expect(wide.list.scrollWidth, `the list scrolls sideways: ${JSON.stringify(wide.list)}`).toBeLessThanOrEqual(wide.list.clientWidth);
  expect(wide.cells.filter((cell) => cell.what.startsWith('header'))).toHaveLength(8);
  for (const cell of wide.cells) {
    expect(cell.right, `${cell.what}: within the window (${wide.viewport} px)`).toBeLessThanOrEqual(wide.viewport);
    expect(cell.right, `${cell.what}: within the list`).toBeLessThanOrEqual(wide.list.right);
    expect.soft(cell.clipped, `${cell.what}: shown whole`).toBe(false);
  }

  // 800x600: the list may scroll sideways; every column is still reached by scrolling.
  await page.setViewportSize({ width: 800, height: 600 });
  const list = page.getByTestId('inspector-scroll');
  await expect.poll(() => list.evaluate((el) => el.clientWidth)).toBeLessThan(wide.list.clientWidth);
  await list.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  const narrow = await listBoxes(page);
  const rttHeader = narrow.cells.find((cell) => cell.what.startsWith('header 7'));
  expect(rttHeader?.right, 'RTT reached by scrolling').toBeLessThanOrEqual(narrow.list.right);
  expect(rttHeader?.left, 'RTT reached by scrolling').toBeGreaterThanOrEqual(narrow.list.left);
  await screenshot(page, 'issue-26-inspector-800x600');
});
