import type { Browser, Page } from '@playwright/test';
import { expect, openUi, screenshot, test, type Games } from './support/harness.js';
import { DEMO_APP_ID, startHost, startPlatform, type HostProcess } from './support/processes.js';
import type { XhayperGame } from './support/xhayper-game.js';

/**
 * Issue 26 §6: one outcome per action, the latest; expired things leave the counts. alice
 * and bob are real hosts on one emulator; alice plays the demo game (a joinable party), bob
 * has no game running. bob's UI is the test's page, alice's is in its own browser context.
 */
interface Pair {
  readonly alice: HostProcess;
  readonly bob: HostProcess;
  readonly aliceGame: XhayperGame;
  readonly alicePage: Page;
  readonly bobId: string;
}

async function aliceHostsAJoinableGame(browser: Browser, page: Page, games: Games, limits?: Readonly<Record<string, number>>): Promise<Pair> {
  const platform = await startPlatform(limits);
  const [alice, bob] = await Promise.all([startHost({ platform: platform.url, user: 'alice' }), startHost({ platform: platform.url, user: 'bob' })]);
  const aliceGame = await games.xhayper(alice, DEMO_APP_ID);
  await aliceGame.client.subscribe('ACTIVITY_JOIN_REQUEST');
  await aliceGame.client.user!.setActivity(
    { details: 'Ranked', state: 'Waiting', partyId: 'party-26-6', partySize: 1, partyMax: 4, joinSecret: 'join-secret-26-6' },
    process.pid,
  );
  await openUi(page, bob, 'friends');
  await expect(page.getByTestId('active-friend').filter({ hasText: '@alice' }).getByTestId('friend-ask-to-join')).toHaveCount(1);
  const alicePage = await (await browser.newContext()).newPage();
  await openUi(alicePage, alice, 'friends');
  const bobId = await alicePage.getByTestId('friend-row').filter({ hasText: '@bob' }).getAttribute('data-user-id');
  expect(bobId).toMatch(/^\d+$/);
  return { alice, bob, aliceGame, alicePage, bobId: bobId! };
}

test.describe('issue 26 §6: banners contradict each other', () => {
  test('issue 26 §6: after a decline, only "Your request to join was declined" shows (no stale "waiting for an answer")', async ({ browser, page, games }) => {
    const { alicePage } = await aliceHostsAJoinableGame(browser, page, games);
    const banners = page.getByTestId('info-message');

    await page.getByTestId('active-friend').filter({ hasText: '@alice' }).getByTestId('friend-ask-to-join').click();
    await expect(banners.filter({ hasText: 'waiting for an answer' })).toHaveCount(1);

    const incoming = alicePage.getByTestId('join-request-row');
    await expect(incoming).toHaveCount(1);
    await incoming.getByTestId('join-request-decline').click();

    await expect(banners.filter({ hasText: 'Your request to join was declined' })).toHaveCount(1);
    // Read at once, not polled: an informational banner leaves by itself after a few seconds,
    // and waiting for that would hide the contradiction. The newer outcome replaced the older.
    expect(await banners.allTextContents()).toEqual([expect.stringContaining('Your request to join was declined')]);
    await screenshot(page, 'issue-26-6-join-declined');
  });

  test('issue 26 §6: accepting an invite with no game running shows one outcome, "the game is not running yet"', async ({ browser, page, games }) => {
    const { aliceGame, bob, bobId } = await aliceHostsAJoinableGame(browser, page, games);
    const banners = page.getByTestId('info-message');

    await aliceGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId, type: 1, content: '' });
    const invite = page.getByTestId('invite-row');
    await expect(invite).toHaveCount(1);
    await invite.getByTestId('invite-accept').click();

    await expect(banners.filter({ hasText: 'the game is not running yet' })).toHaveCount(1);
    // The host's own word on the join ("Joining: …") would come on the same websocket: give it a round trip.
    await page.waitForTimeout(1000);
    // Read at once, not polled (an informational banner leaves by itself after a few seconds).
    expect(await banners.allTextContents()).toEqual([expect.stringContaining('the game is not running yet')]);
    await screenshot(page, 'issue-26-6-invite-accepted-no-game');

    // bob starts the game: it gets the secret, and that newer outcome replaces the older.
    const bobGame = await games.xhayper(bob, DEMO_APP_ID);
    await bobGame.client.subscribe('ACTIVITY_JOIN');
    await bobGame.event('ACTIVITY_JOIN');
    await expect(banners.filter({ hasText: 'Joined: your game is joining the party' })).toHaveCount(1);
    expect(await banners.allTextContents()).toEqual([expect.stringContaining('Joined: your game is joining the party')]);
  });

  test('issue 26 §6: an expired invite leaves the Friends badge', async ({ browser, page, games }) => {
    const { alicePage, aliceGame } = await aliceHostsAJoinableGame(browser, page, games);
    const badge = page.getByTestId('friends-badge');

    await alicePage.getByTestId('friend-row').filter({ hasText: '@bob' }).getByTestId('friend-invite').click();
    const invite = page.getByTestId('invite-row');
    await expect(invite).toHaveCount(1);
    await expect(badge).toHaveText('1 waiting for an answer');

    // alice leaves the party the invite was for: it has expired, it can no longer be accepted.
    await aliceGame.client.user!.setActivity({ details: 'Ranked', state: 'Solo', partyId: 'party-26-6-next', partySize: 1, partyMax: 1 }, process.pid);
    await expect(invite.getByText('expired')).toBeVisible();
    await screenshot(page, 'issue-26-6-invite-expired');
    await expect(badge).toHaveCount(0);
  });

  test('issue 26 §6: an invite past its expiry time leaves the Friends badge and the list', async ({ browser, page, games }) => {
    // The emulator's invite lifetime made short for the test (its QA --limits switch); the host learns it from the message.
    const { aliceGame, bobId } = await aliceHostsAJoinableGame(browser, page, games, { inviteTtlMs: 4000 });
    const badge = page.getByTestId('friends-badge');

    await aliceGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId, type: 1, content: '' });
    const invite = page.getByTestId('invite-row');
    await expect(invite).toHaveCount(1);
    await expect(badge).toHaveText('1 waiting for an answer');
    // Nothing is pushed when it expires: the UI's own clock takes it off.
    await expect(invite).toHaveCount(0, { timeout: 10_000 });
    await expect(badge).toHaveCount(0);
    await screenshot(page, 'issue-26-6-invite-timed-out');
  });
});
