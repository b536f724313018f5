import type { Page } from '@playwright/test';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { startHost, startPlatform } from './support/processes.js';
import { login, sendDm } from './support/social.js';

/** The unread count on the Friends button (0 when it shows none). */
async function friendsUnread(page: Page): Promise<number> {
  const badge = page.getByTestId('nav-friends').getByTestId('friends-unread');
  if ((await badge.count()) === 0) return 0;
  return Number.parseInt((await badge.textContent()) ?? '', 10);
}

test.describe('issue 26 §2: messages give notice', () => {
  test('a DM that arrives on Games badges Friends, marks the friend and counts in the title; reading it clears them, and a reload keeps what was read and what was not', async ({ page }) => {
    const platform = await startPlatform();
    const [alice, bob, carol] = [await login(platform, 'alice'), await login(platform, 'bob'), await login(platform, 'carol')];
    const host = await startHost({ platform: platform.url, user: 'alice' });
    await openUi(page, host);
    await expect(page.getByTestId('nav-games')).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle('Companion');

    // bob writes while alice is on Games: Friends shows 1 unread, the title counts it.
    await sendDm(platform, bob, alice, 'are you around?');
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await expect(page.getByTestId('friends-unread')).toHaveText('1 unread message');
    await expect(page).toHaveTitle('(1) Companion');
    await screenshot(page, 'issue26-2-games-unread-badge');

    // carol too: 2 unread, one in each conversation.
    await sendDm(platform, carol, alice, 'gg last night');
    await expect.poll(() => friendsUnread(page)).toBe(2);
    await expect(page).toHaveTitle('(2) Companion');

    // On Friends, each friend's row carries its own mark, and "Messages (N)" counts unread ones.
    await page.getByTestId('nav-friends').click();
    const bobRow = page.getByTestId('friend-row').filter({ hasText: '@bob' });
    const carolRow = page.getByTestId('friend-row').filter({ hasText: '@carol' });
    await expect(bobRow.getByTestId('friend-unread')).toHaveText(/^1/);
    await expect(carolRow.getByTestId('friend-unread')).toHaveText(/^1/);
    await expect(bobRow.getByTestId('friend-messages')).toHaveText('Messages (1)');
    await expect(bobRow.getByTestId('friend-messages')).toHaveAccessibleName('Messages with Bob, 1 unread');
    await screenshot(page, 'issue26-2-friends-unread-marks');
    // The marks and badges pass axe-core (contrast included).
    expect(await axeViolations(page)).toEqual([]);
    // At 800x600 the navigation is a row: the badge stays on Friends.
    await page.setViewportSize({ width: 800, height: 600 });
    await expect(page.getByTestId('nav-friends').getByTestId('friends-unread')).toBeInViewport();
    await screenshot(page, 'issue26-2-friends-unread-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });

    // alice opens bob's conversation: it is read. carol's stays unread.
    await bobRow.getByTestId('friend-messages').click();
    await expect(bobRow.getByTestId('dm')).toHaveCount(1);
    await expect(bobRow.getByTestId('friend-unread')).toHaveCount(0);
    await expect(bobRow.getByTestId('friend-messages')).toHaveText('Messages');
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await expect(page).toHaveTitle('(1) Companion');
    await expect(carolRow.getByTestId('friend-unread')).toHaveText(/^1/);

    // What bob writes while his conversation is open is read as it arrives: no count.
    await sendDm(platform, bob, alice, 'queue in 5?');
    await expect(bobRow.getByTestId('dm')).toHaveCount(2);
    await expect(bobRow.getByTestId('friend-unread')).toHaveCount(0);
    await expect(page).toHaveTitle('(1) Companion');
    await screenshot(page, 'issue26-2-conversation-read');

    // The UI starts again (a reload): bob's stays read, carol's stays unread.
    await page.reload();
    await expect(page.getByTestId('loading')).toHaveCount(0);
    await page.getByTestId('nav-friends').click();
    await expect(carolRow.getByTestId('friend-unread')).toHaveText(/^1/);
    await expect(bobRow).toBeVisible();
    await expect(bobRow.getByTestId('friend-unread')).toHaveCount(0);
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await expect(page).toHaveTitle('(1) Companion');

    // Reading carol's, then leaving it, clears the last one.
    await carolRow.getByTestId('friend-messages').click();
    await expect(carolRow.getByTestId('friend-unread')).toHaveCount(0);
    await carolRow.getByTestId('friend-messages').click();
    await expect.poll(() => friendsUnread(page)).toBe(0);
    await expect(page).toHaveTitle('Companion');
  });

  test("unread state is the signed-in player's: after a switch of account the other player's counts do not show, and switching back shows the player's own", async ({ page }) => {
    const platform = await startPlatform();
    await page.emulateMedia({ colorScheme: 'dark' });
    const [alice, bob, dave] = [await login(platform, 'alice'), await login(platform, 'bob'), await login(platform, 'dave')];
    const host = await startHost({ platform: platform.url, user: 'alice' });
    await openUi(page, host);
    await sendDm(platform, bob, alice, 'for alice only');
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await expect(page).toHaveTitle('(1) Companion');

    // dave signs in on this Companion: alice's unread message is not his.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('account-username').fill('dave');
    await page.getByTestId('account-login').click();
    await expect(page.getByTestId('account-user')).toContainText('@dave');
    await expect.poll(() => friendsUnread(page)).toBe(0);
    await expect(page).toHaveTitle('Companion');
    await page.getByTestId('nav-friends').click();
    await expect(page.getByTestId('friend-unread')).toHaveCount(0);

    // His own DM counts for him.
    await sendDm(platform, bob, dave, 'for dave');
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await expect(page.getByTestId('friend-row').filter({ hasText: '@bob' }).getByTestId('friend-unread')).toHaveText(/^1/);
    await screenshot(page, 'issue26-2-friends-unread-dark');
    expect(await axeViolations(page)).toEqual([]);

    // alice again: her conversation comes back from the platform, still unread for her; dave's is not hers.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('account-username').fill('alice');
    await page.getByTestId('account-login').click();
    await expect(page.getByTestId('account-user')).toContainText('@alice');
    await page.getByTestId('nav-friends').click();
    const bobRow = page.getByTestId('friend-row').filter({ hasText: '@bob' });
    await expect(bobRow.getByTestId('friend-unread')).toHaveText(/^1/);
    await expect.poll(() => friendsUnread(page)).toBe(1);
    await bobRow.getByTestId('friend-messages').click();
    await expect(bobRow.getByTestId('dm-content')).toHaveText(['for alice only']);
    await expect.poll(() => friendsUnread(page)).toBe(0);
    await expect(page).toHaveTitle('Companion');
  });
});
