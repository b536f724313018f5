import type { Locator, Page } from '@playwright/test';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, startHost, startPlatform } from './support/processes.js';
import type { XhayperGame } from './support/xhayper-game.js';

/**
 * Issue 26 §7: words for players, details for developers. Players read names and plain words;
 * the developer facts (Process ID, Client ID, Application ID, scope codes, the host's precise
 * error) are behind one "Details" disclosure per card, dialog or row, where QA opens them.
 * Real hosts on a real emulator, Chromium.
 */

/** The text a player reads without opening any Details disclosure. */
async function playerText(locator: Locator): Promise<string> {
  return locator.evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const details of copy.querySelectorAll('details')) details.remove();
    return copy.textContent ?? '';
  });
}

/** A platform id (an application's or a user's): 17 to 20 digits. */
const RAW_ID = /\b\d{17,20}\b/;
/** A CLI command or a path into a call's arguments. */
const CLI_OR_PATH = /companion (platform|serve|doctor)|\bargs\.\d|bad arguments/;

/** Opens the one Details disclosure of `scope` (its summary is the control). */
async function openDetails(scope: Locator, testId: string): Promise<Locator> {
  const details = scope.getByTestId(testId);
  await expect(details).toHaveCount(1);
  await details.locator('summary').click();
  await expect(details).toHaveAttribute('open', '');
  return details;
}

async function playJoinable(page: Page, game: XhayperGame): Promise<void> {
  await game.client.user!.setActivity({ details: 'Ranked', state: 'In a squad', partyId: 'party-26-7', partySize: 2, partyMax: 4, joinSecret: 'join-secret-26-7' }, process.pid);
  await expect(page.getByTestId('game-card').getByTestId('activity-state')).toContainText('In a squad');
}

test.describe('issue 26 §7: words for players, details for developers', () => {
  test('issue 26 §7: the sidebar and the Games card speak to players; the card\'s one Details has Process ID, Client ID, the connection and the relay', async ({ page, games }) => {
    const host = await startHost();
    await openUi(page, host, 'games');
    // The sidebar: the connection in a player's word, not the gateway's state.
    const gateway = page.getByTestId('gateway-status');
    await expect(gateway).toHaveText('Connected');
    await expect(gateway).toHaveAttribute('data-state', 'ready');

    const game = await games.xhayper(host, DEMO_APP_ID);
    await playJoinable(page, game);
    const card = page.locator(`[data-testid="game-card"][data-client-id="${DEMO_APP_ID}"]`);
    await expect(card.getByTestId('game-relay-outcome')).toContainText('friends see it');
    const words = await playerText(card);
    expect(words).toContain(DEMO_APP_NAME);
    for (const jargon of ['Process ID', 'Client ID', 'IPC socket', 'nonces', 'created_at', 'rate limit', 'sent to the platform', 'Client library']) expect(words).not.toContain(jargon);
    expect(words).not.toMatch(RAW_ID);
    expect(words).not.toMatch(/\bc\d+ ·/);
    // The developer facts are all there, behind the card's one Details.
    await expect(card.getByTestId('game-pid')).toBeHidden();
    const details = await openDetails(card, 'game-details');
    await expect(details).toContainText('Process ID');
    await expect(details.getByTestId('game-pid')).toHaveText(/^\d+$/);
    await expect(details.getByTestId('game-client-id')).toHaveText(DEMO_APP_ID);
    await expect(details.getByTestId('game-transport')).toHaveText('IPC socket');
    await expect(details.getByTestId('game-client-library')).toContainText('@xhayper/discord-rpc');
    await expect(details.getByTestId('game-relay-detail')).toContainText(/sent to the platform|held by the rate limit/);
    await screenshot(page, 'issue-26-7-games-card-details');

    // QA finds the same facts in the inspector, on any frame of that connection.
    const pid = (await details.getByTestId('game-pid').textContent()) ?? '';
    await page.getByTestId('nav-inspector').click();
    await page.getByTestId('inspector-search').fill('SET_ACTIVITY');
    await page.getByTestId('inspector-row').first().click();
    const inspector = await openDetails(page.locator('.inspector-detail'), 'inspector-connection-details');
    await expect(inspector.getByTestId('inspector-connection-client-id')).toHaveText(DEMO_APP_ID);
    await expect(inspector.getByTestId('inspector-connection-pid')).toHaveText(pid);
  });

  test('issue 26 §7: the consent prompt says what the app can do in plain words, offers "Not you? Switch account", and keeps the Application ID and scopes in Details', async ({ page, games }) => {
    const host = await startHost();
    await openUi(page, host, 'games');
    const game = await games.raw(host, DEMO_APP_ID);
    const nonce = game.command('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify', 'rpc', 'guilds'] });
    const prompt = page.getByTestId('consent-prompt');
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('heading', { level: 2 })).toHaveText(`${DEMO_APP_NAME} wants to access your account`);
    await expect(prompt.locator('.app-icon')).toHaveCount(1);
    await expect(prompt.getByTestId('consent-scope')).toHaveCount(3);
    await expect(prompt.getByTestId('consent-account')).toContainText('Not you?');
    await expect(prompt.getByRole('button', { name: 'Switch account' })).toBeVisible();
    const words = await playerText(prompt);
    expect(words).toContain('Know your username');
    for (const jargon of ['Application ID', 'Requested scopes', 'Not specified by the app', 'integration']) expect(words).not.toContain(jargon);
    expect(words).not.toMatch(/\b(identify|rpc|guilds)\b/);
    expect(words).not.toMatch(RAW_ID);
    await screenshot(page, 'issue-26-7-consent-prompt');

    const details = await openDetails(prompt, 'consent-details');
    await expect(details.getByTestId('consent-app-id')).toHaveText(DEMO_APP_ID);
    await expect(details.getByTestId('consent-scope-codes')).toHaveText('identify rpc guilds');
    await screenshot(page, 'issue-26-7-consent-prompt-details');

    // Switch account: this request is cancelled (the grant would be the signed-in account's), and the sign-in opens.
    await prompt.getByRole('button', { name: 'Switch account' }).click();
    expect(await game.reply(nonce)).toMatchObject({ cmd: 'AUTHORIZE', evt: 'ERROR', data: { code: 5000 } });
    await expect(prompt).toHaveCount(0);
    await expect(page.getByTestId('account-username')).toBeVisible();
  });

  test('issue 26 §7: a join request and an invite name the game, banners never speak of join secrets; the ids are in each row\'s Details', async ({ browser, page, games }) => {
    const platform = await startPlatform();
    const [alice, bob] = await Promise.all([startHost({ platform: platform.url, user: 'alice' }), startHost({ platform: platform.url, user: 'bob' })]);
    await openUi(page, alice, 'games');
    const aliceGame = await games.xhayper(alice, DEMO_APP_ID);
    await aliceGame.client.subscribe('ACTIVITY_JOIN_REQUEST');
    await playJoinable(page, aliceGame);
    const bobPage = await (await browser.newContext()).newPage();
    await openUi(bobPage, bob, 'friends');

    // bob asks to join: alice's row names him and the game, no application id.
    await bobPage.getByTestId('active-friend').filter({ hasText: '@alice' }).getByTestId('friend-ask-to-join').click();
    await page.getByTestId('nav-friends').click();
    const request = page.getByTestId('join-request-row');
    await expect(request).toHaveCount(1);
    await expect(request).toContainText(`wants to join you in ${DEMO_APP_NAME}`);
    const requestWords = await playerText(request);
    expect(requestWords).not.toMatch(RAW_ID);
    expect(requestWords).not.toContain('app ');
    await expect((await openDetails(request, 'join-request-details')).getByTestId('join-request-app-id')).toHaveText(DEMO_APP_ID);
    await screenshot(page, 'issue-26-7-join-request');
    await request.getByTestId('join-request-decline').click();

    // alice invites bob to her game: his row names the game; accepting with no game running says so in words.
    await page.getByTestId('friend-row').filter({ hasText: '@bob' }).getByTestId('friend-invite').click();
    await expect(page.getByTestId('info-message').filter({ hasText: `Invite to ${DEMO_APP_NAME} sent to Bob` })).toHaveCount(1);
    const invite = bobPage.getByTestId('invite-row');
    await expect(invite).toHaveCount(1);
    await expect(invite).toContainText(`invites you to play ${DEMO_APP_NAME}`);
    const inviteWords = await playerText(invite);
    expect(inviteWords).not.toMatch(RAW_ID);
    expect(inviteWords).not.toContain('app ');
    await expect((await openDetails(invite, 'invite-details')).getByTestId('invite-app-id')).toHaveText(DEMO_APP_ID);
    await screenshot(bobPage, 'issue-26-7-invite');
    await invite.getByTestId('invite-accept').click();
    const banners = bobPage.getByTestId('info-message');
    await expect(banners.filter({ hasText: 'Invite accepted' })).toHaveCount(1);
    for (const text of await banners.allTextContents()) expect(text).not.toMatch(/secret/i);
    await screenshot(bobPage, 'issue-26-7-invite-accepted-banner');
  });

  test("issue 26 §7: a failing action's error is plain words (no CLI command, no args path); the host's precise text is in the banner's Details", async ({ page }) => {
    const host = await startHost();
    await openUi(page, host, 'friends');
    // A name that is not a username: the bridge's own check refuses it.
    await page.getByTestId('add-friend-input').fill('nobody-here');
    await page.getByTestId('add-friend-send').click();
    const error = page.getByTestId('error-message');
    await expect(error).toHaveCount(1);
    const friendWords = await playerText(error);
    expect(friendWords).toContain('Could not send the friend request: a username has 2 to 32 characters');
    expect(friendWords).not.toMatch(CLI_OR_PATH);
    await expect((await openDetails(error, 'message-details')).getByTestId('message-detail')).toContainText('a username is 2 to 32 letters');
    await screenshot(page, 'issue-26-7-friend-request-error');

    // Switching to an account the platform does not know: plain words, the CLI hint only in Details.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('account-username').fill('mallory');
    await page.getByTestId('account-login').click();
    const signIn = page.getByTestId('error-message').filter({ hasText: 'Could not sign in' });
    await expect(signIn).toHaveCount(1);
    const signInWords = await playerText(signIn);
    expect(signInWords).toContain('there is no account named mallory');
    expect(signInWords).not.toMatch(CLI_OR_PATH);
    await expect((await openDetails(signIn, 'message-details')).getByTestId('message-detail')).toContainText("no user named 'mallory'");
    await screenshot(page, 'issue-26-7-sign-in-error');
  });

  test("issue 26 §7: Settings names a hidden or pinned game, not its id, after the game closed; ids, sockets and CLI commands are in each card's Details", async ({ page, games }) => {
    const host = await startHost();
    await openUi(page, host, 'games');
    const game = await games.xhayper(host, DEMO_APP_ID);
    await playJoinable(page, game);
    const card = page.getByTestId('game-card');
    // The box follows the host's answer (a controlled input): click, then wait for it.
    await card.getByTestId('game-pin').click();
    await expect(card.getByTestId('game-pin')).toBeChecked();
    await card.getByTestId('game-privacy-rule').selectOption('hide');
    await expect(card.getByTestId('game-not-shown')).toBeVisible();
    await game.close();
    await expect(page.getByTestId('games-empty')).toBeVisible();

    await page.getByTestId('nav-settings').click();
    const presence = page.getByTestId('presence-settings');
    await expect(presence.getByTestId('presence-rule')).toHaveText(new RegExp(`^${DEMO_APP_NAME}: hidden from friends`));
    await expect(presence.getByTestId('presence-pinned')).toContainText(`${DEMO_APP_NAME} is pinned`);
    const settings = page.locator('section[aria-labelledby="settings-title"]');
    const words = await playerText(settings);
    expect(words).not.toMatch(RAW_ID);
    expect(words).not.toMatch(/\bApp \d/);
    expect(words).not.toMatch(CLI_OR_PATH);
    expect(words).not.toContain('Gateway');
    expect(words).not.toContain('discord-ipc');
    await screenshot(page, 'issue-26-7-settings');

    await expect((await openDetails(presence, 'presence-details')).getByTestId('presence-rule-detail')).toHaveText('hide');
    await expect(presence.getByTestId('presence-details')).toContainText(DEMO_APP_ID);
    await expect((await openDetails(page.locator('section[aria-labelledby="account-title"]'), 'account-details')).getByTestId('account-user-id')).toHaveText(RAW_ID);
    await expect((await openDetails(page.locator('section[aria-labelledby="transports-title"]'), 'transports-details')).getByTestId('settings-ipc-path')).toContainText('discord-ipc-');
    await expect((await openDetails(page.locator('section[aria-labelledby="platform-title"]'), 'platform-details')).getByTestId('settings-gateway-status')).toHaveText('ready');
    await screenshot(page, 'issue-26-7-settings-details');
  });
});
