import type { Locator, Page } from '@playwright/test';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost, startPlatform, type PlatformProcess } from './support/processes.js';
import { createUser, goOnline, login, type DemoUser, type OnlineUser } from './support/social.js';

/** Rows of the Friends tab on screen, and the @usernames they show. */
const friendRows = (page: Page): Locator => page.getByTestId('friends-panel').getByTestId('friend-row');
const usernames = async (rows: Locator): Promise<string[]> => (await rows.locator('.friend-username').allTextContents()).map((text) => text.trim());
const relationshipRow = (page: Page, username: string): Locator => page.getByTestId('relationship-row').filter({ hasText: `@${username}` });

/** bob plays a game of his own that started 12:34 ago (the platform relays its start time). */
const NIGHT_MARKET = (): object => ({ name: 'Night Market', type: 0, details: 'Trading at the plaza', state: 'Stall 4', timestamps: { start: Date.now() - 754_000 } });

/** `from` asks `username` to be friends, through the platform's API with their own token (as their client would). */
async function askFriend(platform: PlatformProcess, from: DemoUser, username: string): Promise<void> {
  const response = await fetch(`${platform.url}/api/v10/users/@me/relationships`, {
    method: 'POST',
    headers: { Authorization: from.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

/** A locator's text now, then (polled) a different text: the time on a card turned over. */
async function expectTicking(time: Locator, where: string): Promise<void> {
  await expect(time, where).toHaveText(/^\d+:\d{2}(:\d{2})? elapsed$/);
  const first = await time.textContent();
  await expect.poll(() => time.textContent(), { message: `${where}: the elapsed time changes`, timeout: 5_000 }).not.toBe(first);
  await expect(time, where).toHaveText(/^\d+:\d{2}(:\d{2})? elapsed$/);
}

test.describe('issue 26 §12: what the player expects on Friends', () => {
  test('issue 26 §12 search: the box filters friends by name and display name, and says when no one matches', async ({ page }) => {
    const platform = await startPlatform();
    const alice = await startHost({ platform: platform.url, user: 'alice' });
    const online: OnlineUser[] = [await goOnline(platform, await login(platform, 'bob')), await goOnline(platform, await login(platform, 'carol'))];
    try {
      await openUi(page, alice, 'friends');
      // bob and carol are online: the screen opens on Online.
      await expect(page.getByTestId('friends-tab-online')).toHaveAttribute('aria-selected', 'true');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob', '@carol']);
      const search = page.getByRole('searchbox', { name: 'Search friends by name' });
      // By username, any case, an @ before it dropped.
      await search.fill('CAR');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@carol']);
      await search.fill('@bo');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob']);
      // By display name ("Dave", offline: under All, where the search stays).
      await page.getByTestId('friends-tab-all').click();
      await search.fill('Dave');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@dave']);
      await expect(friendRows(page).getByTestId('friend-name')).toHaveText('Dave');
      await search.fill('zz');
      await expect(friendRows(page)).toHaveCount(0);
      await expect(page.getByTestId('friends-search-empty')).toHaveText('No one with that name');
      await screenshot(page, 'issue26-12-search-empty');
      await search.fill('');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob', '@carol', '@dave']);
      await expect(page.getByTestId('friends-search-empty')).toHaveCount(0);
    } finally {
      for (const user of online) user.close();
    }
  });

  test('issue 26 §12 tabs: Online, All, Pending and Blocked show the right people, by keyboard; another account never sees the blocks', async ({ page }) => {
    const platform = await startPlatform();
    const alice = await startHost({ platform: platform.url, user: 'alice' });
    const bob = await goOnline(platform, await login(platform, 'bob'));
    try {
      await openUi(page, alice, 'friends');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob']);
      // alice blocks dave (offline: he is under All), confirmed.
      await page.getByTestId('friends-tab-all').click();
      const dave = friendRows(page).filter({ hasText: '@dave' });
      await dave.getByTestId('friend-more').click();
      await dave.getByTestId('friend-block').click();
      await page.getByTestId('confirm-dialog').getByTestId('confirm-ok').click();
      await expect(dave).toHaveCount(0);
      // A request to alice from a new player, and one of hers.
      await createUser(platform, 'erin');
      await createUser(platform, 'frank');
      await askFriend(platform, await login(platform, 'erin'), 'alice');
      await page.getByTestId('add-friend-input').fill('frank');
      await page.getByTestId('add-friend-send').click();
      await expect(page.getByTestId('info-message').filter({ hasText: 'Friend request sent to frank' })).toHaveCount(1);
      // The Pending tab counts what waits for alice's answer.
      await expect(page.getByTestId('friends-tab-pending-count')).toHaveText('1 waiting for your answer');

      const tabs = page.getByRole('tablist', { name: 'Friends' });
      const tab = (name: string): Locator => tabs.getByRole('tab', { name, exact: false });
      const panel = page.getByRole('tabpanel');
      // Online: bob only. The selected tab is the one tab stop; the arrows move and select.
      await tab('Online').click();
      await expect(panel).toHaveAccessibleName('Online');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob']);
      await expect(tab('Online')).toBeFocused();
      await page.keyboard.press('ArrowRight');
      // All: carol (offline) too; not dave (blocked).
      await expect(tab('All')).toBeFocused();
      await expect(tab('All')).toHaveAttribute('aria-selected', 'true');
      await expect(tab('Online')).toHaveAttribute('tabindex', '-1');
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob', '@carol']);
      await expect(page.getByTestId('friends-all-count')).toHaveText('2');
      await expect(friendRows(page).filter({ hasText: '@carol' })).toHaveAttribute('data-status', 'offline');
      // Pending: erin's request with Accept / Ignore, alice's to frank with Cancel.
      await page.keyboard.press('ArrowRight');
      await expect(tab('Pending')).toBeFocused();
      await expect(panel).toHaveAccessibleName(/^Pending/);
      await expect(friendRows(page)).toHaveCount(0);
      await expect(page.getByTestId('pending-count')).toHaveText('2');
      await expect(relationshipRow(page, 'erin')).toHaveAttribute('data-type', 'incoming');
      await expect(relationshipRow(page, 'erin').getByRole('button', { name: 'Accept' })).toBeVisible();
      await expect(relationshipRow(page, 'erin').getByRole('button', { name: 'Ignore' })).toBeVisible();
      await expect(relationshipRow(page, 'frank')).toHaveAttribute('data-type', 'outgoing');
      await expect(relationshipRow(page, 'frank').getByRole('button', { name: 'Cancel' })).toBeVisible();
      await expect(relationshipRow(page, 'dave')).toHaveCount(0);
      await screenshot(page, 'issue26-12-pending');
      expect(await axeViolations(page)).toEqual([]);
      // Blocked: dave with Unblock, and no one else.
      await page.keyboard.press('ArrowRight');
      await expect(tab('Blocked')).toBeFocused();
      await expect(page.getByTestId('relationship-row')).toHaveCount(1);
      await expect(relationshipRow(page, 'dave')).toHaveAttribute('data-type', 'blocked');
      await expect(relationshipRow(page, 'dave').getByRole('button', { name: 'Unblock' })).toBeVisible();
      await screenshot(page, 'issue26-12-blocked');
      // Around: Right from the last is the first; End and Home.
      await page.keyboard.press('ArrowRight');
      await expect(tab('Online')).toBeFocused();
      await page.keyboard.press('End');
      await expect(tab('Blocked')).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowLeft');
      await expect(tab('Pending')).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Home');
      await expect(tab('Online')).toHaveAttribute('aria-selected', 'true');
      // Accepting erin's request moves her to the friends, and the count goes.
      await tab('Pending').click();
      await relationshipRow(page, 'erin').getByRole('button', { name: 'Accept' }).click();
      await expect(relationshipRow(page, 'erin')).toHaveCount(0);
      await expect(page.getByTestId('friends-tab-pending-count')).toHaveCount(0);
      await tab('All').click();
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@bob', '@carol', '@erin']);

      // alice's host switches to carol: none of alice's blocks, requests or friends show.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('account-username').fill('carol');
      await page.getByTestId('account-login').click();
      await expect(page.getByTestId('account-user')).toContainText('@carol');
      await page.getByTestId('nav-friends').click();
      await tab('Blocked').click();
      await expect(page.getByTestId('friends-blocked-empty')).toBeVisible();
      await expect(page.getByTestId('relationship-row')).toHaveCount(0);
      await tab('Pending').click();
      await expect(page.getByTestId('relationship-row')).toHaveCount(0);
      await tab('All').click();
      await expect.poll(() => usernames(friendRows(page))).toEqual(['@alice', '@bob', '@dave']);
    } finally {
      bob.close();
    }
  });

  test('issue 26 §12 profile popout: avatar, name, what they play, Message and Invite; Escape or a click outside closes it and focus returns', async ({ page, games }) => {
    const platform = await startPlatform();
    const alice = await startHost({ platform: platform.url, user: 'alice' });
    const bob = await goOnline(platform, await login(platform, 'bob'), [NIGHT_MARKET()]);
    try {
      await openUi(page, alice, 'friends');
      const bobRow = friendRows(page).filter({ hasText: '@bob' });
      const trigger = bobRow.getByTestId('friend-profile-open');
      const popout = page.getByRole('dialog', { name: 'Bob' });
      await expect(bobRow.getByTestId('friend-status')).toHaveText('Online · Playing Night Market');
      // No joinable game of alice's yet: Message, no Invite.
      await trigger.click();
      await expect(popout).toBeVisible();
      await expect(trigger).toHaveAttribute('aria-expanded', 'true');
      await expect(popout.getByTestId('avatar')).toBeVisible();
      await expect(popout.getByRole('heading', { name: 'Bob' })).toBeVisible();
      await expect(popout).toContainText('@bob');
      await expect(popout.getByTestId('profile-status')).toHaveText('Online');
      await expect(popout.getByTestId('activity-name')).toHaveText('Playing Night Market');
      await expect(popout.getByTestId('activity-state')).toContainText('Stall 4');
      await expect(popout.getByRole('button', { name: 'Message' })).toBeVisible();
      await expect(popout.getByRole('button', { name: /^Invite/ })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(popout).toHaveCount(0);
      await expect(trigger).toBeFocused();
      await expect(trigger).toHaveAttribute('aria-expanded', 'false');

      // alice's game is joinable: Invite, as the row offers it.
      const game = await games.xhayper(alice, DEMO_APP_ID);
      await game.client.user!.setActivity({ details: 'Ranked match', state: 'In a squad', partyId: 'party-12', partySize: 1, partyMax: 4, joinSecret: 'join-secret-12' }, process.pid);
      await expect(bobRow.getByTestId('friend-invite')).toHaveCount(1);
      await page.keyboard.press('Enter');
      await expect(popout).toBeVisible();
      await expect(popout).toBeFocused();
      await expect(popout.getByRole('button', { name: `Invite to ${DEMO_APP_NAME}` })).toBeVisible();
      // Shift+Tab from the popout leaves it: it closes, focus on the trigger; Enter opens it again.
      await page.keyboard.press('Shift+Tab');
      await expect(popout).toHaveCount(0);
      await expect(trigger).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(popout).toBeFocused();
      for (const theme of ['dark', 'light'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await screenshot(page, `issue26-12-profile-${theme}`);
        expect(await axeViolations(page)).toEqual([]);
      }
      // Inside the window at 800x600 too.
      await page.setViewportSize({ width: 800, height: 600 });
      await expect(popout).toBeInViewport({ ratio: 1 });
      await screenshot(page, 'issue26-12-profile-800');
      await page.setViewportSize({ width: 1280, height: 800 });
      await popout.getByRole('button', { name: `Invite to ${DEMO_APP_NAME}` }).click();
      await expect(page.getByTestId('info-message').filter({ hasText: `Invite to ${DEMO_APP_NAME} sent to` })).toHaveCount(1);

      // A click outside closes it; focus goes back to the trigger.
      await page.getByRole('heading', { name: 'Friends', exact: true }).click();
      await expect(popout).toHaveCount(0);
      await expect(trigger).toBeFocused();

      // Message opens the conversation, its box focused.
      await trigger.click();
      await popout.getByRole('button', { name: 'Message' }).click();
      await expect(popout).toHaveCount(0);
      await expect(bobRow.getByTestId('conversation')).toBeVisible();
      await expect(bobRow.getByTestId('dm-input')).toBeFocused();

      // An offline friend: Message, no Invite.
      await page.getByTestId('friends-tab-all').click();
      await friendRows(page).filter({ hasText: '@carol' }).getByTestId('friend-profile-open').click();
      const carol = page.getByRole('dialog', { name: 'Carol' });
      await expect(carol.getByTestId('profile-status')).toHaveText('Offline');
      await expect(carol.getByRole('button', { name: 'Message' })).toBeVisible();
      await expect(carol.getByRole('button', { name: /^Invite/ })).toHaveCount(0);
    } finally {
      bob.close();
    }
  });

  test('issue 26 §12 elapsed time: it ticks on every activity card (Active now, the profile popout, Games)', async ({ page, games }) => {
    const platform = await startPlatform();
    const alice = await startHost({ platform: platform.url, user: 'alice' });
    const bob = await goOnline(platform, await login(platform, 'bob'), [NIGHT_MARKET()]);
    try {
      const game = await games.xhayper(alice, DEMO_APP_ID);
      await game.client.user!.setActivity({ details: 'Ranked match', state: 'In a squad', startTimestamp: new Date(Date.now() - 65_000) }, process.pid);
      await openUi(page, alice, 'games');
      await expectTicking(page.getByTestId('game-card').getByTestId('activity-time').first(), 'Games');

      await page.getByTestId('nav-friends').click();
      await expectTicking(page.getByTestId('active-friend').filter({ hasText: '@bob' }).getByTestId('activity-time'), 'Active now');
      await friendRows(page).filter({ hasText: '@bob' }).getByTestId('friend-profile-open').click();
      const time = page.getByRole('dialog', { name: 'Bob' }).getByTestId('activity-time');
      // 12:34 when bob went online: more by now, never less.
      await expect(time).toHaveText(/^1[2-9]:\d{2} elapsed$/);
      await expectTicking(time, 'profile popout');
    } finally {
      bob.close();
    }
  });
});
