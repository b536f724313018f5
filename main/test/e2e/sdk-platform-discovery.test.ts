/**
 * Issue 28 §2.4: a game that only uses a provisional account (no authorize, no connect) learns
 * Companion's platform from Companion itself: the SDK's discovery finds the host's socket, and
 * READY's `config.api_endpoint` names the platform the host uses. No `platformBase`, no
 * environment variable of the game's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../../rpc/client/index.js';
import { DEMO_APP_ID, eventually, World, type Player } from './support/world.js';

let world: World;
let alice: Player;
const clients: Client[] = [];

beforeEach(async () => {
  world = await World.start();
  alice = await world.player('alice');
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  await world.close();
});

/** A Steam ticket from the emulator's test provider (what the game's Steam login would give it). */
async function steamTicket(steamId: string): Promise<string> {
  const response = await fetch(`${world.platform.url}/_emulator/external-tokens`, {
    method: 'POST',
    headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'STEAM_SESSION_TICKET', external_user_id: steamId, display_name: 'Guest' }),
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

describe('issue 28 §2.4: a provisional-only game finds the platform through Companion', () => {
  it('getProvisionalToken before any connect asks the running Companion for its platform; updateToken then plays there', async () => {
    // Only the environment a player's machine has (where Companion's socket is): no platform URL.
    const game = new Client({ env: { XDG_RUNTIME_DIR: alice.runtimeDir }, logger: { sink: () => undefined } });
    clients.push(game);
    game.setApplicationId(DEMO_APP_ID);
    game.setHttpRequestTimeout(5000);
    expect(game.getStatus()).toBe('disconnected');

    const outcome = await game.getProvisionalToken(DEMO_APP_ID, 'STEAM_SESSION_TICKET', await steamTicket('steam-e2e-28'));
    expect(outcome.result.successful, outcome.result.error).toBe(true);
    expect(game.getPlatformBase()).toBe(new URL(world.platform.url).origin);
    // Companion is signed in as alice: it holds no token of another account (4009), and the
    // game's own session to the platform plays with it all the same.
    expect(await game.updateToken('Bearer', outcome.token?.accessToken ?? '')).toMatchObject({ successful: false, type: 'RpcError', errorCode: 4009 });
    await eventually(() => game.getPlatformStatus() === 'ready', "the provisional game's platform session READY");
    expect(game.getCurrentUserV2()).toMatchObject({ isProvisional: true, displayName: 'Guest' });
    expect((await game.createOrJoinLobby('guests-only')).result.successful).toBe(true);

    // The link to Companion comes back (as after Companion restarted): the token Companion refused
    // is not offered again, so it is not reported as ended and the game plays on with it.
    const ended: unknown[] = [];
    game.setTokenExpirationCallback((info) => ended.push(info));
    await game.connection.disconnect();
    expect((await game.connect()).successful).toBe(true);
    expect((await game.createOrJoinLobby('guests-only-2')).result.successful).toBe(true);
    expect(ended).toEqual([]);
    expect(game.getPlatformStatus()).toBe('ready');
  });

  it('with no Companion running, nothing is discovered: the public platform stays the default', async () => {
    const game = new Client({ env: { XDG_RUNTIME_DIR: await world.tempDir('companion-none-') }, logger: { sink: () => undefined }, connection: { socketPaths: [] } });
    clients.push(game);
    game.setApplicationId(DEMO_APP_ID);
    expect(game.getPlatformBase()).toBe('https://discord.com');
  });
});
