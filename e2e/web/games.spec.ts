import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost } from './support/processes.js';

test("a game's activity appears on the Games screen and updates live", async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'games');
  await expect(page.getByTestId('games-empty')).toBeVisible();
  // Marks this document: if the page reloaded, the mark would be gone.
  await page.evaluate(() => ((window as unknown as { e2eMark: number }).e2eMark = 42));

  const game = await games.xhayper(host, DEMO_APP_ID);
  const card = page.locator(`[data-testid="game-card"][data-client-id="${DEMO_APP_ID}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('game-name')).toHaveText(DEMO_APP_NAME);
  await expect(card.getByTestId('game-no-activity')).toBeVisible();

  await game.client.user!.setActivity({ details: 'Ranked match', state: 'Choosing a map', partyId: 'party-live', partySize: 1, partyMax: 4 }, process.pid);
  await expect(card.getByTestId('activity-state')).toContainText('Choosing a map');
  await expect(card.getByTestId('activity-details')).toHaveText('Ranked match');
  await expect(card.getByTestId('activity-party')).toContainText('1 of 4');
  // The library is guessed from the game's own frames (xhayper's activity carries type and created_at).
  await expect(card.getByTestId('game-client-library')).toContainText('@xhayper/discord-rpc');
  await expect(card.getByTestId('game-transport')).toHaveText('IPC socket');
  await screenshot(page, 'games-activity');

  await game.client.user!.setActivity({ details: 'Ranked match', state: 'In a match', partyId: 'party-live', partySize: 3, partyMax: 4 }, process.pid);
  await expect(card.getByTestId('activity-state')).toContainText('In a match');
  await expect(card.getByTestId('activity-party')).toContainText('3 of 4');
  expect(await page.evaluate(() => (window as unknown as { e2eMark?: number }).e2eMark)).toBe(42);
  await expect(page.getByTestId('game-card')).toHaveCount(1);
  await expect(card.getByTestId('game-shown')).toBeVisible();
  await expect(card.getByTestId('game-relay-outcome')).toContainText(/friends see it/);
  // The relay's precise word is QA's, in the card's Details.
  await expect(card.getByTestId('game-relay-detail')).toContainText(/sent|held/);
  await screenshot(page, 'games-activity-updated');

  // The player hides this game from friends: the card says so, and why, and the preview shows nothing.
  await card.getByTestId('game-privacy-rule').selectOption('hide');
  await expect(card.getByTestId('game-not-shown')).toBeVisible();
  await expect(card.getByTestId('game-relay-outcome')).toContainText("hidden by this game's privacy rule");
  await expect(card.getByTestId('game-hidden-preview')).toBeVisible();
  await expect(card.getByTestId('activity-state')).toHaveCount(0);
  // Game and time only: the preview is what the relay sends, without details, state and party.
  await card.getByTestId('game-privacy-rule').selectOption('redact');
  await expect(card.getByTestId('game-friends-see')).toBeVisible();
  await expect(card.getByTestId('game-friends-see').getByTestId('activity-name')).toBeVisible();
  await expect(card.getByTestId('activity-state')).toHaveCount(0);
  await expect(card.getByTestId('activity-details')).toHaveCount(0);
  await card.getByTestId('game-privacy-rule').selectOption('share');
  await expect(card.getByTestId('game-shown')).toBeVisible();
  await expect(card.getByTestId('activity-state')).toContainText('In a match');

  // Settings: where games connect, what friends see, and the doctor run in the host's environment.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('presence-settings')).toBeVisible();
  // A switch to an account the platform does not know fails and says why; the player stays signed in and online.
  const signedInAs = (await page.getByTestId('account-user').textContent()) ?? '';
  await page.getByTestId('account-username').fill('mallory');
  await page.getByTestId('account-login').click();
  await expect(page.getByTestId('error-message')).toContainText('there is no account named mallory');
  await expect(page.getByTestId('message-detail')).toContainText("no user named 'mallory'");
  // The banner list passes axe-core like the rest of the screen.
  expect(await axeViolations(page)).toEqual([]);
  await expect(page.getByTestId('account-user')).toHaveText(signedInAs);
  await expect(page.getByTestId('gateway-status')).toHaveText('Connected');
  // Signing in again as the same player succeeds: the error about mallory is resolved, not left behind.
  const username = /@(\S+)/.exec(signedInAs)?.[1] ?? '';
  await page.getByTestId('account-username').fill(username);
  await page.getByTestId('account-login').click();
  await expect(page.getByTestId('error-message')).toHaveCount(0);
  await expect(page.getByTestId('gateway-status')).toHaveText('Connected');
  await page.getByTestId('doctor-run').click();
  await expect(page.getByTestId('doctor-report')).toContainText('What each client library picks');
  await screenshot(page, 'settings');
});

test('Link account is offered only to a game that listens for link requests, and says what it does', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'games');
  const game = await games.raw(host, DEMO_APP_ID);
  const card = page.locator(`[data-testid="game-card"][data-client-id="${DEMO_APP_ID}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('game-link-account')).toHaveCount(0);
  // The game subscribes to AUTHORIZE_REQUEST: now the player can ask it.
  const nonce = game.command('SUBSCRIBE', {}, { evt: 'AUTHORIZE_REQUEST' });
  expect(await game.reply(nonce)).toMatchObject({ cmd: 'SUBSCRIBE', evt: null, data: { evt: 'AUTHORIZE_REQUEST' } });
  const link = card.getByTestId('game-link-account');
  await expect(link).toBeVisible();
  await expect(link).toHaveAccessibleDescription(/connect your account to the game/);
  await link.click();
  await expect(page.getByTestId('info-message')).toContainText(`Link request sent to ${DEMO_APP_NAME}`);
  // The game gets the request (after the frames it already had).
  let event = await game.next();
  while (event.payload?.evt !== 'AUTHORIZE_REQUEST') event = await game.next();
  expect(event.payload).toMatchObject({ cmd: 'DISPATCH', evt: 'AUTHORIZE_REQUEST' });
});
