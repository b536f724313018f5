import { readFile } from 'node:fs/promises';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';
import { Opcode } from '../../rpc/src/protocol/opcodes.js';

test("the inspector shows a session's frames: the game's SET_ACTIVITY and its reply", async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'inspector');
  await expect(page).toHaveURL(/#inspector$/);
  const game = await games.raw(host, DEMO_APP_ID);
  const nonce = game.command('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Inspecting frames', details: 'QA run' } });
  expect(await game.reply(nonce)).toMatchObject({ cmd: 'SET_ACTIVITY', evt: null, data: { state: 'Inspecting frames' } });

  const rows = page.getByTestId('inspector-row');
  // The session: the handshake in, READY out, the command in, its reply out (and the host's own rows around them).
  await expect(rows.filter({ hasText: 'SET_ACTIVITY' })).toHaveCount(2);
  await expect(rows.and(page.locator('[data-direction="out"]')).filter({ hasText: 'READY' })).toHaveCount(1);
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
  // The lint in view (below the list at this width): the screenshot shows what it says.
  await page.getByTestId('inspector-lints').scrollIntoViewIfNeeded();
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
  // One message, Stop's (Start adds none: the inspector's own banner says where it records).
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

test('the inspector filters like devtools: chips, negation, sort, resizable columns, one-click copy, and an export opened again', async ({ page, games, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const host = await startHost();
  await openUi(page, host, 'inspector');
  const game = await games.raw(host, DEMO_APP_ID);
  expect(await game.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Chips' } })).toMatchObject({ evt: null });
  expect(await game.request('SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN' })).toMatchObject({ cmd: 'SUBSCRIBE', evt: null, data: { evt: 'ACTIVITY_JOIN' } });
  game.send(Opcode.Ping, { hello: 'ping' });
  await game.waitFor((frame) => frame.opcode === Opcode.Pong, 'PONG');
  const rows = page.getByTestId('inspector-row');
  await expect(rows.filter({ hasText: 'SUBSCRIBE' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'PING' })).toHaveCount(1);
  const total = await rows.count();

  // A chip shows its value alone; a second click hides it; a third clears it.
  const chip = (key: string) => page.locator(`[data-testid="inspector-chip"][data-chip="${key}"]`);
  await chip('command:SUBSCRIBE').click();
  await expect(chip('command:SUBSCRIBE')).toHaveAttribute('data-state', 'only');
  await expect(rows).toHaveCount(2);
  await chip('direction:out').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-direction', 'out');
  await page.getByTestId('inspector-chips-clear').click();
  await expect(rows).toHaveCount(total);
  await chip('opcode:PING').click();
  await chip('opcode:PING').click();
  await expect(chip('opcode:PING')).toHaveAttribute('data-state', 'hide');
  await expect(rows.filter({ hasText: 'PING' })).toHaveCount(0);
  await expect(rows).toHaveCount(total - 1);
  await chip('opcode:PING').click();
  await expect(rows).toHaveCount(total);
  // Negation in the search box: every word but those starting with '-'.
  await page.getByTestId('inspector-search').fill('-ping -handshake');
  await expect(rows.filter({ hasText: 'PING' })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'HANDSHAKE' })).toHaveCount(0);
  await page.getByTestId('inspector-search').fill('');

  // Sorting: newest first, then by command.
  const sort = (column: string) => page.locator(`[data-testid="inspector-sort"][data-column="${column}"]`);
  await sort('time').click();
  await expect(sort('time')).toHaveAttribute('data-sorted', 'descending');
  const seqs = async (): Promise<number[]> => (await rows.evaluateAll((list) => list.map((row) => Number(row.getAttribute('data-seq')))));
  const descending = await seqs();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await sort('cmd').click();
  await expect(sort('cmd')).toHaveAttribute('data-sorted', 'ascending');
  const commands = await rows.evaluateAll((list) => list.map((row) => row.children[4]?.textContent ?? ''));
  expect(commands).toEqual([...commands].sort((a, b) => a.localeCompare(b)));
  await sort('time').click();

  // A column's edge resizes it, by keyboard and by dragging; the width is kept for the next visit.
  const edge = page.locator('[data-testid="inspector-column-edge"][data-column="cmd"]');
  const cmdCell = rows.first().locator('span').nth(4);
  const before = (await cmdCell.boundingBox())?.width ?? 0;
  await edge.focus();
  await page.keyboard.press('ArrowRight');
  await expect(edge).toHaveAttribute('aria-valuenow', String(Math.round(before) + 16));
  const box = await edge.boundingBox();
  if (box === null) throw new Error('no column edge');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(edge).toHaveAttribute('aria-valuenow', String(Math.round(before) + 16 + 60));
  await page.reload();
  await expect(page.locator('[data-testid="inspector-column-edge"][data-column="cmd"]')).toHaveAttribute('aria-valuenow', String(Math.round(before) + 76));

  // One click copies the payload.
  await rows.filter({ hasText: 'SET_ACTIVITY' }).first().click();
  await page.getByTestId('inspector-copy').click();
  await expect(page.getByTestId('inspector-copy-status')).toHaveText('Copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toMatchObject({ cmd: 'SET_ACTIVITY', args: { activity: { state: 'Chips' } } });

  // What Export wrote opens again as a session.
  const download = page.waitForEvent('download');
  await page.getByTestId('inspector-export').click();
  const exported = await (await download).path();
  await page.getByTestId('inspector-recording-file').setInputFiles({ name: 'session.jsonl', mimeType: 'application/x-ndjson', buffer: await readFile(exported) });
  await expect(page.getByTestId('inspector-recording-opened')).toContainText('session.jsonl');
  await expect(rows).toHaveCount(total);
  await expect(rows.filter({ hasText: 'SUBSCRIBE' })).toHaveCount(2);
  await screenshot(page, 'inspector-export-opened');
});

test('the inspector shows the whole conversation: PONGs, connections opening and closing, consent decisions told apart, relay outcomes; a recording lists its host events', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'inspector');
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-live')).toBeVisible();
  const file = (await page.getByTestId('inspector-recording-live').locator('code').first().textContent()) ?? '';
  const game = await games.raw(host, DEMO_APP_ID);
  const rows = page.getByTestId('inspector-row');
  const hostRows = rows.and(page.locator('[data-direction="host"]'));
  // The connection opening and its handshake, as the host's rows before and after the frames.
  await expect(hostRows.filter({ hasText: 'open' }).first()).toContainText('ipc');
  await expect(hostRows.filter({ hasText: 'ready' })).toHaveCount(1);

  // A denied AUTHORIZE and a dismissed one get the same reply on the wire; the rows tell them apart.
  const prompt = page.getByTestId('consent-prompt');
  const denied = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  await prompt.getByTestId('consent-deny').click();
  const deniedReply = await game.reply(denied);
  const dismissed = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  await prompt.getByTestId('consent-dismiss').click();
  const dismissedReply = await game.reply(dismissed);
  expect(dismissedReply.data).toEqual(deniedReply.data);
  const replyTo = (nonce: string) => rows.and(page.locator('[data-direction="out"]')).filter({ hasText: nonce });
  await expect(replyTo(denied).getByTestId('inspector-consent-decision')).toHaveText('· denied (player)');
  await expect(replyTo(dismissed).getByTestId('inspector-consent-decision')).toHaveText('· dismissed (player)');
  await expect(hostRows.filter({ hasText: 'consent' })).toHaveCount(2);

  // PING in, PONG out; a SET_ACTIVITY and what the relay made of it.
  game.send(Opcode.Ping, { keepalive: 1 });
  await game.waitFor((frame) => frame.opcode === Opcode.Pong, 'PONG');
  await expect(rows.and(page.locator('[data-direction="out"]')).filter({ hasText: 'PONG' })).toHaveCount(1);
  expect(await game.request('SET_ACTIVITY', { pid: process.pid, activity: { state: 'Whole conversation' } })).toMatchObject({ evt: null });
  await expect(hostRows.filter({ hasText: 'relay' }).first()).toContainText('sent');

  // The game leaves: the close, with who ended it.
  game.close();
  await expect(hostRows.filter({ hasText: 'close' })).toHaveCount(1);
  await expect(hostRows.filter({ hasText: 'close' })).toContainText('peer');
  await hostRows.filter({ hasText: 'close' }).click();
  await expect(page.getByTestId('inspector-json')).toContainText('"reason"');
  await screenshot(page, 'inspector-whole-conversation');

  // The recording of the same session lists its host events among the frames.
  await page.getByTestId('inspector-record').click();
  await expect(page.getByTestId('inspector-recording-done')).toBeVisible();
  await page.getByTestId('inspector-recording-file').setInputFiles(file);
  await expect(page.getByTestId('inspector-recording-opened')).toContainText('host events');
  await expect(hostRows.filter({ hasText: 'consent' })).toHaveCount(2);
  await expect(hostRows.filter({ hasText: 'close' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'PONG' })).toHaveCount(1);
  await expect(replyTo(denied).getByTestId('inspector-consent-decision')).toHaveText('· denied (player)');
  await expect(replyTo(dismissed).getByTestId('inspector-consent-decision')).toHaveText('· dismissed (player)');
});
