import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { ROOT, startHost } from './support/processes.js';

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

test('companion ui prints a link that opens the UI in the browser once', async ({ page }) => {
  const host = await startHost();
  const printed = execFileSync(process.execPath, [path.join(ROOT, 'bin/companion.js'), 'ui', '--runtime-dir', host.runtimeDir], { encoding: 'utf8' }).trim();
  expect(printed.startsWith(`${host.baseUrl}?token=`)).toBe(true);
  expect(printed).not.toContain(host.token);
  await page.goto(printed);
  await expect(page.getByRole('heading', { name: 'Games' })).toBeVisible();
  await expect(page).toHaveURL(host.baseUrl);
  // The same link again, in a browser without the session: it no longer opens anything.
  const other = await page.context().browser()?.newContext();
  const again = await other?.newPage();
  if (again === undefined) throw new Error('no second browser context');
  const refused = await again.goto(printed);
  expect(refused?.status()).toBe(401);
  await expect(again.locator('body')).toContainText('companion ui');
  await other?.close();
});
