import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guildChanged, installGuildCommands, type GuildCommands } from '../../../src/host/guilds/index.js';
import type { RawClient } from '../../../../rpc/test/support/raw-client.js';
import type { TestServer } from '../../../../rpc/test/support/test-server.js';
import { FakeGuildSource } from './fake-guild-source.js';
import { APP_A, APP_B, connect, startGuildTestServer } from './support.js';

const CDN = 'cdn.example.test';
const G1 = '500000000000000001';
const G2 = '500000000000000002';
const UNKNOWN = '599999999999999999';
const TEXT = '600000000000000001';
const VOICE = '600000000000000002';
const CATEGORY = '600000000000000003';

let ts: TestServer;
let source: FakeGuildSource;
let commands: GuildCommands;
let warnings: string[];

beforeEach(async () => {
  ts = await startGuildTestServer();
  source = new FakeGuildSource();
  source.addGuild({ id: G1, name: 'Raid Night', icon: 'a1b2c3' }, [
    { id: TEXT, type: 0, name: 'general', position: 0 },
    { id: VOICE, type: 2, name: 'Voice', position: 1 },
    { id: CATEGORY, type: 4, name: 'Info', position: 2 },
  ]);
  source.addGuild({ id: G2, name: 'No Icon', icon: null });
  warnings = [];
  const logger = { debug() {}, info() {}, warn: (_fields: object, message: string) => warnings.push(message), error() {} };
  commands = installGuildCommands(ts.server, source, { cdnHost: CDN, logger });
});
afterEach(async () => {
  commands.dispose();
  await ts.close();
});

const rpcClient = (app = APP_A): Promise<RawClient> => connect(ts, app, ['rpc', 'identify']);
const subscribe = (c: RawClient, guildId: string) => c.request('SUBSCRIBE', { guild_id: guildId }, { evt: 'GUILD_STATUS' });
const status = (id: string, name: string, icon: string | null) => ({
  cmd: 'DISPATCH',
  data: { guild: { id, name, icon_url: icon === null ? null : `https://${CDN}/icons/${id}/${icon}.png` }, online: 0 },
  evt: 'GUILD_STATUS',
  nonce: null,
});

describe('GET_GUILDS and GET_GUILD', () => {
  it('lists the guilds as {id, name, icon_url}, with icon_url null for a guild without an icon', async () => {
    const reply = await (await rpcClient()).request('GET_GUILDS', {});
    expect(reply).toMatchObject({ cmd: 'GET_GUILDS', evt: null });
    expect(reply.data).toEqual({
      guilds: [
        { id: G1, name: 'Raid Night', icon_url: `https://${CDN}/icons/${G1}/a1b2c3.png` },
        { id: G2, name: 'No Icon', icon_url: null },
      ],
    });
  });

  it('answers GET_GUILD with {id, name, icon_url, members: []}', async () => {
    const c = await rpcClient();
    expect((await c.request('GET_GUILD', { guild_id: G1 })).data).toEqual({
      id: G1,
      name: 'Raid Night',
      icon_url: `https://${CDN}/icons/${G1}/a1b2c3.png`,
      members: [],
    });
    expect((await c.request('GET_GUILD', { guild_id: G2, timeout: 10 })).data).toEqual({ id: G2, name: 'No Icon', icon_url: null, members: [] });
  });

  it('answers an unknown guild with 4003', async () => {
    const reply = await (await rpcClient()).request('GET_GUILD', { guild_id: UNKNOWN });
    expect(reply).toMatchObject({ cmd: 'GET_GUILD', evt: 'ERROR', data: { code: 4003, message: 'Invalid guild' } });
  });

  it('validates the arguments with Joi-style 4000 messages before asking the platform', async () => {
    const c = await rpcClient();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'child "guild_id" fails because ["guild_id" is required]'],
      [{ guild_id: 5 }, 'child "guild_id" fails because ["guild_id" must be a string]'],
      [{ guild_id: 'abc' }, 'child "guild_id" fails because ["guild_id" must be a snowflake (a string of digits)]'],
      [{ guild_id: G1, timeout: '5' }, 'child "timeout" fails because ["timeout" must be a number]'],
      [{ guild_id: G1, timeout: -1 }, 'child "timeout" fails because ["timeout" must be larger than or equal to 0]'],
      [{ guild_id: G1, timeout: 61 }, 'child "timeout" fails because ["timeout" must be less than or equal to 60]'],
    ];
    for (const [args, message] of cases) {
      expect((await c.request('GET_GUILD', args)).data, JSON.stringify(args)).toEqual({ code: 4000, message });
    }
    expect(source.calls).toEqual([]);
  });

  it('answers 5002 when the platform does not answer within the timeout', async () => {
    let release = (): void => undefined;
    source.stall = new Promise<void>((resolve) => (release = resolve));
    const c = await rpcClient();
    const reply = await c.request('GET_GUILD', { guild_id: G1, timeout: 0.05 });
    expect(reply.data).toEqual({ code: 5002, message: 'Request to get the guild timed out' });
    release();
    source.stall = undefined;
    // The connection goes on serving commands.
    expect((await c.request('GET_GUILD', { guild_id: G1, timeout: 0.05 })).data.id).toBe(G1);
  });

  it('answers a platform failure with 1000 and a clear message that carries no internal detail', async () => {
    source.failing = true;
    const c = await rpcClient();
    for (const [cmd, args] of [
      ['GET_GUILDS', {}],
      ['GET_GUILD', { guild_id: G1 }],
      ['GET_CHANNELS', { guild_id: G1 }],
      ['GET_CHANNEL', { channel_id: TEXT }],
    ] as const) {
      const reply = await c.request(cmd, args);
      expect(reply, cmd).toMatchObject({ cmd, evt: 'ERROR', data: { code: 1000 } });
      expect(reply.data.message, cmd).toMatch(/^Could not load .*: the platform did not answer$/);
      expect(reply.data.message).not.toContain('ECONNREFUSED');
    }
    expect(warnings).toEqual(Array(4).fill('guild source failed'));
  });

  it('passes an RpcError of the source through unchanged', async () => {
    const { RpcError } = await import('../../../../rpc/src/index.js');
    source.guilds = () => Promise.reject(new RpcError(1001, 'Companion cannot reach the platform right now; try again'));
    const reply = await (await rpcClient()).request('GET_GUILDS', {});
    expect(reply.data).toEqual({ code: 1001, message: 'Companion cannot reach the platform right now; try again' });
  });
});

describe('GET_CHANNELS and GET_CHANNEL', () => {
  it('lists a guild\'s channels as {id, name, type}', async () => {
    const reply = await (await rpcClient()).request('GET_CHANNELS', { guild_id: G1 });
    expect(reply).toMatchObject({ cmd: 'GET_CHANNELS', evt: null });
    expect(reply.data).toEqual({
      channels: [
        { id: TEXT, name: 'general', type: 0 },
        { id: VOICE, name: 'Voice', type: 2 },
        { id: CATEGORY, name: 'Info', type: 4 },
      ],
    });
  });

  it('answers GET_CHANNELS for an unknown guild with 4003', async () => {
    expect((await (await rpcClient()).request('GET_CHANNELS', { guild_id: UNKNOWN })).data).toEqual({ code: 4003, message: 'Invalid guild' });
  });

  it('answers GET_CHANNEL in the reference shape, with defaults for what the platform does not give', async () => {
    const c = await rpcClient();
    const text = await c.request('GET_CHANNEL', { channel_id: TEXT });
    expect(text.data).toEqual({
      id: TEXT,
      guild_id: G1,
      name: 'general',
      type: 0,
      topic: '',
      bitrate: 0,
      user_limit: 0,
      position: 0,
      voice_states: [],
      messages: [],
    });
    expect(Object.keys(text.data)).toEqual(['id', 'guild_id', 'name', 'type', 'topic', 'bitrate', 'user_limit', 'position', 'voice_states', 'messages']);
    expect((await c.request('GET_CHANNEL', { channel_id: VOICE })).data).toMatchObject({ type: 2, bitrate: 64000, position: 1 });
  });

  it('uses topic, bitrate and user_limit when the platform has them', async () => {
    source.channelsById.set('600000000000000009', { id: '600000000000000009', type: 2, guild_id: G2, name: 'Squad', position: 3, topic: null, bitrate: 96000, user_limit: 4 });
    const reply = await (await rpcClient()).request('GET_CHANNEL', { channel_id: '600000000000000009' });
    expect(reply.data).toMatchObject({ guild_id: G2, topic: '', bitrate: 96000, user_limit: 4, position: 3 });
  });

  it('answers an unknown channel with 4005, and bad args with 4000', async () => {
    const c = await rpcClient();
    expect((await c.request('GET_CHANNEL', { channel_id: UNKNOWN })).data).toEqual({ code: 4005, message: 'Invalid channel' });
    expect((await c.request('GET_CHANNEL', {})).data).toEqual({ code: 4000, message: 'child "channel_id" fails because ["channel_id" is required]' });
    expect((await c.request('GET_CHANNELS', { guild_id: [] })).data).toEqual({ code: 4000, message: 'child "guild_id" fails because ["guild_id" must be a string]' });
  });

  it('serves GET_CHANNEL to a token with only the guilds scope, and refuses the rest with 4006', async () => {
    const c = await connect(ts, APP_A, ['guilds']);
    expect((await c.request('GET_CHANNEL', { channel_id: TEXT })).data.id).toBe(TEXT);
    expect((await c.request('GET_GUILDS', {})).data).toEqual({ code: 4006, message: 'Not authenticated or invalid scope' });
    expect(source.calls).toEqual([`channel ${TEXT}`]);
  });

  it('never reaches the source for an unauthenticated game', async () => {
    const c = await connect(ts, APP_A);
    for (const cmd of ['GET_GUILDS', 'GET_GUILD', 'GET_CHANNELS', 'GET_CHANNEL']) {
      expect((await c.request(cmd, { guild_id: G1, channel_id: TEXT })).data.code).toBe(4006);
    }
    expect(source.calls).toEqual([]);
  });
});

describe('GUILD_STATUS', () => {
  it('sends the status at once after the SUBSCRIBE reply, to that game only', async () => {
    const a = await rpcClient();
    const other = await rpcClient(APP_B);
    const reply = await subscribe(a, G1);
    expect(reply).toMatchObject({ cmd: 'SUBSCRIBE', evt: null, data: { evt: 'GUILD_STATUS' } });
    expect((await a.next()).payload).toEqual(status(G1, 'Raid Night', 'a1b2c3'));
    expect(await other.framesBeforeBarrier()).toEqual([]);
  });

  it('sends the status of a guild without an icon with icon_url null', async () => {
    const a = await rpcClient();
    await subscribe(a, G2);
    expect((await a.next()).payload).toEqual(status(G2, 'No Icon', null));
  });

  it('sends nothing for an unknown guild or a failing platform, and the SUBSCRIBE still succeeds', async () => {
    const a = await rpcClient();
    expect((await subscribe(a, UNKNOWN)).data).toEqual({ evt: 'GUILD_STATUS' });
    expect(await a.framesBeforeBarrier()).toEqual([]);
    source.failing = true;
    expect((await subscribe(a, G1)).data).toEqual({ evt: 'GUILD_STATUS' });
    expect(await a.framesBeforeBarrier()).toEqual([]);
    expect(warnings).toEqual(['GUILD_STATUS: guild source failed']);
  });

  it('on guildChanged, dispatches the new status only to the games subscribed to that guild', async () => {
    const a = await rpcClient();
    const b = await rpcClient(APP_B);
    const bystander = await rpcClient();
    await subscribe(a, G1);
    expect((await a.next()).payload.evt).toBe('GUILD_STATUS');
    await subscribe(b, G2);
    expect((await b.next()).payload.evt).toBe('GUILD_STATUS');

    expect(guildChanged(ts.server, { id: G1, name: 'Raid Night (renamed)', icon: 'ffee' })).toBe(1);
    expect((await a.next()).payload).toEqual(status(G1, 'Raid Night (renamed)', 'ffee'));
    expect(await b.framesBeforeBarrier()).toEqual([]);
    expect(await bystander.framesBeforeBarrier()).toEqual([]);

    // The handle does the same; an unsubscribed game stops getting it.
    expect(commands.guildChanged({ id: G2, name: 'Now With Icon', icon: 'abc' })).toBe(1);
    expect((await b.next()).payload).toEqual(status(G2, 'Now With Icon', 'abc'));
    await b.request('UNSUBSCRIBE', { guild_id: G2 }, { evt: 'GUILD_STATUS' });
    expect(guildChanged(ts.server, { id: G2, name: 'Again', icon: null })).toBe(0);
    expect(await b.framesBeforeBarrier()).toEqual([]);
  });

  it('delivers to every subscriber of the guild, across applications', async () => {
    const a = await rpcClient();
    const b = await rpcClient(APP_B);
    for (const c of [a, b]) {
      await subscribe(c, G1);
      await c.next();
    }
    expect(guildChanged(ts.server, { id: G1, name: 'Both', icon: null })).toBe(2);
    for (const c of [a, b]) expect((await c.next()).payload).toEqual(status(G1, 'Both', null));
  });

  it('refuses SUBSCRIBE without the rpc scope and sends no status', async () => {
    const c = await connect(ts, APP_A, ['guilds']);
    expect((await subscribe(c, G1)).data).toEqual({ code: 4006, message: 'Not authenticated or invalid scope' });
    expect(await c.framesBeforeBarrier()).toEqual([]);
    expect(source.calls).toEqual([]);
  });

  it('stops the initial status after dispose()', async () => {
    commands.dispose();
    const a = await rpcClient();
    await subscribe(a, G1);
    expect(await a.framesBeforeBarrier()).toEqual([]);
  });
});
