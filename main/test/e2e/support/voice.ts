/* eslint-disable @typescript-eslint/no-explicit-any -- reply payloads are checked by the tests' own expectations */
import { expect } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { DEMO_APP_ID, type Player, type World } from './world.js';

/** The demo app approved for `rpc` and the voice scopes (the desktop client's overlays hold both). */
export function approveVoiceScopes(world: World): void {
  world.platform.admin.patchApp(DEMO_APP_ID, { approved_scopes: ['rpc', 'rpc.voice.read', 'rpc.voice.write'] });
}

/** A real access token of the demo app for `scopes`, through AUTHORIZE and the token endpoint. */
export async function voiceToken(world: World, player: Player, scopes: readonly string[]): Promise<string> {
  const { client } = await RawClient.ready(player.host.ipcPath, DEMO_APP_ID);
  try {
    const authorized = await client.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes });
    expect(authorized.evt).toBeNull();
    const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: authorized.data.code }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  } finally {
    client.close();
  }
}

/** A raw game on the player's host, authenticated with `scopes` (none: not authenticated); closed by `cleanups`. */
export async function voiceGame(world: World, player: Player, cleanups: (() => unknown)[], scopes?: readonly string[]): Promise<RawClient> {
  const access = scopes === undefined ? undefined : await voiceToken(world, player, scopes);
  const { client } = await RawClient.ready(player.host.ipcPath, DEMO_APP_ID);
  cleanups.push(() => client.close());
  if (access !== undefined) expect((await client.request('AUTHENTICATE', { access_token: access })).evt).toBeNull();
  return client;
}

/** The seeded guild's channels by name (Voice, Party, general), read with alice's token over HTTP. */
export async function seededChannels(world: World): Promise<Record<string, { id: string; guild_id: string; type: number }>> {
  const headers = { Authorization: world.platform.loginToken('alice') };
  const guilds = (await (await fetch(`${world.platform.url}/api/v10/users/@me/guilds`, { headers })).json()) as { id: string }[];
  const channels = (await (await fetch(`${world.platform.url}/api/v10/guilds/${guilds[0]!.id}/channels`, { headers })).json()) as { id: string; name: string; guild_id: string; type: number }[];
  return Object.fromEntries(channels.map((channel) => [channel.name, channel]));
}

/** The simulated friend in a server voice channel, over the emulator's admin route. */
export async function friendVoice(world: World, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const response = await fetch(`${world.platform.url}/_emulator/simulated-friend/voice`, {
    method: 'POST',
    headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
