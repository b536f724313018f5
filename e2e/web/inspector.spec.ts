import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';

test("the inspector shows a session's frames: the game's SET_ACTIVITY and its reply", async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'inspector');
  await expect(page).toHaveURL(/#inspector$/);
  const game = await games.raw(host, DEMO_APP_ID);
  const nonce = game.command('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Inspecting frames', details: 'QA run' } });
  expect(await game.reply(nonce)).toMatchObject({ cmd: 'SET_ACTIVITY', evt: null, data: { state: 'Inspecting frames' } });

  const rows = page.getByTestId('inspector-row');
  // The session: the handshake in, READY out, the command in, its reply out.
  await expect(rows.filter({ hasText: 'SET_ACTIVITY' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'READY' })).toHaveCount(1);
  await screenshot(page, 'inspector');

  await page.getByTestId('inspector-search').fill(nonce);
  await expect(rows).toHaveCount(2);
  const command = rows.and(page.locator('[data-direction="in"]'));
  const reply = rows.and(page.locator('[data-direction="out"]'));
  await expect(command).toContainText('SET_ACTIVITY');
  await expect(reply).toContainText('SET_ACTIVITY');
  await expect(reply.getByTestId('inspector-rtt')).toHaveText(/^\d+ ms$/);

  await command.click();
  await expect(page.getByTestId('inspector-json')).toContainText('Inspecting frames');
  await expect(page.getByTestId('inspector-json')).toContainText(nonce);
  await screenshot(page, 'inspector-set-activity');
});
