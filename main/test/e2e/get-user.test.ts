/**
 * GET_USER over a real RPC socket to a real host: the user object the desktop client answers
 * for the signed-in user and for the users the host's session told of (a friend, one who
 * becomes a friend later), and 4010 for anyone else; the command needs AUTHENTICATE.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RawClient } from '../../../rpc/test/support/raw-client.js';
import { DEMO_APP_ID, World } from './support/world.js';

let world: World;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await world.close();
});

async function game(ipcPath: string): Promise<RawClient> {
  const { client } = await RawClient.ready(ipcPath, DEMO_APP_ID);
  cleanups.push(() => client.close());
  return client;
}

async function authenticate(world: World, client: RawClient): Promise<void> {
  const authorized = await client.request('AUTHORIZE', { client_id: DEMO_APP_ID, scopes: ['identify'] });
  const response = await fetch(`${world.platform.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DEMO_APP_ID, code: authorized.data.code }),
  });
  const { access_token } = (await response.json()) as { access_token: string };
  expect((await client.request('AUTHENTICATE', { access_token })).evt).toBeNull();
}

describe('GET_USER', () => {
  it('answers the signed-in user and a friend with the desktop client user object; an unknown id is 4010', async () => {
    world = await World.start();
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    const client = await game(alice.host.ipcPath);
    const aliceId = alice.host.session.user?.id ?? '';
    const bobId = world.platform.admin.findUser('bob')?.id ?? '';

    // Before AUTHENTICATE: refused like every command that is not rpc.local.
    expect(await client.request('GET_USER', { id: aliceId })).toMatchObject({ cmd: 'GET_USER', evt: 'ERROR', data: { code: 4006 } });
    await authenticate(world, client);

    const me = await client.request('GET_USER', { id: aliceId });
    expect(me).toMatchObject({ cmd: 'GET_USER', evt: null });
    expect(me.data).toEqual({ id: aliceId, username: 'alice', discriminator: '0', global_name: 'Alice', avatar: null, avatar_decoration_data: null, bot: false, flags: 0, premium_type: 0 });
    expect((await client.request('GET_USER', { id: bobId })).data).toMatchObject({ id: bobId, username: 'bob', global_name: 'Bob', discriminator: '0', bot: false });

    const unknown = await client.request('GET_USER', { id: '123456789012345678' });
    expect(unknown).toMatchObject({ cmd: 'GET_USER', evt: 'ERROR', data: { code: 4010, message: 'Invalid user: 123456789012345678' } });
    expect(await client.request('GET_USER', { id: 42 })).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    expect(await client.request('GET_USER', {})).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
  });

  it('a user the host hears of later (a new friend) is answered from then on', async () => {
    world = await World.start();
    const alice = await world.player('alice', { consentPolicy: 'approve' });
    const client = await game(alice.host.ipcPath);
    await authenticate(world, client);
    const erin = world.platform.admin.createUser('erin');
    expect(await client.request('GET_USER', { id: erin.id })).toMatchObject({ evt: 'ERROR', data: { code: 4010 } });

    world.platform.admin.addFriends('alice', 'erin');
    const answer = await vi.waitFor(
      async () => {
        const reply = await client.request('GET_USER', { id: erin.id });
        expect(reply.evt).toBeNull();
        return reply;
      },
      { timeout: 5000, interval: 20 },
    );
    expect(answer.data).toMatchObject({ id: erin.id, username: 'erin', global_name: 'Erin' });
  });
});
