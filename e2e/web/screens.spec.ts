import type { Browser, Page } from '@playwright/test';
import { axeViolations, expect, openUi, screenshot, test, type RawGame } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost, startPlatform, type HostProcess } from './support/processes.js';
import { SIZES, THEMES, type Size, type Theme } from './support/screen-sizes.js';

const SCREENS = ['games', 'friends', 'inspector', 'apps', 'settings'] as const;

/** A page of `host`'s UI in its own context, with the system's colour scheme and window size given. */
async function uiPage(browser: Browser, host: HostProcess, theme: Theme, size: Size): Promise<Page> {
  const context = await browser.newContext({ colorScheme: theme, viewport: size });
  const page = await context.newPage();
  await openUi(page, host);
  return page;
}

/** What each screen must show before it is checked: its content, not a loading state. */
async function screenReady(page: Page, screen: (typeof SCREENS)[number]): Promise<void> {
  const ready = {
    games: 'game-card',
    friends: 'friend-row',
    inspector: 'inspector-row',
    apps: 'grant-row',
    settings: 'account-user',
  } as const;
  await expect(page.getByTestId(ready[screen]).first()).toBeVisible();
}

/** The page's background as the browser computed it (the theme's --bg). */
async function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/** Every cell of every frame row shown: whether it shows its whole text (nothing clipped). */
async function frameCells(page: Page): Promise<{ row: number; column: number; text: string; clipped: boolean }[]> {
  return page.getByTestId('inspector-row').evaluateAll((rows) =>
    rows.flatMap((row, index) =>
      Array.from(row.children).map((cell, column) => ({
        row: index,
        column,
        text: cell.textContent ?? '',
        clipped: (cell as HTMLElement).scrollWidth > (cell as HTMLElement).clientWidth + 1 || (cell as HTMLElement).scrollHeight > (cell as HTMLElement).clientHeight + 1,
      })),
    ),
  );
}

/** Whether the frame list shows every column without scrolling sideways. */
async function allColumnsInView(page: Page): Promise<boolean> {
  return page.getByTestId('inspector-scroll').evaluate((list) => list.scrollWidth <= list.clientWidth + 1);
}

test('every screen at 800x600, 1280x800 and 1920x1080 in the dark and light themes: laid out and saved; 0 axe violations on each, with and without banners', async ({ browser, games }) => {
  test.setTimeout(180_000);
  const platform = await startPlatform();
  const [alice, bob] = await Promise.all([startHost({ platform: platform.url, user: 'alice' }), startHost({ platform: platform.url, user: 'bob' })]);
  // alice plays a joinable game, bob is online; alice has authorized the game.
  const game: RawGame = await games.raw(alice, DEMO_APP_ID);
  const set = await game.request('SET_ACTIVITY', {
    pid: process.pid,
    activity: {
      details: 'Ranked match',
      state: 'In a squad',
      timestamps: { start: Date.now() - 65_000 },
      party: { id: 'party-screens', size: [2, 4] },
      secrets: { join: 'screens-join-secret' },
    },
  });
  expect(set).toMatchObject({ evt: null });

  // The consent prompt in each theme: the game asks, the player approves (a grant for Authorized
  // apps). Each time for more scopes: a grant that covers a request answers it without a prompt.
  const scopes = { dark: ['identify'], light: ['identify', 'guilds'] } as const;
  for (const theme of THEMES) {
    const prompt = await uiPage(browser, alice, theme, SIZES[1]);
    const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: scopes[theme] });
    const dialog = prompt.getByTestId('consent-prompt');
    await expect(dialog).toBeVisible();
    // What the player decides on: the game by name, what it may do in plain words, whose account.
    await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`${DEMO_APP_NAME} wants to access your account`);
    await expect(dialog).toContainText(`This will allow the developer of ${DEMO_APP_NAME} to:`);
    await expect(dialog).toContainText('Not you?');
    // "Switch account" reads as a link, not as plain text beside "Not you?".
    expect(await dialog.getByTestId('consent-switch-account').evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('underline');
    expect(await axeViolations(prompt), `consent prompt, ${theme}`).toEqual([]);
    await screenshot(prompt, `screen-consent-prompt-authorize-1280x800-${theme}`);
    await prompt.getByTestId('consent-approve').click();
    await game.reply(nonce);
    await prompt.context().close();
  }

  for (const theme of THEMES) {
    for (const size of SIZES) {
      const page = await uiPage(browser, alice, theme, size);
      const bg = await background(page);
      expect(bg, `${theme} background`).toBe(theme === 'dark' ? 'rgb(21, 23, 28)' : 'rgb(242, 243, 245)');
      for (const screen of SCREENS) {
        await page.getByTestId(`nav-${screen}`).click();
        await screenReady(page, screen);
        const name = `${screen} at ${size.width}x${size.height}, ${theme}`;
        // No page-wide horizontal scrolling: every screen fits the window's width.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name}: fits the width`).toBe(true);
        if (screen === 'inspector') {
          // Every column can be reached (the list scrolls sideways when narrow) and shows its whole
          // text: the nonce, the round trip, AUTHORIZE and SET_ACTIVITY's underscore.
          const cells = await frameCells(page);
          expect(cells.some((cell) => cell.text.endsWith(' ms')), `${name}: a round trip shown`).toBe(true);
          for (const cell of cells) expect(cell, `${name}: row ${cell.row}, column ${cell.column}`).toMatchObject({ clipped: false });
          // From 1920 wide, all of them without scrolling.
          if (size.width >= 1920) expect(await allColumnsInView(page), `${name}: every column in view`).toBe(true);
        }
        if (screen === 'games' && size.width >= 1280) {
          // The card uses the width: the activity sits beside the game's facts.
          const card = await page.getByTestId('game-card').first().boundingBox();
          expect(card?.width ?? 0, `${name}: card width`).toBeGreaterThan(size.width * 0.5);
        }
        // axe-core once per screen and theme (its rules do not depend on the window's size).
        if (size.width === 1280) expect(await axeViolations(page), name).toEqual([]);
        await screenshot(page, `screen-${screen}-${size.width}x${size.height}-${theme}`);
      }
      await page.context().close();
    }
  }

  // With banners: an information (an invite sent) and an error (a failed account switch) at once.
  for (const theme of THEMES) {
    const page = await uiPage(browser, alice, theme, SIZES[1]);
    await page.getByTestId('nav-friends').click();
    await page.getByTestId('friend-row').filter({ hasText: '@bob' }).getByTestId('friend-invite').click();
    await expect(page.getByTestId('info-message')).toHaveCount(1);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('account-username').fill('mallory');
    await page.getByTestId('account-login').click();
    await expect(page.getByTestId('error-message')).toHaveCount(1);
    await page.getByTestId('nav-friends').click();
    expect(await axeViolations(page), `banners, ${theme}`).toEqual([]);
    await screenshot(page, `screen-banners-1280x800-${theme}`);
    await page.context().close();
  }
  // bob's Friends button says what waits for him.
  const bobPage = await uiPage(browser, bob, 'dark', SIZES[1]);
  await expect(bobPage.getByTestId('friends-badge')).toContainText('waiting for an answer');
  await bobPage.context().close();
});
