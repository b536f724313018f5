import { Client } from '../../rpc/client/index.js';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_NAME, startHost, startPlatform } from './support/processes.js';
import { gameToken } from './support/social.js';

/** A user's token from the emulator's dev login. */
async function loginToken(platform: string, username: string): Promise<{ token: string; id: string }> {
  const response = await fetch(`${platform}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ login: username }) });
  const { token, user_id } = (await response.json()) as { token: string; user_id: string };
  return { token, id: user_id };
}


test("a DM from bob's game shows in alice's Friends, marked with the game; her reply reaches bob's game", async ({ page }) => {
  const platform = await startPlatform();
  const alice = await startHost({ platform: platform.url, user: 'alice' });
  const [aliceUser, bobUser] = [await loginToken(platform.url, 'alice'), await loginToken(platform.url, 'bob')];
  // bob's game, with its own token (no Companion of his running): the Social SDK's path.
  const bobGame = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
  const told: string[] = [];
  try {
    bobGame.setLobbyCallbacks({ messageCreated: (id) => told.push(bobGame.getMessageHandle(id)?.content ?? '?') });
    await bobGame.updateToken('Bearer', await gameToken(platform.url, bobUser.token));
    await expect.poll(() => bobGame.getPlatformStatus()).toBe('ready');

    await openUi(page, alice, 'friends');
    const bob = page.getByTestId('friend-row').filter({ hasText: '@bob' });
    await expect(bob).toBeVisible();
    const sent = await bobGame.sendUserMessage(aliceUser.id, 'Squad up at 9?');
    expect(sent.result.successful, sent.result.error).toBe(true);
    await expect(bob.getByTestId('friend-messages')).toHaveText('Messages (1)');
    await bob.getByTestId('friend-messages').click();
    const message = bob.getByTestId('dm').first();
    await expect(message.getByTestId('dm-content')).toHaveText('Squad up at 9?');
    await expect(message.getByTestId('dm-game')).toHaveText(`via ${DEMO_APP_NAME}`);

    await bob.getByTestId('dm-input').fill('  Yes, see you there  ');
    await bob.getByTestId('dm-send').click();
    await expect(bob.getByTestId('dm')).toHaveCount(2);
    await expect(bob.getByTestId('dm').nth(1).getByTestId('dm-content')).toHaveText('Yes, see you there');
    await expect(bob.getByTestId('dm').nth(1).getByTestId('dm-game')).toHaveCount(0);
    await expect(bob.getByTestId('dm-input')).toHaveValue('');
    await screenshot(page, 'friends-messages');
    // The open conversation passes axe-core like the rest of the screen.
    expect(await axeViolations(page)).toEqual([]);
    // bob's game is told over its own gateway connection, and reads the conversation.
    await expect.poll(() => told).toContain('Yes, see you there');
    const conversation = await bobGame.getUserMessagesWithLimit(aliceUser.id, 10);
    expect(conversation.messages.map((m) => m.content)).toEqual(['Yes, see you there', 'Squad up at 9?']);

    // bob's game edits its message, then deletes it: the conversation on screen follows.
    expect((await bobGame.editUserMessage(aliceUser.id, sent.messageId ?? '', 'Squad up at 10?')).successful).toBe(true);
    await expect(message.getByTestId('dm-content')).toHaveText('Squad up at 10?');
    await expect(message.getByTestId('dm-edited')).toHaveText('(edited)');
    expect((await bobGame.deleteUserMessage(aliceUser.id, sent.messageId ?? '')).successful).toBe(true);
    await expect(bob.getByTestId('dm')).toHaveCount(1);
    await expect(bob.getByTestId('dm').first().getByTestId('dm-content')).toHaveText('Yes, see you there');
  } finally {
    await bobGame.disconnect();
  }
});
