import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost } from './support/processes.js';
import { Opcode } from '../../rpc/src/protocol/opcodes.js';

test("revoking on Authorized apps removes the grant and closes the game's authenticated connection (4003)", async ({ page, games }) => {
  const host = await startHost();
  await openUi(page, host, 'apps');
  await expect(page.getByTestId('grants-empty')).toBeVisible();
  const game = await games.raw(host, DEMO_APP_ID);

  const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  const promptWords = ((await page.getByTestId('consent-scope').first().locator('span').textContent()) ?? '').trim();
  expect(promptWords.length).toBeGreaterThan(0);
  await page.getByTestId('consent-approve').click();
  const code = (await game.reply(nonce)).data.code as string;
  const response = await fetch(`${host.platformUrl}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code }),
  });
  expect(response.status).toBe(200);
  const { access_token } = (await response.json()) as { access_token: string };
  expect(await game.request('AUTHENTICATE', { access_token })).toMatchObject({ evt: null, data: { user: { username: 'alice' } } });

  const grant = page.locator(`[data-testid="grant-row"][data-application-id="${DEMO_APP_ID}"]`);
  await expect(grant).toBeVisible();
  await expect(grant.getByTestId('grant-app-name')).toHaveText(DEMO_APP_NAME);
  // The scope codes are a developer fact, behind the card's Details.
  await expect(grant.getByTestId('grant-scopes')).not.toContainText('identify');
  await expect(grant.getByTestId('grant-scope-codes')).toHaveText('identify');
  // The scopes in the consent prompt's own words.
  await expect(grant.getByTestId('grant-scope').first()).toContainText(promptWords);
  await screenshot(page, 'authorized-apps');

  // Revoke asks first; Cancel keeps the grant.
  await grant.getByTestId('grant-revoke').click();
  await expect(grant.getByTestId('grant-revoke-question')).toContainText(`Revoke ${DEMO_APP_NAME}?`);
  await grant.getByTestId('grant-revoke-cancel').click();
  await expect(grant.getByTestId('grant-revoke-question')).toHaveCount(0);
  await expect(grant).toBeVisible();
  await grant.getByTestId('grant-revoke').click();
  await grant.getByTestId('grant-revoke-confirm').click();
  const close = await game.waitFor((frame) => frame.opcode === Opcode.Close, 'CLOSE');
  expect(close.payload).toMatchObject({ code: 4003 });
  await game.waitClosed();
  await expect(grant).toHaveCount(0);
  await expect(page.getByTestId('grants-empty')).toBeVisible();
  await expect(page.getByTestId('info-message')).toContainText(`${DEMO_APP_NAME} can no longer use your account`);
  await screenshot(page, 'authorized-apps-revoked');
});
