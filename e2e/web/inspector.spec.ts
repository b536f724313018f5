import { readFile } from 'node:fs/promises';
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

  // An activity the real client accepts but shows badly, with a join secret: the inspector
  // shows its lints, and its export holds the frames but never the secret.
  await page.getByTestId('inspector-search').fill('');
  const joinSecret = 'join-secret-never-exported-7f3a';
  const badNonce = game.command('SET_ACTIVITY', {
    pid: process.pid,
    activity: { state: 'Lobby', timestamps: { start: Math.floor(Date.now() / 1000) }, party: { id: 'p1', size: [1, 4] }, secrets: { join: joinSecret } },
  });
  expect(await game.reply(badNonce)).toMatchObject({ evt: null });
  const linted = rows.filter({ hasText: 'SET_ACTIVITY' }).and(page.locator('[data-direction="in"]')).last();
  await expect(linted.getByTestId('inspector-lint-badge')).toBeVisible();
  await linted.click();
  await expect(page.getByTestId('inspector-lints')).toContainText('timestamps.start');
  await screenshot(page, 'inspector-lints');
  const download = page.waitForEvent('download');
  await page.getByTestId('inspector-export').click();
  const file = await (await download).path();
  const exported = await readFile(file, 'utf8');
  expect(exported).toContain(badNonce);
  expect(exported).toContain('timestamp-seconds');
  expect(exported).not.toContain(joinSecret);

  // A SET_ACTIVITY the host refuses (secrets with buttons: 5005): the reply is marked with its
  // code, and the command shows the refusal first, never "Accepted, but shows badly".
  const refusedNonce = game.command('SET_ACTIVITY', {
    pid: process.pid,
    activity: { state: 'Refused', timestamps: { start: Math.floor(Date.now() / 1000) }, party: { id: 'p2', size: [1, 4] }, secrets: { join: 'j-refused' }, buttons: [{ label: 'Go', url: 'https://game.example/' }] },
  });
  expect(await game.reply(refusedNonce)).toMatchObject({ evt: 'ERROR', data: { code: 5005 } });
  await page.getByTestId('inspector-search').fill(refusedNonce);
  await expect(rows).toHaveCount(2);
  await expect(reply.getByTestId('inspector-error-code')).toHaveText('5005');
  await expect(reply).toHaveClass(/error-reply/);
  await command.click();
  await expect(page.getByTestId('inspector-refusal')).toContainText('Refused with 5005');
  await expect(page.getByTestId('inspector-refusal')).toContainText('secrets cannot currently be sent with buttons');
  await expect(page.getByTestId('inspector-lints')).toContainText('Would also show badly');
  await expect(page.locator('.inspector-detail')).not.toContainText('Accepted, but shows badly');
  await screenshot(page, 'inspector-refused');
});

test('the inspector records a session to a file and opens a recording', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'inspector');
  // Empty: it says where frames come from and names the QA tools that make some.
  const empty = page.getByTestId('inspector-empty');
  await expect(empty).toContainText('companion scenario run FILE');
  await expect(empty).toContainText('companion serve --record FILE');
  await expect(empty).toContainText('companion replay FILE');
  await screenshot(page, 'inspector-empty');
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-live')).toContainText('recording-');
  const file = (await page.getByTestId('inspector-recording-live').locator('code').first().textContent()) ?? '';
  expect(file).toMatch(/recordings\/recording-.*\.rec$/);
  // Where the file goes, and how to replay it.
  await expect(page.getByTestId('inspector-replay-hint')).toContainText(`companion replay ${file}`);

  const game = await games.raw(host, DEMO_APP_ID);
  await expect(empty).toHaveCount(0);
  const nonce = game.command('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Recorded state', secrets: { join: 'join-secret-not-in-recording' } } });
  expect(await game.reply(nonce)).toMatchObject({ evt: null });
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-live')).toHaveCount(0);
  // Stop's message replaces Start's: no "Recording every frame to ..." left behind.
  await expect(page.getByTestId('info-message')).toHaveCount(1);
  await expect(page.getByTestId('info-message')).toContainText('Recording saved');
  await expect(page.getByTestId('inspector-recording-done')).toContainText(file);
  await expect(page.getByTestId('inspector-recording-done').getByTestId('inspector-replay-hint')).toContainText(`companion replay ${file}`);
  const bytes = await readFile(file);
  expect(bytes.includes(Buffer.from('join-secret-not-in-recording'))).toBe(false);

  await page.getByTestId('inspector-recording-file').setInputFiles(file);
  await expect(page.getByTestId('inspector-recording-opened')).toContainText('secrets redacted');
  const rows = page.getByTestId('inspector-row');
  await expect(rows.filter({ hasText: 'SET_ACTIVITY' })).toHaveCount(2);
  await rows.filter({ hasText: 'SET_ACTIVITY' }).first().click();
  await expect(page.getByTestId('inspector-json')).toContainText('Recorded state');
  await expect(page.getByTestId('inspector-json')).not.toContainText('join-secret-not-in-recording');
  await screenshot(page, 'inspector-recording');
  await page.getByTestId('inspector-recording-close').click();
  await expect(page.getByTestId('inspector-recording-opened')).toHaveCount(0);
});
