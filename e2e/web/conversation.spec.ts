import type { Locator, Page } from '@playwright/test';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { startHost, startPlatform } from './support/processes.js';
import { login, sendDm, type DemoUser } from './support/social.js';
import type { PlatformProcess } from './support/processes.js';

/** How far the conversation's list is from its end (0: the newest message is in view). */
const fromEnd = (log: Locator): Promise<number> => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** alice's host with a conversation with bob of more messages than the list shows at once, open on her Friends screen. */
async function openLongConversation(page: Page): Promise<{ platform: PlatformProcess; alice: DemoUser; bob: DemoUser; row: Locator; log: Locator }> {
  const platform = await startPlatform();
  const [alice, bob] = [await login(platform, 'alice'), await login(platform, 'bob')];
  const lines = ['hey bob, want to queue?', 'sure, 5 min', 'one more thing', 'bring snacks', 'which map?', 'the harbour', 'ok, inviting you'];
  const host = await startHost({ platform: platform.url, user: 'alice' });
  await openUi(page, host, 'friends');
  const row = page.getByTestId('friend-row').filter({ hasText: '@bob' });
  await expect(row).toBeVisible();
  // Written while alice's host is signed in (it keeps the conversations its session sees).
  for (const [index, line] of lines.entries()) await sendDm(platform, index % 2 === 0 ? alice : bob, index % 2 === 0 ? bob : alice, line);
  // The button counts unread messages only (issue 26 §2): alice wrote last, so none; the open list waits for all of them.
  await row.getByTestId('friend-messages').click();
  await expect(row.getByTestId('dm')).toHaveCount(lines.length);
  return { platform, alice, bob, row, log: row.getByRole('log', { name: 'Conversation with Bob' }) };
}

test.describe('issue 26 §3: the conversation scrolls to the newest message', () => {
  test('it opens at the newest, follows new ones, counts them when scrolled up ("1 new message" jumps down), shows the player’s own, and the keyboard reaches and scrolls it', async ({ page }) => {
    const { platform, alice, bob, row, log } = await openLongConversation(page);
    // The newest message is in view as it opens (the first is scrolled away).
    await expect(row.getByTestId('dm').last()).toBeInViewport();
    await expect(log).toBeVisible();
    // More than fit: the list scrolls, and it opened at the end.
    expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expect.poll(() => fromEnd(log)).toBeLessThanOrEqual(2);
    await expect(row.getByTestId('dm').last()).toBeInViewport();
    await expect(row.getByTestId('dm').first()).not.toBeInViewport();
    await screenshot(page, 'issue26-3-conversation-open');

    // A new message from bob while at the end: the list follows it.
    await sendDm(platform, bob, alice, 'on my way');
    await expect(row.getByTestId('dm')).toHaveCount(8);
    await expect(row.getByTestId('dm').last().getByTestId('dm-content')).toHaveText('on my way');
    await expect.poll(() => fromEnd(log)).toBeLessThanOrEqual(2);
    await expect(row.getByTestId('dm').last()).toBeInViewport();

    // Scrolled up, a new one is counted, not jumped to; the count leads down.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => fromEnd(log)).toBeGreaterThan(50);
    await sendDm(platform, bob, alice, 'lobby is open');
    await expect(row.getByTestId('dm')).toHaveCount(9);
    const jump = row.getByRole('button', { name: '1 new message' });
    await expect(jump).toBeVisible();
    await expect(row.getByTestId('dm').last()).not.toBeInViewport();
    await screenshot(page, 'issue26-3-conversation-new-message');
    await jump.click();
    await expect.poll(() => fromEnd(log)).toBeLessThanOrEqual(2);
    await expect(row.getByTestId('dm').last()).toBeInViewport();
    await expect(jump).toHaveCount(0);

    // The player's own message, sent while scrolled up, is shown as it is sent.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => fromEnd(log)).toBeGreaterThan(50);
    await row.getByTestId('dm-input').fill('joining now');
    await row.getByTestId('dm-send').click();
    await expect(row.getByTestId('dm')).toHaveCount(10);
    await expect(row.getByTestId('dm').last().getByTestId('dm-content')).toHaveText('joining now');
    await expect(row.getByTestId('dm').last()).toBeInViewport();
    await expect.poll(() => fromEnd(log)).toBeLessThanOrEqual(2);

    // The keyboard reaches the list (a focusable, named log) and scrolls it.
    await expect(log).toHaveAttribute('tabindex', '0');
    await row.getByTestId('dm-input').focus();
    await page.keyboard.press('Shift+Tab');
    await expect(log).toBeFocused();
    await page.keyboard.press('Home');
    await expect.poll(() => log.evaluate((el) => el.scrollTop)).toBe(0);
    await expect(row.getByTestId('dm').first()).toBeInViewport();
    await page.keyboard.press('End');
    await expect.poll(() => fromEnd(log)).toBeLessThanOrEqual(2);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => fromEnd(log)).toBeGreaterThan(2);
    await screenshot(page, 'issue26-3-conversation-keyboard');
  });
});

test.describe('issue 26 §11: axe-core on the conversation', () => {
  for (const theme of ['dark', 'light'] as const) {
    test(`no scrollable-region-focusable and no color-contrast on the open conversation, ${theme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      const { row } = await openLongConversation(page);
      await expect(row.getByTestId('dm').filter({ hasText: 'You' }).first()).toBeVisible();
      await screenshot(page, `issue26-11-conversation-${theme}`);
      const violations = await axeViolations(page);
      expect(violations.filter((v) => v.id === 'scrollable-region-focusable' || v.id === 'color-contrast')).toEqual([]);
    });
  }
});
