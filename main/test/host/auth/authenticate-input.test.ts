/**
 * AUTHENTICATE with a token no platform could have issued is the game's mistake, not an outage:
 * found by the fuzz (main/test/tools/fuzz), where a 4097-character token was answered
 * 1001 "The platform cannot check the token right now" because the platform refuses such a
 * token with HTTP 400.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../../rpc/test/support/raw-client.js';
import { World } from '../../e2e/support/world.js';

let world: World | undefined;
let game: RawClient | undefined;
afterEach(async () => {
  game?.close();
  await world?.close();
  world = undefined;
  game = undefined;
});

describe('AUTHENTICATE with a malformed token', () => {
  it('a token longer than any the platform issues is 4009 "Invalid access token", and the connection keeps answering', async () => {
    world = await World.start();
    const player = await world.player('alice');
    ({ client: game } = await RawClient.ready(player.host.ipcPath));
    for (const token of ['x'.repeat(513), 'x'.repeat(4097), 'é'.repeat(20_000)]) {
      expect((await game.request('AUTHENTICATE', { access_token: token })).data).toEqual({ code: 4009, message: 'Invalid access token' });
    }
    // A well-formed token the platform does not know is still its answer.
    expect((await game.request('AUTHENTICATE', { access_token: 'x'.repeat(512) })).data).toEqual({ code: 4009, message: 'Token does not match current user' });
    expect((await game.request('SET_ACTIVITY', { pid: 1, activity: { state: 'after' } })).evt).toBeNull();
  });
});
