import type { Locator, Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost } from './support/processes.js';

/** The Games card of the game whose activity says `state`, and its connection id. */
async function cardOf(page: Page, state: string): Promise<{ card: Locator; connection: string }> {
  const card = page.getByTestId('game-card').filter({ has: page.getByTestId('activity-state').filter({ hasText: state }) });
  await expect(card).toHaveCount(1);
  const connection = (await card.getAttribute('data-connection-id')) ?? '';
  // From now on by its connection: a hidden game's card shows no activity.
  return { card: page.locator(`[data-testid="game-card"][data-connection-id="${connection}"]`), connection };
}

test("issue 26 §8: the Games card says which game friends see and why; a game not shown never says its update was sent to the platform", async ({ page, games }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const host = await startHost();
  await openUi(page, host, 'games');
  // Two games of the same app: the first sets its activity, then the second: the host shows
  // the one updated last (its default policy), so friends see the second.
  const first = await games.raw(host, DEMO_APP_ID);
  expect(await first.request('SET_ACTIVITY', { pid: process.pid, activity: { details: 'First game', state: 'Ranked' } })).toMatchObject({ evt: null });
  const a = await cardOf(page, 'Ranked');
  await expect(a.card.getByTestId('game-shown')).toBeVisible();
  // The badge and the sentence beside it say different things (the badge once repeated the sentence's first words).
  await expect(a.card.getByTestId('game-friends-see-reason')).toHaveText('Friends see this game: it is the only game with an activity they may see.');
  await expect(a.card.getByTestId('game-shown')).toHaveText('Shown to friends');
  const second = await games.raw(host, DEMO_APP_ID);
  expect(await second.request('SET_ACTIVITY', { pid: process.pid, activity: { details: 'Second game', state: 'Casual' } })).toMatchObject({ evt: null });
  const b = await cardOf(page, 'Casual');
  const aName = `${DEMO_APP_NAME} (${a.connection})`;
  const bName = `${DEMO_APP_NAME} (${b.connection})`;

  // The game not shown: no "sent to the platform"; friends see the other game, named, and why.
  await expect(b.card.getByTestId('game-shown')).toBeVisible();
  await expect(a.card.getByTestId('game-not-shown')).toBeVisible();
  await expect(a.card.getByTestId('game-presence')).not.toContainText('sent to the platform');
  await expect(a.card.getByTestId('game-friends-see-reason')).toHaveText(`Friends see ${bName} instead: that game updated its activity last (Settings: show the one updated last).`);
  await expect(a.card.getByTestId('game-relay-outcome')).toContainText(`shown to friends until ${bName} took its place`);
  // The game shown: friends see it, rather than the other, and why.
  await expect(b.card.getByTestId('game-friends-see-reason')).toHaveText(`Friends see this game rather than ${aName}: it updated its activity last (Settings: show the one updated last).`);
  await screenshot(page, 'issue-26-games-two-games-most-recent');

  // The player shows the one started first instead: the cards swap, with the new reason.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('presence-policy').selectOption('first-connected');
  await page.getByTestId('nav-games').click();
  await expect(a.card.getByTestId('game-shown')).toBeVisible();
  await expect(b.card.getByTestId('game-not-shown')).toBeVisible();
  await expect(b.card.getByTestId('game-presence')).not.toContainText('sent to the platform');
  await expect(b.card.getByTestId('game-friends-see-reason')).toHaveText(`Friends see ${aName} instead: that game connected first (Settings: show the one started first).`);
  await expect(a.card.getByTestId('game-friends-see-reason')).toHaveText(`Friends see this game rather than ${bName}: it connected first (Settings: show the one started first).`);
  // Its last update: not shown, with the game shown instead named by its connection.
  await expect(b.card.getByTestId('game-relay-outcome')).toHaveText(`Last update: not shown: ${aName} is shown instead`);
  await screenshot(page, 'issue-26-games-two-games-first-connected');

  // The shown game's own rule hides it: friends see the other, and the card says it is the rule.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('presence-policy').selectOption('most-recent');
  await page.getByTestId('nav-games').click();
  await expect(b.card.getByTestId('game-shown')).toBeVisible();
  await a.card.getByTestId('game-privacy-rule').selectOption('hide');
  await expect(a.card.getByTestId('game-not-shown')).toBeVisible();
  await expect(b.card.getByTestId('game-not-shown')).toBeVisible();
  await expect(a.card.getByTestId('game-friends-see-reason')).toHaveText('Friends see no game right now: your privacy rule for this game hides it.');
});
