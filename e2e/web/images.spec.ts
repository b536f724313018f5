import type { Locator } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost } from './support/processes.js';

/** Whether an <img> loaded a picture (a broken one has no natural size). */
async function loaded(image: Locator): Promise<boolean> {
  return image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0);
}

test("pictures: the app's icon in the prompt and Authorized apps, an activity's uploaded art with its small image as a round badge, and a graceful fallback for an image that cannot load", async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host);
  const game = await games.raw(host, DEMO_APP_ID);

  // The consent prompt shows the app's icon (from the platform's CDN, through the host).
  const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  const icon = page.getByTestId('consent-app-icon');
  await expect(icon).toBeVisible();
  await expect.poll(() => loaded(icon)).toBe(true);
  await page.getByTestId('consent-approve').click();
  await game.reply(nonce);

  // Uploaded art by key: the large image, and the small one as a round badge on its corner.
  expect(
    await game.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: {
        details: 'Ranked match',
        state: 'In a squad',
        party: { id: 'p-images', size: [2, 4] },
        timestamps: { start: Date.now() - 90_000 },
        assets: { large_image: 'cover', large_text: 'Map: Harbour', small_image: 'logo', small_text: 'Rank: Gold' },
        buttons: [{ label: 'Watch', url: 'https://example.com/watch' }],
      },
    }),
  ).toMatchObject({ evt: null });
  const card = page.getByTestId('game-friends-see');
  const large = card.getByTestId('activity-large-image');
  const small = card.getByTestId('activity-small-image');
  await expect.poll(() => loaded(large)).toBe(true);
  await expect.poll(() => loaded(small)).toBe(true);
  await expect(large).toHaveAttribute('alt', 'Map: Harbour');
  await expect(small).toHaveAttribute('title', 'Rank: Gold');
  expect(await small.evaluate((element) => getComputedStyle(element).borderRadius)).toBe('50%');
  const [largeBox, smallBox] = [await large.boundingBox(), await small.boundingBox()];
  // The badge sits on the large image's bottom-right corner.
  expect(smallBox!.x).toBeGreaterThan(largeBox!.x + largeBox!.width / 2);
  expect(smallBox!.y).toBeGreaterThan(largeBox!.y + largeBox!.height / 2);
  await expect(card.getByTestId('activity-party')).toContainText('(2 of 4)');
  await expect(card.getByTestId('activity-time')).toContainText('elapsed');
  await expect(card.getByTestId('activity-button')).toHaveText('Watch');
  await screenshot(page, 'games-activity-images');

  // An external image that cannot load (no such host): the activity's initial instead, no broken picture or clipped alt text.
  expect(
    await game.request('SET_ACTIVITY', {
      pid: process.pid,
      activity: { details: 'Offline art', assets: { large_image: 'https://images.invalid/art.png', large_text: 'Unreachable art' } },
    }),
  ).toMatchObject({ evt: null });
  await expect(card.getByTestId('activity-art-fallback')).toHaveText('C');
  await expect(card.getByTestId('activity-large-image')).toHaveCount(0);

  // Authorized apps shows the app's icon too.
  await page.getByTestId('nav-apps').click();
  const grantIcon = page.getByTestId('grant-app-icon');
  await expect(grantIcon).toBeVisible();
  await expect.poll(() => loaded(grantIcon)).toBe(true);
  await screenshot(page, 'authorized-apps-icon');
});
