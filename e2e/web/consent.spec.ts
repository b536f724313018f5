import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost } from './support/processes.js';

const ACCESS_DENIED = 'OAuth2 Error: access_denied: The resource owner or authorization server denied the request';

test('AUTHORIZE shows the consent prompt; Approve gives the game a code it redeems and authenticates with', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host);
  const game = await games.raw(host, DEMO_APP_ID);

  const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify', 'guilds'] });
  const prompt = page.getByTestId('consent-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId('consent-app-name')).toHaveText(DEMO_APP_NAME);
  const scopes = prompt.getByTestId('consent-scope');
  await expect(scopes).toHaveCount(2);
  await expect(prompt.locator('[data-testid="consent-scope"][data-scope="identify"]')).toContainText('Know your username, avatar and banner');
  await expect(prompt.locator('[data-testid="consent-scope"][data-scope="guilds"]')).toContainText('Know what servers you are in');
  await expect(prompt.getByTestId('consent-account')).toContainText('alice');
  // No integration_type in the request: nothing to tell the player; the developer fact says so, behind Details.
  await expect(prompt.getByTestId('consent-install-context')).toHaveCount(0);
  await expect(prompt.getByTestId('consent-integration-type')).toHaveText('integration_type not given (neither a server nor a user install)');
  await screenshot(page, 'consent-prompt');

  await prompt.getByTestId('consent-approve').click();
  const reply = await game.reply(nonce);
  expect(reply).toMatchObject({ cmd: 'AUTHORIZE', evt: null, data: { code: expect.any(String) } });
  await expect(prompt).toHaveCount(0);

  // The game redeems the code at the platform (the demo app is a public client: no secret).
  const response = await fetch(`${host.platformUrl}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: reply.data.code as string }),
  });
  expect(response.status).toBe(200);
  const tokens = (await response.json()) as { access_token: string; token_type: string; scope: string };
  expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });

  const authenticated = await game.request('AUTHENTICATE', { access_token: tokens.access_token });
  expect(authenticated).toMatchObject({
    cmd: 'AUTHENTICATE',
    evt: null,
    data: { user: { username: 'alice' }, application: { id: DEMO_APP_ID }, scopes: expect.arrayContaining(['identify', 'guilds']) },
  });
});

test('Deny gives the game access_denied', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host);
  const game = await games.raw(host, DEMO_APP_ID);

  const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  const prompt = page.getByTestId('consent-prompt');
  await expect(prompt.getByTestId('consent-app-name')).toHaveText(DEMO_APP_NAME);
  await screenshot(page, 'consent-prompt-deny');
  await prompt.getByTestId('consent-deny').click();
  expect(await game.reply(nonce)).toMatchObject({ cmd: 'AUTHORIZE', evt: 'ERROR', data: { code: 5000, message: ACCESS_DENIED } });
  await expect(prompt).toHaveCount(0);
});

test('Escape, and the dismiss button, cancel the request: the game gets the cancellation error', async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host);
  const game = await games.raw(host, DEMO_APP_ID);
  const prompt = page.getByTestId('consent-prompt');

  const first = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  await expect(prompt).toBeVisible();
  // The dialog takes the focus, so Escape reaches it from the keyboard.
  await expect(prompt).toBeFocused();
  await page.keyboard.press('Escape');
  expect(await game.reply(first)).toMatchObject({ evt: 'ERROR', data: { code: 5000, message: ACCESS_DENIED } });
  await expect(prompt).toHaveCount(0);

  const second = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  await expect(prompt).toBeVisible();
  await screenshot(page, 'consent-prompt-dismiss');
  await prompt.getByTestId('consent-dismiss').click();
  expect(await game.reply(second)).toMatchObject({ evt: 'ERROR', data: { code: 5000, message: ACCESS_DENIED } });
  await expect(prompt).toHaveCount(0);
});
