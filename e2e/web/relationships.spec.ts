import type { Page } from '@playwright/test';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { startHost, startPlatform } from './support/processes.js';

/** A user's row on a Friends screen, by their @username. */
const friendRow = (page: Page, username: string) => page.getByTestId('friend-row').filter({ hasText: `@${username}` });
const relationshipRow = (page: Page, username: string) => page.getByTestId('relationship-row').filter({ hasText: `@${username}` });

test('friend requests and blocks on Friends: bob asks alice by username, she accepts, blocks him (confirmed), unblocks; each host follows its own session', async ({ browser, page }) => {
  const platform = await startPlatform();
  const [alice, bob] = await Promise.all([startHost({ platform: platform.url, user: 'alice' }), startHost({ platform: platform.url, user: 'bob' })]);

  // alice's UI in this page, bob's in a context of its own (its own cookie jar).
  await openUi(page, alice, 'friends');
  const bobContext = await browser.newContext();
  try {
    const bobPage = await bobContext.newPage();
    await openUi(bobPage, bob, 'friends');
    await expect(friendRow(page, 'bob')).toBeVisible();
    await expect(friendRow(bobPage, 'alice')).toBeVisible();

    // The seed makes them friends: alice removes bob first, with the keyboard (More, Remove friend, the confirmation).
    await friendRow(page, 'bob').getByTestId('friend-more').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(friendRow(page, 'bob').getByTestId('friend-remove')).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText('Remove Bob?');
    await expect(dialog).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByTestId('confirm-ok')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(friendRow(page, 'bob')).toHaveCount(0);
    await expect(friendRow(bobPage, 'alice')).toHaveCount(0);
    await expect(page.getByTestId('info-message').filter({ hasText: 'Bob is no longer your friend' })).toHaveCount(1);

    // bob asks someone nobody is, then alice, by username.
    await bobPage.getByTestId('add-friend-input').fill('zed');
    await bobPage.getByTestId('add-friend-send').click();
    await expect(bobPage.getByTestId('error-message')).toHaveText(/Could not send the friend request: No user named 'zed'/);
    await expect(bobPage.getByTestId('add-friend-input')).toHaveValue('zed');
    await bobPage.getByTestId('add-friend-input').fill('alice');
    await bobPage.getByLabel('Their username').press('Enter');
    await expect(bobPage.getByTestId('info-message').filter({ hasText: 'Friend request sent to alice' })).toHaveCount(1);
    await expect(bobPage.getByTestId('error-message')).toHaveCount(0);
    await expect(bobPage.getByTestId('add-friend-input')).toHaveValue('');
    // Friend requests are under the Pending tab.
    await bobPage.getByTestId('friends-tab-pending').click();
    await expect(relationshipRow(bobPage, 'alice')).toHaveAttribute('data-type', 'outgoing');
    await expect(relationshipRow(bobPage, 'alice')).toContainText('Outgoing friend request');
    await expect(relationshipRow(bobPage, 'alice').getByTestId('relationship-cancel')).toBeVisible();

    // alice sees it under Pending, counted (on the tab too), and on the Friends button.
    await expect(page.getByTestId('friends-tab-pending-count')).toHaveText('1 waiting for your answer');
    await page.getByTestId('friends-tab-pending').click();
    const request = relationshipRow(page, 'bob');
    await expect(request).toHaveAttribute('data-type', 'incoming');
    await expect(request).toContainText('Incoming friend request');
    await expect(page.getByTestId('pending-count')).toHaveText('1');
    await expect(page.getByTestId('friends-badge')).toHaveText('1 waiting for an answer');
    await screenshot(page, 'friends-pending');
    expect(await axeViolations(page)).toEqual([]);
    await request.getByTestId('relationship-accept').click();

    // Friends on both sides; nothing pending any more.
    await expect(page.getByTestId('friends-pending')).toHaveCount(0);
    await expect(page.getByTestId('friends-pending-empty')).toBeVisible();
    await expect(bobPage.getByTestId('friends-pending')).toHaveCount(0);
    await expect(page.getByTestId('friends-tab-pending-count')).toHaveCount(0);
    await expect(page.getByTestId('friends-badge')).toHaveCount(0);
    await page.getByTestId('friends-tab-online').click();
    await bobPage.getByTestId('friends-tab-online').click();
    await expect(friendRow(page, 'bob')).toBeVisible();
    await expect(friendRow(bobPage, 'alice')).toBeVisible();

    // alice blocks bob: Escape leaves things as they are; confirming blocks.
    await friendRow(page, 'bob').getByTestId('friend-more').click();
    await friendRow(page, 'bob').getByTestId('friend-block').click();
    await expect(dialog.getByRole('heading')).toHaveText('Block Bob?');
    await expect(dialog).toContainText('removes them from your friends');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'friends-block-confirm');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(friendRow(page, 'bob')).toBeVisible();
    await friendRow(page, 'bob').getByTestId('friend-block').click();
    await dialog.getByTestId('confirm-ok').click();
    await expect(friendRow(page, 'bob')).toHaveCount(0);
    await page.getByTestId('friends-tab-blocked').click();
    await expect(relationshipRow(page, 'bob')).toHaveAttribute('data-type', 'blocked');
    await expect(page.getByTestId('blocked-count')).toHaveText('1');
    await expect(friendRow(bobPage, 'alice')).toHaveCount(0);
    // bob is told nothing: alice is in none of his tabs.
    for (const tab of ['all', 'pending', 'blocked']) {
      await bobPage.getByTestId(`friends-tab-${tab}`).click();
      await expect(friendRow(bobPage, 'alice')).toHaveCount(0);
      await expect(relationshipRow(bobPage, 'alice')).toHaveCount(0);
    }
    await screenshot(page, 'friends-blocked');
    expect(await axeViolations(page)).toEqual([]);
    // The other theme passes too (contrast), with a friend's options open.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('friends-tab-all').click();
    await friendRow(page, 'carol').getByTestId('friend-more').click();
    await expect(friendRow(page, 'carol').getByTestId('friend-remove')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'friends-more-dark');
    await friendRow(page, 'carol').getByTestId('friend-more').click();
    await page.emulateMedia({ colorScheme: 'light' });

    // A block stops bob's requests; unblocking lifts it.
    await bobPage.getByTestId('add-friend-input').fill('alice');
    await bobPage.getByTestId('add-friend-send').click();
    await expect(bobPage.getByTestId('error-message')).toHaveText(/Could not send the friend request: A block stands between you and alice/);
    await page.getByTestId('friends-tab-blocked').click();
    await relationshipRow(page, 'bob').getByTestId('relationship-unblock').click();
    await expect(page.getByTestId('friends-blocked')).toHaveCount(0);
    await expect(page.getByTestId('friends-blocked-empty')).toBeVisible();
    await expect(page.getByTestId('info-message').filter({ hasText: 'Bob is unblocked' })).toHaveCount(1);
    await bobPage.getByTestId('add-friend-send').click();
    await page.getByTestId('friends-tab-pending').click();
    await expect(relationshipRow(page, 'bob')).toHaveAttribute('data-type', 'incoming');
    // A reload gets the same from the host (its session's state, not the page's).
    await page.reload();
    await page.getByTestId('friends-tab-pending').click();
    await expect(relationshipRow(page, 'bob')).toHaveAttribute('data-type', 'incoming');
    await relationshipRow(page, 'bob').getByTestId('relationship-ignore').click();
    await expect(relationshipRow(page, 'bob')).toHaveCount(0);
    await bobPage.getByTestId('friends-tab-pending').click();
    await expect(relationshipRow(bobPage, 'alice')).toHaveCount(0);
  } finally {
    await bobContext.close();
  }
});
