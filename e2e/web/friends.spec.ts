import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost, startPlatform } from './support/processes.js';

test("bob sees alice's joinable game on Friends, asks to join, and alice's game gets ACTIVITY_JOIN_REQUEST", async ({ browser, page, games }) => {
  const platform = await startPlatform();
  const [alice, bob] = await Promise.all([startHost({ platform: platform.url, user: 'alice' }), startHost({ platform: platform.url, user: 'bob' })]);
  expect([alice.user, bob.user]).toEqual(['alice', 'bob']);

  const aliceGame = await games.xhayper(alice, DEMO_APP_ID);
  await aliceGame.client.subscribe('ACTIVITY_JOIN_REQUEST');
  // A party with no join secret behind it: bob sees it, and no Ask to join (the platform would refuse).
  await aliceGame.client.user!.setActivity({ details: 'Ranked match', state: 'Warming up', partyId: 'party-alpha', partySize: 1, partyMax: 4 }, process.pid);

  // bob's UI in this page.
  await openUi(page, bob, 'friends');
  const friend = page.getByTestId('friend-row').filter({ hasText: '@alice' });
  await expect(friend).toBeVisible();
  // What alice plays shows in her row's line, its card under Active now.
  const playing = page.getByTestId('active-friend').filter({ hasText: '@alice' });
  await expect(playing.getByTestId('activity-state')).toContainText('Warming up');
  await expect(playing.getByTestId('friend-ask-to-join')).toHaveCount(0);
  await expect(playing.getByTestId('friend-join')).toHaveCount(0);

  await aliceGame.client.user!.setActivity(
    {
      details: 'Ranked match',
      state: 'In a squad',
      partyId: 'party-alpha',
      partySize: 1,
      partyMax: 4,
      joinSecret: 'join-secret-alpha-7f3a',
    },
    process.pid,
  );
  await expect(playing.getByTestId('activity-state')).toContainText('In a squad');
  await expect(playing.getByTestId('friend-ask-to-join')).toHaveCount(1);
  await expect(playing.getByTestId('activity-party')).toContainText('1 of 4');
  // Tabs like a friends list: alice is online, the seed's carol and dave are not (they are under All).
  await expect(page.getByTestId('friends-online').getByTestId('friend-row').filter({ hasText: '@alice' })).toHaveCount(1);
  await expect(page.getByTestId('friends-online-count')).toHaveText('1');
  await page.getByTestId('friends-tab-all').click();
  await expect(page.getByTestId('friends-all-count')).toHaveText('3');
  await expect(page.getByTestId('friend-row').filter({ hasText: '@carol' })).toHaveAttribute('data-status', 'offline');
  await page.getByTestId('friends-tab-online').click();
  await expect(friend.getByTestId('friend-status')).toHaveText('Online · Playing Companion Demo Game');
  await expect(friend.getByTestId('avatar')).toHaveText('A');
  // The join secret never reaches bob.
  await expect(page.locator('body')).not.toContainText('join-secret-alpha-7f3a');
  await screenshot(page, 'friends-joinable');

  // alice's UI beside it, in its own context (its own cookie jar).
  const aliceContext = await browser.newContext();
  try {
    const alicePage = await aliceContext.newPage();
    await openUi(alicePage, alice, 'friends');

    // First an invite (before bob asks: an invite from alice while he waits would be her answer).
    // bob declines it on his Friends screen and his host forgets it: a reload does not bring it back.
    const bobId = await alicePage.getByTestId('friend-row').filter({ hasText: '@bob' }).getAttribute('data-user-id');
    expect(bobId).toMatch(/^\d+$/);
    await aliceGame.client.request('ACTIVITY_INVITE_USER', { user_id: bobId, type: 1, content: 'Squad up? <b>now</b>' });
    const invite = page.getByTestId('invite-row');
    await expect(invite).toHaveCount(1);
    await expect(invite).toContainText('invites you');
    // The invite's message, as text.
    await expect(invite.getByTestId('invite-message')).toHaveText('Squad up? <b>now</b>');
    await invite.getByTestId('invite-decline').click();
    await expect(invite).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('friend-row').filter({ hasText: '@alice' })).toBeVisible();
    await expect(page.getByTestId('invite-row')).toHaveCount(0);
    await expect(page.getByTestId('friends-badge')).toHaveCount(0);

    // alice's game is joinable: her Friends screen offers to invite bob to it. bob's Friends
    // button counts what waits for him.
    const bobOnAlice = alicePage.getByTestId('friend-row').filter({ hasText: '@bob' });
    await bobOnAlice.getByTestId('friend-invite').click();
    await expect(alicePage.getByTestId('info-message').filter({ hasText: 'Invite to Companion Demo Game sent to' })).toHaveCount(1);
    await expect(page.getByTestId('invite-row')).toHaveCount(1);
    await expect(page.getByTestId('friends-badge')).toHaveText('1 waiting for an answer');
    await page.getByTestId('invite-row').getByTestId('invite-decline').click();
    await expect(page.getByTestId('friends-badge')).toHaveCount(0);
    // A friend who is offline is not offered one (offline friends are under All).
    await alicePage.getByTestId('friends-tab-all').click();
    await expect(alicePage.getByTestId('friend-row').filter({ hasText: '@carol' })).toHaveAttribute('data-status', 'offline');
    await expect(alicePage.getByTestId('friend-row').filter({ hasText: '@carol' }).getByTestId('friend-invite')).toHaveCount(0);

    await playing.getByTestId('friend-ask-to-join').click();
    const request = (await aliceGame.event('ACTIVITY_JOIN_REQUEST')) as { user?: { username?: string } };
    expect(request.user).toMatchObject({ username: 'bob' });

    const incoming = alicePage.getByTestId('join-request-row');
    await expect(incoming).toHaveCount(1);
    await expect(incoming).toContainText('wants to join you in');
    await expect(alicePage.getByTestId('friends-badge')).toHaveText('1 waiting for an answer');
    await screenshot(alicePage, 'friends-join-request');

    // alice accepts: bob's "waiting for an answer" gives way to what became of his join.
    const bobMessages = page.getByTestId('info-message');
    await expect(bobMessages.filter({ hasText: 'waiting for an answer' })).toHaveCount(1);
    await incoming.getByTestId('join-request-accept').click();
    await expect(bobMessages.filter({ hasText: /^Join(ed|ing):/ })).toHaveCount(1);
    await expect(bobMessages.filter({ hasText: 'waiting for an answer' })).toHaveCount(0);
  } finally {
    await aliceContext.close();
  }
});
