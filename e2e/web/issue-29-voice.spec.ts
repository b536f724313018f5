import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { axeViolations, expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, startHost, startPlatform, type PlatformProcess } from './support/processes.js';
import { login } from './support/social.js';

/**
 * Issue 29 §4: Companion shows the player's voice channel (a game joined it for them with
 * SELECT_VOICE_CHANNEL), who is in it and who speaks (the ring), with mute and deafen buttons
 * that are the voice settings games read and change; the connection is audio-less and says so;
 * the inspector lists the voice events. The game is a raw RPC client with the demo app's `rpc`
 * token; the friend is the emulator's simulated friend.
 */

/** The demo app's token for alice with `rpc` (the app is approved for it), as AUTHORIZE + the token exchange give it. */
async function rpcToken(platform: PlatformProcess): Promise<string> {
  const alice = await login(platform, 'alice');
  const query = new URLSearchParams({ client_id: DEMO_APP_ID, response_type: 'code', scope: 'identify rpc' });
  const authorize = await fetch(`${platform.url}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: alice.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
  });
  const { code } = (await authorize.json()) as { code: string };
  const exchanged = await fetch(`${platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code }),
  });
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

/** The simulated friend in a voice channel (the emulator's admin route). */
async function friendVoice(platform: PlatformProcess, body: Record<string, unknown>): Promise<void> {
  const { adminToken } = JSON.parse(await readFile(path.join(platform.dataDir, 'platform.json'), 'utf8')) as { adminToken: string };
  const response = await fetch(`${platform.url}/_emulator/simulated-friend/voice`, {
    method: 'POST',
    headers: { Authorization: `Admin ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`friend voice ${JSON.stringify(body)}: ${response.status} ${await response.text()}`);
}

test('issue 29 §4: the voice panel shows the channel, who is in it and who speaks; mute and deafen are the voice settings games see', async ({ page, games }) => {
  const platform = await startPlatform();
  const host = await startHost({ platform: platform.url, user: 'alice' });
  await openUi(page, host, 'games');
  const panel = page.getByTestId('voice-panel');
  await expect(panel.getByTestId('voice-none')).toHaveText('Not in a voice channel');
  await expect(panel.getByRole('button', { name: 'Mute' })).toHaveAttribute('aria-pressed', 'false');
  await expect(panel.getByRole('button', { name: 'Deafen' })).toHaveAttribute('aria-pressed', 'false');

  const game = await games.raw(host, DEMO_APP_ID);
  expect((await game.request('AUTHENTICATE', { access_token: await rpcToken(platform) })).evt).toBeNull();
  const guilds = await game.request('GET_GUILDS', {});
  const channels = await game.request('GET_CHANNELS', { guild_id: guilds.data.guilds[0].id });
  const voice = channels.data.channels.find((channel: { name: string }) => channel.name === 'Voice');
  const joined = await game.request('SELECT_VOICE_CHANNEL', { channel_id: voice.id, navigate: true });
  expect(joined.data).toMatchObject({ id: voice.id, name: 'Voice' });

  // The channel, the player in it, and what Companion's connection is (state only).
  await expect(panel.getByTestId('voice-channel-name')).toHaveText('Voice');
  await expect(panel.getByTestId('voice-audio-note')).toHaveText('State only: no sound plays in Companion');
  await expect(panel.getByTestId('voice-member')).toHaveCount(1);
  await expect(panel.getByTestId('voice-member').first()).toContainText('Alice (you)');
  await expect(panel).toBeFocused();

  // bob joins and speaks: the ring around his avatar.
  await friendVoice(platform, { as: 'bob', action: 'join', channel: 'Voice' });
  const bob = panel.getByTestId('voice-member').filter({ hasText: 'Bob' });
  await expect(bob).toHaveAttribute('data-speaking', 'false');
  await friendVoice(platform, { as: 'bob', action: 'speak', duration_ms: 60_000 });
  await expect(bob).toHaveAttribute('data-speaking', 'true');
  await expect(bob.getByTestId('voice-ring')).toHaveClass(/voice-ring-speaking/);
  await screenshot(page, 'issue-29-voice-panel-speaking');
  expect(await axeViolations(page)).toEqual([]);
  // A small window: the panel stays whole and usable.
  await page.setViewportSize({ width: 800, height: 600 });
  await expect(panel.getByRole('button', { name: 'Mute' })).toBeInViewport();
  await screenshot(page, 'issue-29-voice-panel-800x600');
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Mute from Companion: GET_VOICE_SETTINGS says so, and the player's voice state follows.
  await panel.getByRole('button', { name: 'Mute' }).click();
  await expect(panel.getByRole('button', { name: 'Mute' })).toHaveAttribute('aria-pressed', 'true');
  expect((await game.request('GET_VOICE_SETTINGS', {})).data).toMatchObject({ mute: true, deaf: false });
  await expect(panel.getByTestId('voice-member').filter({ hasText: 'Alice' })).toContainText('muted');
  // A game deafens: the button follows.
  expect((await game.request('SET_VOICE_SETTINGS', { deaf: true })).data).toMatchObject({ deaf: true });
  await expect(panel.getByRole('button', { name: 'Deafen' })).toHaveAttribute('aria-pressed', 'true');

  // bob mutes: no ring, the muted mark.
  await friendVoice(platform, { as: 'bob', action: 'mute' });
  await expect(bob).toHaveAttribute('data-speaking', 'false');
  await expect(bob).toContainText('muted');
  expect(await axeViolations(page)).toEqual([]);

  // The inspector lists the voice events: the platform's dispatches and the game's frames.
  await page.getByTestId('nav-inspector').click();
  await page.getByTestId('inspector-search').fill('VOICE_SPEAKING_UPDATE');
  await expect(page.getByTestId('inspector-row').first()).toBeVisible();
  await page.getByTestId('inspector-search').fill('SELECT_VOICE_CHANNEL');
  await expect(page.getByTestId('inspector-row').first()).toBeVisible();

  // The game leaves the channel: the panel says so.
  expect((await game.request('SELECT_VOICE_CHANNEL', { channel_id: null })).data).toBeNull();
  await expect(panel.getByTestId('voice-none')).toBeVisible();
});
