import type { Locator, Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';

/** The rows of one connection with one command (the connection menu and the command's chip). */
async function commandRows(page: Page, connection: string, command: string): Promise<Locator> {
  await page.getByTestId('inspector-connection').selectOption(connection);
  const chip = page.locator(`[data-testid="inspector-chip"][data-chip="command:${command}"]`);
  if ((await chip.getAttribute('data-state')) !== 'only') await chip.click();
  await expect(chip).toHaveAttribute('data-state', 'only');
  return page.getByTestId('inspector-row');
}

test('issue 26 §9: an opened recording shows its lints, every relay row the live view showed, its own relay panel; the "Last recording" banner can be dismissed', async ({ page, games }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const host = await startHost();
  await openUi(page, host, 'inspector');
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-live')).toBeVisible();
  const file = (await page.getByTestId('inspector-recording-live').locator('code').first().textContent()) ?? '';

  // A game whose activities the real client accepts but shows badly (a start time in seconds): lints.
  const game = await games.raw(host, DEMO_APP_ID);
  for (const state of ['Recorded one', 'Recorded two', 'Recorded three']) {
    expect(await game.request('SET_ACTIVITY', { pid: process.pid, activity: { state, timestamps: { start: Math.floor(Date.now() / 1000) } } })).toMatchObject({ evt: null });
  }
  const rows = page.getByTestId('inspector-row');
  await page.getByTestId('inspector-search').fill('Recorded');
  // The game's own row (the host's gateway rows may carry the same state: the platform's echo of the presence).
  const connection = ((await rows.and(page.locator('[data-direction="in"]')).first().locator('span').nth(2).textContent()) ?? '').trim();
  await page.getByTestId('inspector-search').fill('');
  game.close();
  await expect(rows.and(page.locator('[data-direction="host"]')).filter({ hasText: 'close' })).not.toHaveCount(0);

  // What the live view shows of that game: its lints and its relay rows, once the relay has settled.
  const liveLints = await (async () => {
    const set = await commandRows(page, connection, 'SET_ACTIVITY');
    await expect(set.getByTestId('inspector-lint-badge')).toHaveCount(3);
    return 3;
  })();
  await page.getByTestId('inspector-chips-clear').click();
  const liveRelay = await commandRows(page, connection, 'relay');
  let liveRelayCount = -1;
  await expect
    .poll(async () => {
      const now = await liveRelay.count();
      const settled = now === liveRelayCount && now > 0;
      liveRelayCount = now;
      return settled;
    }, { intervals: [1_000], timeout: 15_000 })
    .toBe(true);
  await page.getByTestId('inspector-chips-clear').click();
  await page.getByTestId('inspector-connection').selectOption('');

  await page.getByTestId('inspector-record').click();
  const done = page.getByTestId('inspector-recording-done');
  await expect(done).toContainText(file);

  // The recording, opened: the same lints and relay rows; the relay panel is the recording's.
  await page.getByTestId('inspector-recording-file').setInputFiles(file);
  await expect(page.getByTestId('inspector-recording-opened')).toBeVisible();
  const recordedSet = await commandRows(page, connection, 'SET_ACTIVITY');
  await expect(recordedSet.getByTestId('inspector-lint-badge')).toHaveCount(liveLints);
  await recordedSet.and(page.locator('[data-direction="in"]')).first().click();
  await expect(page.getByTestId('inspector-lints')).toContainText('timestamps.start');
  await page.getByTestId('inspector-chips-clear').click();
  const recordedRelay = await commandRows(page, connection, 'relay');
  await expect(recordedRelay).toHaveCount(liveRelayCount);
  await page.getByTestId('inspector-chips-clear').click();
  await page.getByTestId('inspector-connection').selectOption('');
  const panel = page.getByTestId('inspector-relay');
  await expect(panel).toHaveAttribute('data-source', 'recording');
  await expect(panel.locator('summary')).toContainText(`: ${liveRelayCount} update outcomes`);
  await screenshot(page, 'issue-26-inspector-opened-recording');

  // Back to live: the live relay panel again, and the finished recording's note, until dismissed.
  await page.getByTestId('inspector-recording-close').click();
  await expect(panel).toHaveAttribute('data-source', 'live');
  await expect(done).toBeVisible();
  await page.getByTestId('inspector-recording-dismiss').click();
  await expect(done).toHaveCount(0);
  await page.getByTestId('nav-games').click();
  await page.getByTestId('nav-inspector').click();
  await expect(page.getByTestId('inspector-recording-done')).toHaveCount(0);
  // The next recording shows its own banner.
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-live')).toBeVisible();
});
