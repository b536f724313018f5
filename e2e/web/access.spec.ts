import { expect, openUi, screenshot, test } from './support/harness.js';
import { startHost } from './support/processes.js';

test('the web UI refuses a request without the token and loads with it', async ({ page, request }) => {
  const host = await startHost();

  const bare = await request.get(host.baseUrl, { maxRedirects: 0 });
  expect(bare.status()).toBe(401);
  expect(await bare.text()).not.toContain('<script');
  const wrong = await request.get(`${host.baseUrl}?token=not-the-token-at-all`, { maxRedirects: 0 });
  expect(wrong.status()).toBe(401);
  // Plain fetch too (no cookie jar at all), and the bridge's path.
  expect((await fetch(host.baseUrl, { redirect: 'manual' })).status).toBe(401);
  expect((await fetch(new URL('/bridge', host.baseUrl), { redirect: 'manual' })).status).toBe(401);

  // With the token: a redirect that sets the session cookie and drops the token from the URL.
  const withToken = await request.get(host.openUrl, { maxRedirects: 0 });
  expect(withToken.status()).toBe(302);
  expect(withToken.headers()['set-cookie']).toMatch(/^companion_ui_\d+=[^;]+; HttpOnly; SameSite=Strict/);

  await openUi(page, host);
  await expect(page.getByRole('heading', { name: 'Games' })).toBeVisible();
  await expect(page.getByTestId('games-empty')).toBeVisible();
  await expect(page.getByTestId('connection-lost')).toHaveCount(0);
  await screenshot(page, 'web-ui-games-empty');
});
