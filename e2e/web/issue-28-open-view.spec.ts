import { AuthorizationArgs, Client, DeviceAuthorizationArgs } from '../../rpc/client/index.js';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost, startPlatform, type HostProcess } from './support/processes.js';
import { gameToken, login } from './support/social.js';

/**
 * Issue 28 §1: Companion's window acts on what a game asks it to show (the Social SDK's
 * OpenAuthorizeDeviceScreen / CloseAuthorizeDeviceScreen / SetAuthorizeDeviceScreenClosedCallback,
 * OpenMessageInDiscord, OpenConnectedGamesSettingsInDiscord): the game is the SDK (companion-client)
 * on the host's socket, the player is the page.
 */

/** Device flow polls shortened (the emulator answers slow_down, which the SDK obeys). */
const quickSleep = (ms: number, signal: AbortSignal | undefined): Promise<boolean> =>
  new Promise((resolve) => {
    const aborted = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve(true);
    }, Math.min(ms, 50));
    signal?.addEventListener('abort', aborted, { once: true });
  });

const games: Client[] = [];
test.afterEach(async () => {
  for (const game of games.splice(0)) await game.disconnect();
});

/** The SDK as a game next to the player's Companion. */
async function gameOn(host: HostProcess, platformBase?: string): Promise<Client> {
  const game = new Client({ env: { XDG_RUNTIME_DIR: host.runtimeDir }, logger: { sink: () => undefined }, deviceFlowSleep: quickSleep, ...(platformBase === undefined ? {} : { platformBase }) });
  games.push(game);
  game.setApplicationId(DEMO_APP_ID);
  expect((await game.connect()).successful).toBe(true);
  return game;
}


test('issue 28 §1: openAuthorizeDeviceScreen opens "Link a device" with the code; the player approves; the game gets its token and its screen-closed callback', async ({ page }) => {
  const host = await startHost();
  const game = await gameOn(host);
  await openUi(page, host, 'games');
  let closed = 0;
  game.setAuthorizeDeviceScreenClosedCallback(() => (closed += 1));
  const codes: string[] = [];
  game.setDeviceCodeCallback((code) => {
    codes.push(code.userCode);
    void game.openAuthorizeDeviceScreen(DEMO_APP_ID, code.userCode);
  });
  const args = new DeviceAuthorizationArgs();
  args.setScopes('openid sdk.social_layer');
  const flow = game.getTokenFromDevice(args);

  const dialog = page.getByTestId('device-link');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Link a device' })).toBeVisible();
  await expect(dialog.getByTestId('device-link-code')).toHaveValue(codes[0] ?? '');
  await expect(dialog.getByTestId('device-link-app')).toContainText(`${DEMO_APP_NAME} asks to use your account`);
  await expect(dialog.getByTestId('device-link-scopes')).toContainText('Read your direct messages');
  await expect(dialog.getByTestId('device-link-scopes')).not.toContainText('no words for');
  await screenshot(page, 'issue-28-link-a-device');
  expect(await axeViolations(page)).toEqual([]);

  // A mistyped code is said plainly; the right one shows the request again.
  await dialog.getByTestId('device-link-code').fill('zzzz-zzzz');
  await dialog.getByTestId('device-link-check').click();
  await expect(dialog.getByTestId('device-link-error')).toContainText('Unknown or expired code');
  await dialog.getByTestId('device-link-code').fill((codes[0] ?? '').toLowerCase());
  await dialog.getByTestId('device-link-check').click();
  await expect(dialog.getByTestId('device-link-error')).toHaveCount(0);
  await dialog.getByTestId('device-link-approve').click();

  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('info-message')).toContainText(`Device linked: ${DEMO_APP_NAME}`);
  const outcome = await flow;
  expect(outcome.result.successful, outcome.result.error).toBe(true);
  await expect.poll(() => closed).toBe(1);
  // The code linked the player's account: the game is now among the Authorized apps.
  await expect(page.getByTestId('nav-apps')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('grant-row').filter({ hasText: DEMO_APP_NAME })).toBeVisible();
  expect((await game.updateToken('Bearer', outcome.token?.accessToken ?? '')).successful).toBe(true);
});

test('issue 28 §1: closeAuthorizeDeviceScreen closes "Link a device" (shown also when asked before the page opened); the player closing it tells the game', async ({ page }) => {
  const host = await startHost();
  const game = await gameOn(host);
  let closed = 0;
  game.setAuthorizeDeviceScreenClosedCallback(() => (closed += 1));
  const dialog = page.getByTestId('device-link');

  // Asked before the player opened the UI: the page shows it once loaded.
  expect((await game.openAuthorizeDeviceScreen(DEMO_APP_ID, 'BCDF-GHJK')).successful).toBe(true);
  await openUi(page, host);
  await expect(dialog).toBeVisible();
  // No device flow gave that code: the screen says so, and offers nothing to approve.
  await expect(dialog.getByTestId('device-link-error')).toContainText('Unknown or expired code');
  await expect(dialog.getByTestId('device-link-approve')).toHaveCount(0);
  expect((await game.closeAuthorizeDeviceScreen()).successful).toBe(true);
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => closed).toBe(1);

  expect((await game.openAuthorizeDeviceScreen(DEMO_APP_ID, 'CDFG-HJKL')).successful).toBe(true);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => closed).toBe(2);

  // The player opens it themselves (Authorized apps): nothing filled in, no game to tell.
  await page.getByTestId('grants-link-device').click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('A game on a console or TV shows a code.');
  await expect(dialog.getByTestId('device-link-code')).toHaveValue('');
  await expect(dialog.getByTestId('device-link-check')).toBeDisabled();
  await dialog.getByTestId('device-link-close').click();
  await expect(dialog).toHaveCount(0);
  expect(closed).toBe(2);
});

test('issue 28 §1: openMessageInDiscord opens the conversation with the friend at that message', async ({ page }) => {
  const platform = await startPlatform();
  const alice = await startHost({ platform: platform.url, user: 'alice' });
  const [aliceUser, bobUser] = [await login(platform, 'alice'), await login(platform, 'bob')];
  // bob's game with its own token; alice's game next to her Companion, signed in as her.
  const bobGame = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  games.push(bobGame);
  await bobGame.updateToken('Bearer', await gameToken(platform.url, bobUser.token));
  const aliceGame = await gameOn(alice, platform.url);
  await aliceGame.updateToken('Bearer', await gameToken(platform.url, aliceUser.token));
  await expect.poll(() => [bobGame.getPlatformStatus(), aliceGame.getPlatformStatus()]).toEqual(['ready', 'ready']);

  await openUi(page, alice, 'games');
  const ids: string[] = [];
  for (const text of ['Squad up at 9?', 'Bring the map', 'And snacks']) {
    const sent = await bobGame.sendUserMessage(aliceUser.id, text);
    expect(sent.result.successful, sent.result.error).toBe(true);
    ids.push(sent.messageId ?? '');
  }
  await expect.poll(() => aliceGame.getMessageHandle(ids[0] ?? '') !== null).toBe(true);
  await expect(page.getByTestId('friends-unread')).toHaveText(/3/);
  const opened = await aliceGame.openMessageInDiscord(ids[0] ?? '', undefined);
  expect(opened.successful, opened.error).toBe(true);

  await expect(page.getByTestId('nav-friends')).toHaveAttribute('aria-current', 'page');
  const bob = page.getByTestId('friend-row').filter({ hasText: '@bob' });
  const conversation = bob.getByTestId('conversation');
  await expect(conversation).toBeVisible();
  const focused = conversation.locator('[data-focused="true"]');
  await expect(focused).toHaveCount(1);
  await expect(focused.getByTestId('dm-content')).toHaveText('Squad up at 9?');
  await expect(focused).toHaveAttribute('aria-current', 'true');
  await expect(focused).toBeInViewport();
  await screenshot(page, 'issue-28-open-message');
});

test('issue 28 §1: openConnectedGamesSettingsInDiscord opens Authorized apps with the game picked out', async ({ page }) => {
  const host = await startHost();
  const game = await gameOn(host);
  await openUi(page, host, 'friends');
  expect((await game.openConnectedGamesSettingsInDiscord()).successful).toBe(true);
  await expect(page.getByTestId('nav-apps')).toHaveAttribute('aria-current', 'page');
  // Not authorized yet: the screen says so.
  await expect(page.getByTestId('grants-not-authorized')).toContainText(`${DEMO_APP_NAME} asked to show its settings here, but it is not authorized on your account`);

  const args = new AuthorizationArgs();
  args.setScopes('openid sdk.social_layer');
  const authorized = game.authorize(args);
  await page.getByTestId('consent-prompt').getByTestId('consent-approve').click();
  expect((await authorized).result.successful).toBe(true);
  const row = page.getByTestId('grant-row').filter({ hasText: DEMO_APP_NAME });
  await expect(row).toBeVisible();
  await page.getByTestId('nav-games').click();
  expect((await game.openConnectedGamesSettingsInDiscord()).successful).toBe(true);
  await expect(page.getByTestId('nav-apps')).toHaveAttribute('aria-current', 'page');
  await expect(row).toHaveAttribute('data-highlighted', 'true');
  await expect(page.getByTestId('grants-not-authorized')).toHaveCount(0);
  await screenshot(page, 'issue-28-connected-games-settings');
});
