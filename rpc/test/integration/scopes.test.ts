import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPermitted, RPC_COMMANDS, RPC_EVENTS } from '../../src/index.js';
import { RawClient } from '../support/raw-client.js';
import { installTestAuthenticate, testToken } from '../support/test-auth.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const APP = '123456789012345678';
const GUILD = '200000000000000001';
const CHANNEL = '300000000000000001';
const REFUSED = { code: 4006, message: 'Not authenticated or invalid scope' };

let ts: TestServer;
beforeEach(async () => {
  ts = await startTestServer();
  installTestAuthenticate(ts.server);
  // Stand-ins for the host's handlers: they show that a command got past the scope check.
  for (const cmd of ['GET_GUILD', 'GET_GUILDS', 'GET_CHANNEL', 'GET_CHANNELS']) {
    ts.server.setCommandHandler(cmd, ({ request }) => ({ handled: request.cmd }));
  }
});
afterEach(async () => ts.close());

/** A ready client that sent AUTHENTICATE with these scopes (none: not authenticated). */
async function client(scopes?: readonly string[]): Promise<RawClient> {
  const { client } = await RawClient.ready(ts.path, APP);
  if (scopes !== undefined) {
    const reply = await client.request('AUTHENTICATE', { access_token: testToken(APP, scopes) });
    expect(reply.evt).toBeNull();
  }
  return client;
}

const ARGS: Record<string, Record<string, unknown>> = {
  GET_GUILD: { guild_id: GUILD },
  GET_GUILDS: {},
  GET_CHANNEL: { channel_id: CHANNEL },
  GET_CHANNELS: { guild_id: GUILD },
};

describe('the scope table', () => {
  it('gives the guild commands and GUILD_STATUS the reference scopes, and keeps local commands open', () => {
    expect(RPC_COMMANDS['GET_GUILD']).toEqual({ local: false, scopes: ['rpc'] });
    expect(RPC_COMMANDS['GET_GUILDS']).toEqual({ local: false, scopes: ['rpc'] });
    expect(RPC_COMMANDS['GET_CHANNELS']).toEqual({ local: false, scopes: ['rpc'] });
    expect(RPC_COMMANDS['GET_CHANNEL']).toEqual({ local: false, scopes: ['rpc', 'guilds', 'guilds.channels.read'] });
    expect(RPC_EVENTS['GUILD_STATUS']).toEqual({ local: false, scopes: ['rpc'], arg: 'guild_id' });
    for (const [name, spec] of Object.entries(RPC_COMMANDS)) {
      if (spec.local) expect(spec.scopes, name).toBeUndefined();
    }
  });

  it('permits a local spec always, and otherwise needs authentication plus any one listed scope', () => {
    const anon = { authenticated: false, scopes: new Set<string>() };
    const withGuilds = { authenticated: true, scopes: new Set(['identify', 'guilds']) };
    const bare = { authenticated: true, scopes: new Set<string>() };
    expect(isPermitted(anon, { local: true })).toBe(true);
    expect(isPermitted(anon, { local: false })).toBe(false);
    expect(isPermitted(anon, { local: false, scopes: [] })).toBe(false);
    expect(isPermitted(bare, { local: false })).toBe(true);
    expect(isPermitted(bare, { local: false, scopes: ['rpc'] })).toBe(false);
    expect(isPermitted(withGuilds, { local: false, scopes: ['rpc', 'guilds'] })).toBe(true);
    expect(isPermitted(withGuilds, { local: false, scopes: ['rpc'] })).toBe(false);
  });
});

describe('commands', () => {
  it.each(Object.keys(ARGS))('refuses %s unauthenticated with 4006', async (cmd) => {
    const c = await client();
    const reply = await c.request(cmd, ARGS[cmd]);
    expect(reply).toMatchObject({ cmd, evt: 'ERROR', data: REFUSED });
  });

  it.each(Object.keys(ARGS))('refuses %s with the same 4006 when the token lacks the scope', async (cmd) => {
    const c = await client(['identify', 'rpc.activities.write']);
    const reply = await c.request(cmd, ARGS[cmd]);
    expect(reply).toMatchObject({ cmd, evt: 'ERROR', data: REFUSED });
  });

  it.each(Object.keys(ARGS))('lets %s through with the rpc scope', async (cmd) => {
    const c = await client(['identify', 'rpc']);
    expect(await c.request(cmd, ARGS[cmd])).toMatchObject({ cmd, evt: null, data: { handled: cmd } });
  });

  it('lets GET_CHANNEL through with guilds or guilds.channels.read, where GET_GUILD still needs rpc', async () => {
    for (const scope of ['guilds', 'guilds.channels.read']) {
      const c = await client([scope]);
      expect((await c.request('GET_CHANNEL', ARGS['GET_CHANNEL'])).data, scope).toEqual({ handled: 'GET_CHANNEL' });
      expect((await c.request('GET_GUILD', ARGS['GET_GUILD'])).data, scope).toEqual(REFUSED);
      expect((await c.request('GET_CHANNELS', ARGS['GET_CHANNELS'])).data, scope).toEqual(REFUSED);
    }
  });

  it('checks the scope before the arguments: a refused command says 4006, not 4000', async () => {
    const c = await client(['identify']);
    expect((await c.request('GET_GUILD', { guild_id: 12 })).data).toEqual(REFUSED);
  });

  it('keeps a needs-AUTHENTICATE-only command (no scope list) open to any token', async () => {
    const anon = await client();
    const authed = await client([]);
    expect((await anon.request('GET_USER', { id: '1' })).data).toEqual(REFUSED);
    // Past the check, GET_USER has no handler in the bare RPC server (the host installs one): a clear 1000, not 4006.
    expect((await authed.request('GET_USER', { id: '1' })).data.code).toBe(1000);
  });

  it('applies the scopes of a later AUTHENTICATE, not the first one', async () => {
    const c = await client(['rpc']);
    expect((await c.request('GET_GUILDS', {})).evt).toBeNull();
    await c.request('AUTHENTICATE', { access_token: testToken(APP, ['identify']) });
    expect((await c.request('GET_GUILDS', {})).data).toEqual(REFUSED);
  });

  it('still answers local commands without authentication, and with a token without scopes', async () => {
    for (const c of [await client(), await client([])]) {
      expect(await c.request('SET_ACTIVITY', { pid: 1, activity: { state: 'in a match' } })).toMatchObject({ evt: null, data: { state: 'in a match' } });
      expect(await c.request('SUBSCRIBE', {}, { evt: 'ACTIVITY_JOIN' })).toMatchObject({ evt: null, data: { evt: 'ACTIVITY_JOIN' } });
    }
  });
});

describe('SUBSCRIBE', () => {
  const subscribeGuild = (c: RawClient, cmd = 'SUBSCRIBE') => c.request(cmd, { guild_id: GUILD }, { evt: 'GUILD_STATUS' });

  it('refuses GUILD_STATUS unauthenticated and without the rpc scope, and records nothing', async () => {
    for (const c of [await client(), await client(['identify', 'guilds'])]) {
      expect(await subscribeGuild(c)).toMatchObject({ cmd: 'SUBSCRIBE', evt: 'ERROR', data: REFUSED });
    }
    expect(ts.server.dispatch('GUILD_STATUS', { online: 0 }, { args: { guild_id: GUILD } })).toBe(0);
    expect([...ts.server.connections()].every((c) => c.subscriptions.size === 0)).toBe(true);
  });

  it('accepts GUILD_STATUS with the rpc scope and then delivers it', async () => {
    const subscribed: string[] = [];
    ts.server.on('subscribe', (connection, subscription) => subscribed.push(`${connection.id} ${subscription.evt}`));
    const c = await client(['rpc']);
    expect(await subscribeGuild(c)).toEqual({ cmd: 'SUBSCRIBE', data: { evt: 'GUILD_STATUS' }, evt: null, nonce: expect.any(String) });
    expect(subscribed).toHaveLength(1);
    expect(ts.server.dispatch('GUILD_STATUS', { online: 0 }, { args: { guild_id: GUILD } })).toBe(1);
    expect((await c.next()).payload).toEqual({ cmd: 'DISPATCH', data: { online: 0 }, evt: 'GUILD_STATUS', nonce: null });
    expect((await subscribeGuild(c, 'UNSUBSCRIBE')).data).toEqual({ evt: 'GUILD_STATUS' });
  });

  it('emits no subscribe event for a refused SUBSCRIBE', async () => {
    let emitted = 0;
    ts.server.on('subscribe', () => (emitted += 1));
    await subscribeGuild(await client(['identify']));
    expect(emitted).toBe(0);
  });

  it('needs an event-specific scope where the table gives one (RELATIONSHIP_UPDATE: relationships.read)', async () => {
    const rpcOnly = await client(['rpc']);
    expect((await rpcOnly.request('SUBSCRIBE', {}, { evt: 'RELATIONSHIP_UPDATE' })).data).toEqual(REFUSED);
    const reader = await client(['relationships.read']);
    expect((await reader.request('SUBSCRIBE', {}, { evt: 'RELATIONSHIP_UPDATE' })).data).toEqual({ evt: 'RELATIONSHIP_UPDATE' });
  });

  it('opens voice events to rpc.voice.read as well as rpc', async () => {
    const voice = await client(['rpc.voice.read']);
    expect((await voice.request('SUBSCRIBE', {}, { evt: 'VOICE_SETTINGS_UPDATE' })).data).toEqual({ evt: 'VOICE_SETTINGS_UPDATE' });
    expect((await voice.request('SUBSCRIBE', {}, { evt: 'GUILD_CREATE' })).data).toEqual(REFUSED);
  });

  it('keeps events without a scope list open to any authenticated connection (ENTITLEMENT_CREATE)', async () => {
    expect((await (await client()).request('SUBSCRIBE', {}, { evt: 'ENTITLEMENT_CREATE' })).data).toEqual(REFUSED);
    expect((await (await client([])).request('SUBSCRIBE', {}, { evt: 'ENTITLEMENT_CREATE' })).data).toEqual({ evt: 'ENTITLEMENT_CREATE' });
  });

  it('refuses UNSUBSCRIBE from an event the connection may not subscribe to, with the same 4006', async () => {
    expect((await subscribeGuild(await client(['identify']), 'UNSUBSCRIBE')).data).toEqual(REFUSED);
  });
});
