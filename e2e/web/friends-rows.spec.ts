import type { Locator, Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost, startPlatform } from './support/processes.js';
import { createFriend, goOnline, login, type OnlineUser } from './support/social.js';
import { FRIEND_ROW_MAX_PX, measureFriendRow } from './support/layout.js';

const WIDTHS = [800, 1280, 1920, 2560] as const;
const THEMES = ['dark', 'light'] as const;
const FRIENDS = ['bob', 'carol', 'dave', 'erin_the_long_named_friend'] as const;

/** Every action of a friend's row: reachable by its name, inside the row. */
async function expectActions(page: Page, row: Locator, name: string): Promise<void> {
  const rowBox = (await row.boundingBox())!;
  for (const label of [`Messages with ${name}`, `Invite ${name} to ${DEMO_APP_NAME}`, `More for ${name}`]) {
    const button = row.getByRole('button', { name: label });
    // The page has settled (every invite is there): a missing action is missing, no need to wait for it.
    expect.soft(await button.count(), `${label}: one button of that name`).toBe(1);
    if ((await button.count()) !== 1) continue;
    await expect(button, label).toBeVisible();
    const box = (await button.boundingBox())!;
    expect.soft(box.x + box.width, `${label} inside the row`).toBeLessThanOrEqual(rowBox.x + rowBox.width);
    expect.soft(box.height, `${label} one line`).toBeLessThan(FRIEND_ROW_MAX_PX / 2);
  }
  await expect(page.getByTestId('friend-invite')).toHaveCount(FRIENDS.length);
}

test.describe('issue 26 §1: Friends stays readable while the player runs a joinable game', () => {
  test('one row per friend at 800 to 2560 px in both themes: names never wrapped, actions reachable as named buttons', async ({ page, games }) => {
    const platform = await startPlatform();
    await createFriend(platform, FRIENDS[3], 'alice');
    const alice = await startHost({ platform: platform.url, user: 'alice' });
    const online: OnlineUser[] = [];
    try {
      // carol plays a game of her own: her row says so in a line, its card shows under Active now.
      const plays = (username: string): object[] => (username === 'carol' ? [{ name: 'Night Market', type: 0, details: 'Trading at the plaza', state: 'Stall 4' }] : []);
      for (const username of FRIENDS) online.push(await goOnline(platform, await login(platform, username), plays(username)));
      // alice's game is joinable: every online friend gets an invite action.
      const game = await games.xhayper(alice, DEMO_APP_ID);
      await game.client.user!.setActivity({ details: 'Ranked match', state: 'In a squad', partyId: 'party-26', partySize: 1, partyMax: 4, joinSecret: 'join-secret-26' }, process.pid);

      await openUi(page, alice, 'friends');
      await expect(page.getByTestId('friends-online-count')).toHaveText(String(FRIENDS.length));
      await expect(page.getByTestId('friend-invite')).toHaveCount(FRIENDS.length);
      const rows = page.getByTestId('friends-online').getByTestId('friend-row');
      await expect(rows.filter({ hasText: '@carol' }).getByTestId('friend-status')).toHaveText('Online · Playing Night Market');

      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          for (const row of await rows.all()) {
            const name = (await row.getByTestId('friend-name').textContent()) ?? '';
            const where = `${name} at ${width} px, ${theme}`;
            const m = await measureFriendRow(row);
            expect.soft(m.height, `${where}: row height`).toBeLessThan(FRIEND_ROW_MAX_PX);
            expect.soft(m.nameLines, `${where}: name on one line`).toBe(1);
            expect.soft(m.nameHeight, `${where}: name one line high`).toBeLessThan(m.lineLimit);
            expect.soft(m.statusHeight, `${where}: status one line high`).toBeLessThan(m.lineLimit);
            expect.soft(m.overflows, `${where}: nothing spills out of the row`).toBe(false);
            await expectActions(page, row, name);
          }
          await screenshot(page, `issue26-1-friends-${theme}-${width}`);
        }
      }

      // What carol plays in detail: under Active now, not in her row.
      await expect(page.getByTestId('active-friend').filter({ hasText: '@carol' }).getByTestId('activity-state')).toContainText('Stall 4');
      await expect(rows.filter({ hasText: '@carol' }).getByTestId('activity-state')).toHaveCount(0);
      // The icon button does what the words did.
      await page.getByRole('button', { name: `Invite Bob to ${DEMO_APP_NAME}` }).click();
      await expect(page.getByTestId('info-message').filter({ hasText: `Invite to ${DEMO_APP_NAME} sent to` })).toHaveCount(1);
    } finally {
      for (const user of online) user.close();
    }
  });
});
