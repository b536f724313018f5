/**
 * Game relationships (friends within one game, made with a game's own platform token) are no
 * part of the desktop client's RPC: GET_RELATIONSHIPS and RELATIONSHIP_UPDATE stay the
 * platform-wide relationships the host's own session knows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { DEMO_APP_ID, World } from './support/world.js';

let world: World;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await world.close();
});

/** A game's own Bearer token for the user (the Social SDK's scope), as the SDK gets one. */
async function socialToken(world: World, username: string): Promise<string> {
  const query = new URLSearchParams({ client_id: DEMO_APP_ID, response_type: 'code', scope: 'identify sdk.social_layer' });
  const authorized = await fetch(`${world.platform.url}/api/v10/oauth2/authorize?${query.toString()}`, {
    method: 'POST',
    headers: { Authorization: world.platform.loginToken(username), 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorize: true, rpc: true }),
  });
  const { code } = (await authorized.json()) as { code: string };
  const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code }),
  });
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

async function gameFriends(world: World, a: string, b: string): Promise<void> {
  const ids = await Promise.all([a, b].map(async (name) => ((await (await fetch(`${world.platform.url}/api/v10/users/@me`, { headers: { Authorization: world.platform.loginToken(name) } })).json()) as { id: string }).id));
  for (const [who, other] of [
    [a, ids[1]],
    [b, ids[0]],
  ] as const) {
    const response = await fetch(`${world.platform.url}/api/v10/users/@me/game-relationships/${other ?? ''}`, {
      method: 'PUT',
      headers: { Authorization: await socialToken(world, who), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(204);
  }
}

describe('game relationships and the RPC path', () => {
  it('a game friend is no RPC relationship: GET_RELATIONSHIPS and RELATIONSHIP_UPDATE show only platform-wide ones', async () => {
    world = await World.start();
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    const { client: game } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
    cleanups.push(() => game.close());
    const authorized = await game.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify', 'relationships.read'] });
    const token = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: authorized.data.code }),
    });
    expect((await game.request('AUTHENTICATE', { access_token: ((await token.json()) as { access_token: string }).access_token })).data.user.username).toBe('alice');
    expect(await game.request('SUBSCRIBE', {}, { evt: 'RELATIONSHIP_UPDATE' })).toMatchObject({ evt: null });

    const eve = await fetch(`${world.platform.url}/_emulator/users`, {
      method: 'POST',
      headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'eve' }),
    });
    const eveId = ((await eve.json()) as { id: string }).id;
    await gameFriends(world, 'alice', 'eve');
    await gameFriends(world, 'alice', 'bob');
    // A platform-wide change afterwards: its RELATIONSHIP_UPDATE is the first the game gets.
    await fetch(`${world.platform.url}/_emulator/friends`, {
      method: 'DELETE',
      headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ a: 'alice', b: 'carol' }),
    });
    await game.waitFor((frame) => frame.payload?.evt === 'RELATIONSHIP_UPDATE' && frame.payload.data?.type === 0, 'carol removed');
    const updates = game.frames.filter((frame) => frame.payload?.evt === 'RELATIONSHIP_UPDATE');
    expect(updates.map((frame) => frame.payload.data.type)).toEqual([0]);

    const listed = await game.request('GET_RELATIONSHIPS', {});
    const relationships = listed.data.relationships as { type: number; user: { id: string; username: string } }[];
    expect(relationships.map((r) => [r.type, r.user.username]).sort()).toEqual([
      [1, 'bob'],
      [1, 'dave'],
    ]);
    expect(relationships.some((r) => r.user.id === eveId)).toBe(false);
  });
});
