/**
 * The player's relationships for games on the RPC path: GET_RELATIONSHIPS (with
 * `relationships.read`) lists alice's friends with their presence, and RELATIONSHIP_UPDATE
 * reaches a subscribed game when a friend comes online and when a friend is removed.
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

async function authenticatedGame(world: World, scopes: readonly string[]): Promise<RawClient> {
  const alice = await world.player('alice', { consentPolicy: 'approve' });
  const { client: game } = await RawClient.ready(alice.host.ipcPath, DEMO_APP_ID);
  cleanups.push(() => game.close());
  const authorized = await game.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes });
  const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: authorized.data.code }),
  });
  const { access_token } = (await response.json()) as { access_token: string };
  expect((await game.request('AUTHENTICATE', { access_token })).data.user.username).toBe('alice');
  return game;
}

describe('relationships over RPC', () => {
  it('GET_RELATIONSHIPS lists the friends with their presence; RELATIONSHIP_UPDATE comes when a friend comes online and when one is removed', async () => {
    world = await World.start();
    const game = await authenticatedGame(world, ['identify', 'relationships.read']);
    const listed = await game.request('GET_RELATIONSHIPS', {});
    expect(listed).toMatchObject({ cmd: 'GET_RELATIONSHIPS', evt: null });
    const usernames = (listed.data.relationships as { type: number; user: { username: string }; presence: { status: string } }[]).map((r) => [r.type, r.user.username, r.presence.status]);
    expect(usernames.sort()).toEqual([
      [1, 'bob', 'offline'],
      [1, 'carol', 'offline'],
      [1, 'dave', 'offline'],
    ]);

    expect(await game.request('SUBSCRIBE', {}, { evt: 'RELATIONSHIP_UPDATE' })).toMatchObject({ evt: null, data: { evt: 'RELATIONSHIP_UPDATE' } });
    await world.player('bob');
    const online = await game.waitFor((frame) => frame.payload?.evt === 'RELATIONSHIP_UPDATE' && frame.payload.data?.user?.username === 'bob', 'bob online');
    expect(online.payload.data).toMatchObject({ type: 1, user: { username: 'bob' }, presence: { status: 'online' } });

    const carolId = (listed.data.relationships as { user: { id: string; username: string } }[]).find((r) => r.user.username === 'carol')?.user.id;
    const removed = await fetch(`${world.platform.url}/_emulator/friends`, {
      method: 'DELETE',
      headers: { Authorization: `Admin ${world.platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ a: 'alice', b: 'carol' }),
    });
    expect(removed.status).toBeLessThan(300);
    const gone = await game.waitFor((frame) => frame.payload?.evt === 'RELATIONSHIP_UPDATE' && frame.payload.data?.type === 0, 'carol removed');
    expect(gone.payload.data).toMatchObject({ type: 0, user: { id: carolId } });
  });

  it('without relationships.read, GET_RELATIONSHIPS and the subscription are refused', async () => {
    world = await World.start();
    const game = await authenticatedGame(world, ['identify', 'rpc']);
    expect(await game.request('GET_RELATIONSHIPS', {})).toMatchObject({ evt: 'ERROR' });
    expect(await game.request('SUBSCRIBE', {}, { evt: 'RELATIONSHIP_UPDATE' })).toMatchObject({ evt: 'ERROR' });
  });
});
